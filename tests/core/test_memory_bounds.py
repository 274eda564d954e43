"""What a long `rollbook run` holds stays bounded (issue 22): no cache, list or answer grows with the file.

Each test checks a bound (a size, a count, a lazy read), never a time or a peak: a bound that
goes is a cause of growth come back, whatever the machine.
"""

from rollbook.bench.generate import generate
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.ids import ID_CACHE_SIZE, member_id
from rollbook.projections import projector as projector_module
from rollbook.projections.queries import Reader
from rollbook.store import Store
from rollbook.store.seeds import SEEDS_HELD, FileSeedKeeper


def campaign_lines(size: int) -> bytes:
    """A generated pirate campaign (its own seeded dice): chapters, scenes, checkpoints."""
    return generate("pirates", size).jsonl()


def test_the_id_caches_are_bounded_however_many_scenes_are_named():
    for number in range(ID_CACHE_SIZE + 100):
        member_id("bounded", "scene", str(number))
    assert member_id.cache_info().currsize <= ID_CACHE_SIZE


def test_a_seed_keeper_holds_only_its_latest_seeds(tmp_path):
    keeper = FileSeedKeeper(tmp_path)
    commitments = [keeper.new_seed("c") for _ in range(SEEDS_HELD + 5)]
    for commitment in commitments:
        keeper.seed("c", commitment)
    assert len(keeper._read) == SEEDS_HELD
    assert keeper.seed("c", commitments[0]) == keeper.seed("c", commitments[0])  # read again from its file


def sheets(reader: Reader) -> list:
    return [(d["kind"], d["sheet"]) for d in reader.views.all("bench-pirates", "sheet")]


def test_the_projector_holds_a_bounded_number_of_aggregates_and_projects_the_same(monkeypatch):
    store = Store.open("memory://")
    assert run_file(Rollbook(store), campaign_lines(1500)).error is None
    reader = Reader(store)
    reader.projector.catch_up(batch_size=100)
    assert len(reader.projector.folded) > 8, "the campaign has more aggregates than the bound below"
    whole = sheets(reader)

    monkeypatch.setattr(projector_module, "HELD_AGGREGATES", 8)
    reader.views.clear()
    reader.projector.folded.clear()
    reader.projector.catch_up(batch_size=100)  # aggregates dropped between batches are read back
    assert len(reader.projector.folded) <= 8
    assert sheets(reader) == whole
