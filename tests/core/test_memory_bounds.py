"""What a long `rollbook run` holds stays bounded (issue 22): no cache, list or answer grows with the file.

Each test checks a bound (a size, a count, a lazy read), never a time or a peak: a bound that
goes is a cause of growth come back, whatever the machine.
"""

import json
import os
import subprocess
import sys
import threading

import pytest

from rollbook.bench.generate import generate
from rollbook.cli import remote
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


def test_a_run_without_kept_details_counts_skips_and_checkpoints_instead_of_keeping_them():
    store = Store.open("memory://")
    text = campaign_lines(600)
    first = run_file(Rollbook(store), text, source="campaign.jsonl", kept=False)
    again = run_file(Rollbook(store), text, source="campaign.jsonl", kept=False)
    assert first.error is None and first.applied == 600 and first.signed > 0
    assert first.checkpoints == [] and again.skipped == []
    assert (again.applied, again.skips) == (0, 600)
    kept = run_file(Rollbook(store), text, source="campaign.jsonl")  # a JSON summary lists them
    assert kept.skips == len(kept.skipped) == 600


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


def test_run_on_a_server_keeps_no_answer_only_counts(monkeypatch):
    answers = iter(range(1, 10**6))

    def post(_remote, data, *, line=None):
        number = next(answers)
        return {"command_id": data["id"], "replayed": number % 2 == 0, "events": [{}], "rolls": [],
                "position": number, "summary": f"applied {data['id']}"}

    monkeypatch.setattr(remote, "post", post)
    shown = []
    report = remote.run(object(), campaign_lines(400), source="campaign.jsonl", default_campaign=None,
                        on_answer=lambda skip, answer: shown.append(skip is None), kept=False)
    assert (report.applied, report.skips, report.skipped) == (200, 200, [])
    assert shown.count(True) == shown.count(False) == 200  # each said as it came, none kept


@pytest.mark.slow  # it starts a process
def test_standard_input_is_applied_line_by_line_as_it_arrives(tmp_path):
    """A pipe fed one line, still open: its command is applied (and said) before any more comes."""
    first, second = (json.dumps(c) for c in generate("pirates", 2).commands)
    process = subprocess.Popen(
        [sys.executable, "-m", "rollbook.cli", "run", "-", "--store", f"sqlite:///{tmp_path / 's.db'}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"},
    )
    said: list[bytes] = []
    reader = threading.Thread(target=lambda: said.append(process.stdout.readline()), daemon=True)
    try:
        process.stdin.write(first.encode() + b"\n")
        process.stdin.flush()
        reader.start()
        reader.join(120)  # not a timing: a run that waited for the end of its input would never say it
        assert said and said[0].strip(), "the first command was not applied while standard input stayed open"
        process.stdin.write(second.encode() + b"\n")
    finally:
        process.stdin.close()
        process.wait(120)
    assert process.returncode == 0


def test_ended_scenes_leave_the_aggregate_cache_and_the_open_one_stays():
    """The cache holds as many aggregates as the id caches hold ids: a long campaign's ended scenes
    took places there that the members in play could hold (full at ~40k heroes commands; issue 22)."""
    from rollbook.domain.members import Scene

    store = Store.open("memory://")
    try:
        assert run_file(Rollbook(store), campaign_lines(600)).error is None
        cached = [link[3] for link in store.app.repository.cache.cache.values() if isinstance(link[3], Scene)]
        started = [e for e in store.app.recorder.select_notifications(start=None, limit=10**6)
                   if e.topic.endswith("Scene.Started")]
        assert len(started) > 5  # the campaign has had scenes enough to tell
        assert all(not scene.ended for scene in cached) and len(cached) <= 1
        ended = store.app.repository.get(Scene.create_id("bench-pirates", 1))  # read again, when asked
        assert ended.ended
    finally:
        store.close()
