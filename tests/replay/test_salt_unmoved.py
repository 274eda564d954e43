"""A salted roll's faces are fixed by the committed seed and the player's salt alone (issue 44, item 1).

The attack (../shared/notes/attacks-december-7/dice_shift_by_undo.sh): the seed holder sees a player's salt
arrive, computes the faces the roll would show after a move of his own (a roll slipped in first, a roll made
and undone, leaving `seen` out), and makes the move he likes. Faces were HMAC(seed, "campaign:nonce:cursor:
salt"), so each move shifted the nonce and with it the faces. Now a salted roll's faces are HMAC(seed,
"campaign:salted:place:cursor:salt") (domain/dice.py `SALTED`): no move made before or after the post changes
them, and a salt is used once per seed, so no two commands share faces.
"""

import json
import os
import shutil
import subprocess
from functools import cache

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.domain.campaign import Campaign
from rollbook.domain.dice import SALTED, recompute_faces
from rollbook.domain.errors import CommandRejected
from rollbook.domain.table import SeedSupply
from rollbook.projections.queries import Reader
from rollbook.replay.dispute import Ruling, dispute
from rollbook.replay.verify import verify
from rollbook.store import Store
from rollbook.store.seeds import MemorySeedKeeper

from .conftest import HISTORY, rollbook

#: The salted rolls each strategy is played against.
ROLLS = 200
SALTS = [f"post {1000 + n} anna {'lantern rope gull anchor'.split()[n % 4]} {n}" for n in range(ROLLS)]
STRATEGIES = ("slip a roll in", "roll + undo", "leave seen out", "rotate the seed")
#: The salted rolls each preceded by a roll and its undo in the strategy's full run: a shift shows at the first.
UNDONE_IN_FULL = 50


def table():
    """The audit campaign with Anna and Bo, a chapter, a scene and a battle open; seeds made alike every time."""
    store = Store.open("memory://", seeds=MemorySeedKeeper("deterministic"))
    service = Rollbook(store)
    for line in HISTORY[:7]:
        post(service, **line)
    return store, service


def post(service, **fields):
    return service.execute(parse_command({"campaign": "audit", **fields}, ruleset_of=service.ruleset_of))


def salted(service, n, *, seen=True, commitment=None, again=False):
    """Anna's n-th salted roll, with `seen` (the commands she saw when she chose the salt) or without, naming the
    seed she chose it under (`commitment`) or not; `again`: posted again, with a new salt, after a refusal."""
    view = {"seen": service.campaign(service.key_for("audit")).seq} if seen else {}
    named = {"commitment": commitment} if commitment else {}
    salt = f"{SALTS[n]} again" if again else SALTS[n]
    return post(service, type="roll_move", character="Anna", stat="guile", actor="player:anna", salt=salt,
                id=f"anna-{n}", **view, **named)


def stored_rolls(store):
    reader = Reader(store)
    reader.catch_up()
    return reader.rolls(reader.campaign("audit")["current_key"])


def faces_by_salt(store):
    return {roll["salt"]: roll["faces"] for roll in stored_rolls(store) if "salt" in roll}


@cache
def fair_faces():
    """The faces of the 200 salted rolls where the seed holder makes no move at all."""
    store, service = table()
    for n in range(ROLLS):
        salted(service, n)
    return faces_by_salt(store)


def gm_roll(service, name):
    post(service, type="roll_move", character="Bo", stat="guile", id=name)


def undo(store, command, actor="gm"):
    return dispute(store, "audit", Ruling(roll=command, reason="typo", actor=actor, drop=True), dry_run=False)


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(strategy=st.sampled_from(STRATEGIES),
       moves=st.lists(st.integers(min_value=0, max_value=3), min_size=ROLLS, max_size=ROLLS),
       undone=st.sets(st.integers(min_value=0, max_value=ROLLS - 1), max_size=4))
@example(strategy="slip a roll in", moves=[1] * ROLLS, undone=set())
@example(strategy="roll + undo", moves=[0] * ROLLS, undone={0, 57, 123, 199})
@example(strategy="leave seen out", moves=[3, 0, 2, 1] * (ROLLS // 4), undone=set())
@example(strategy="rotate the seed", moves=[2] * ROLLS, undone={5, 120})
def test_no_move_of_the_seed_holder_changes_a_salted_rolls_faces(strategy, moves, undone):
    """Each strategy against 200 salted rolls: every face the same as where the seed holder did nothing.

    `moves[n]`: how many rolls of his own the seed holder slips in after he saw the n-th salt; `undone`: the
    salts after which he makes a roll and undoes it (each undo re-executes the campaign: a few, not 200).
    "rotate the seed": he rotates the seed after he saw each salt in `undone`, before the roll is stored; the
    post names the seed it was salted under (`commitment`), so it is refused and nothing written (vetoed, never
    moved), and the player posts again with a new salt under the new seed. Every roll stored shows the faces its
    salt gives under the seed it names, as where the seed holder did nothing, and `verify` recomputes each."""
    if strategy == "rotate the seed":
        return rotated_before_the_roll_is_stored(sorted(undone))
    store, service = table()
    slipped = 0
    for n in range(ROLLS):
        for _ in range(moves[n] if strategy != "roll + undo" else 0):
            slipped += 1
            gm_roll(service, f"gm-{slipped}")
        if n in undone:
            gm_roll(service, f"undone-{n}")
            undo(store, f"undone-{n}")
        salted(service, n, seen=strategy != "leave seen out")
    assert faces_by_salt(store) == fair_faces()


def rotated_before_the_roll_is_stored(rotations):
    store, service = table()
    for n in range(ROLLS):
        named = service.campaign(service.key_for("audit")).commitment  # the seed the salt is chosen under
        if n in rotations:
            post(service, type="rotate_seed", id=f"rotated-{n}")
            before = service.campaign(service.key_for("audit")).seq
            with pytest.raises(CommandRejected) as refused:
                salted(service, n, commitment=named)
            assert refused.value.field == "commitment"
            assert f"the seed changed by command rotated-{n}" in refused.value.message
            assert service.campaign(service.key_for("audit")).seq == before  # nothing written
            named = service.campaign(service.key_for("audit")).commitment  # he looks again
        salted(service, n, commitment=named, again=n in rotations)
    rolls = [roll for roll in stored_rolls(store) if "salt" in roll]
    assert len(rolls) == ROLLS
    for roll in rolls:
        seed = store.seeds.seed("audit", roll["commitment"])
        assert roll["faces"] == recompute_faces(seed, "audit", 0, roll["sides"], roll["salt"], place=1)
    first_rotation = min(rotations, default=ROLLS)
    unrotated = {salt: faces for salt, faces in fair_faces().items() if SALTS.index(salt) < first_rotation}
    assert unrotated.items() <= faces_by_salt(store).items()
    post(service, type="end_chapter", id="revealed")
    report = verify(store.app, service.key_for("audit"))
    assert report.findings == [] and report.rolls_checked == ROLLS


@pytest.mark.slow
def test_a_roll_made_and_undone_before_each_of_the_first_50_salted_rolls_moves_none_of_the_200():
    """The roll + undo strategy in full: before each of the first 50 salted rolls the seed holder rolls and undoes
    it (50 rulings, each re-making the campaign: the cost grows with the square of their number), and the 150
    salted rolls after them are made 50 revisions on; every face of the 200 as where he did nothing, and `verify`
    agrees."""
    store, service = table()
    for n in range(ROLLS):
        if n < UNDONE_IN_FULL:
            gm_roll(service, f"undone-{n}")
            undo(store, f"undone-{n}")
        salted(service, n)
    assert faces_by_salt(store) == fair_faces()
    post(service, type="end_chapter", id="revealed")
    report = verify(store.app, service.key_for("audit"))
    assert report.findings == [] and report.rolls_checked == ROLLS


def test_a_stale_seen_posts_and_finds_nothing(tmp_path):
    """`seen` is accepted for the clients that send it, and nothing is refused or found for it: a web form drawn
    before another post now posts (issue 44)."""
    url = f"sqlite:///{tmp_path / 'stale.db'}"
    lines = tmp_path / "history.jsonl"
    lines.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY[:7]) + "\n")
    rollbook("run", str(lines), store=url)
    rollbook("post", "roll_move", "character=Bo", "stat=guile", "-c", "audit", store=url)
    late = rollbook("post", "roll_move", "character=Anna", "stat=guile", "seen=3", "salt=post 12 owl",
                    "--actor", "player:anna", "-c", "audit", store=url, check=False)
    assert late.returncode == 0, late.stderr
    rollbook("post", "end_chapter", "-c", "audit", store=url)
    report = json.loads(rollbook("verify", "-c", "audit", "--json", store=url).stdout)["audit"]
    assert report["findings"] == [] and report["rolls_checked"] == 2


def test_a_salt_is_used_once_per_seed_naming_the_command_that_used_it():
    store, service = table()
    salted(service, 0)
    before = service.campaign("audit").seq
    with pytest.raises(CommandRejected) as refused:
        post(service, type="roll_move", character="Bo", stat="guile", actor="player:bo", salt=SALTS[0], id="bo-1")
    assert refused.value.field == "salt" and "used under this seed by command anna-0" in refused.value.message
    assert service.campaign("audit").seq == before  # nothing written
    # The GM's own roll with a player's salt is refused alike: he cannot take the salt's faces for himself.
    with pytest.raises(CommandRejected, match="by command anna-0"):
        post(service, type="roll_move", character="Bo", stat="guile", salt=SALTS[0], id="gm-1")
    # A new seed: the salt may be used once again, and gives that seed's faces.
    post(service, type="rotate_seed")
    post(service, type="roll_move", character="Bo", stat="guile", actor="player:bo", salt=SALTS[0], id="bo-2")
    campaign = service.campaign("audit")
    reader = Reader(store)
    reader.catch_up()
    roll = next(r for r in reader.rolls("audit") if r["id"] == "bo-2")
    seed = store.seeds.seed("audit", campaign.commitment)
    assert roll["derivation"] == SALTED and roll["place"] == 1
    assert roll["faces"] == recompute_faces(seed, "audit", 999, [6, 6], SALTS[0], place=1)  # any nonce: the same


def test_a_struck_rolls_salt_stays_used_and_a_ruling_re_executes_salted_rolls():
    """Undone, a salted roll's salt is not free again (it would show the struck faces); a ruling that re-makes
    the campaign re-executes every salted roll after it with its recorded faces, never refused for its salt."""
    store, service = table()
    gm_roll(service, "gm-0")
    salted(service, 0)
    salted(service, 1)
    undo(store, "anna-1")  # struck by the GM
    with pytest.raises(CommandRejected, match="used under this seed by command anna-1"):
        salted(service, 1)
    undo(store, "gm-0")  # revision 3 re-executes anna-0 with its salt, as recorded
    assert faces_by_salt(store) == {SALTS[0]: fair_faces()[SALTS[0]]}
    salted(service, 2)
    assert faces_by_salt(store)[SALTS[2]] == fair_faces()[SALTS[2]]


@pytest.mark.skipif(shutil.which("rollbook") is None, reason="the attack runs the installed `rollbook`")
def test_the_attack_of_december_7_shifts_nothing(tmp_path):
    """dice_shift_by_undo.sh as it was written: the seed holder previews the player's roll unshifted and shifted
    (a roll of his own, undone) on copies of the store, then makes the move; all three show the same faces."""
    script = os.path.join(os.path.dirname(__file__), "attacks", "dice_shift_by_undo.sh")
    result = subprocess.run(["bash", script], capture_output=True, text=True, timeout=300,
                            env={**os.environ, "TMPDIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    shown = {line.split(":", 1)[0]: line.split(":", 1)[1].strip() for line in result.stdout.splitlines()
             if line.split(":", 1)[0] in ("unshifted", "shifted", "real")}
    assert len(shown) == 3 and len(set(shown.values())) == 1, result.stdout
    assert "0 findings" in result.stdout


def test_two_writers_with_one_salt_store_it_once(tmp_path):
    """Two processes on one store, the second deciding on the campaign as it read it before the first wrote: its
    write collides on the campaign's version, it decides again on what is stored, and is refused for the salt."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    first = Rollbook(Store.open(url))
    for line in HISTORY[:7]:
        post(first, **line)
    second = Rollbook(Store.open(url))
    assert second.campaign("audit").seq == 7  # read before the first writer posts
    salted(first, 0)
    with pytest.raises(CommandRejected, match="used under this seed by command anna-0"):
        post(second, type="roll_move", character="Bo", stat="guile", actor="player:bo", salt=SALTS[0], id="bo-0")
    assert second.campaign("audit").seq == first.campaign("audit").seq == 8


def test_a_post_naming_a_rotated_seed_is_refused_in_one_line_and_writes_nothing(tmp_path):
    """`commitment=` on the command line (the public form: a roll's `commitment` in `rolls --json`): the seed the
    salt was chosen under posts; once rotated, the same names a seed no longer current and is refused in one line,
    naming the rotation, and nothing is written. A ruling after it re-executes the named rolls; `verify` agrees."""
    url = f"sqlite:///{tmp_path / 'named.db'}"
    lines = tmp_path / "history.jsonl"
    lines.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY[:7]) + "\n")
    rollbook("run", str(lines), store=url)
    rollbook("post", "roll_move", "character=Bo", "stat=guile", "--id", "gm-roll", "-c", "audit", store=url)
    named = json.loads(rollbook("rolls", "-c", "audit", "--json", store=url).stdout)[-1]["commitment"]
    anna = ("roll_move", "character=Anna", "stat=guile", "--actor", "player:anna", "-c", "audit")
    rollbook("post", *anna, "salt=post 12 owl", f"commitment={named}", store=url)
    rollbook("post", "rotate_seed", "--id", "turned", "-c", "audit", store=url)
    log = rollbook("log", "-c", "audit", "--json", store=url).stdout
    late = rollbook("post", *anna, "salt=post 13 gull", f"commitment={named}", store=url, check=False)
    assert late.returncode != 0 and "Traceback" not in late.stderr
    said = late.stderr.strip()
    assert "\n" not in said and "commitment" in said and "the seed changed by command turned" in said, said
    assert rollbook("log", "-c", "audit", "--json", store=url).stdout == log  # nothing written
    malformed = rollbook("post", *anna, "salt=post 14 gull", "commitment=abc", store=url, check=False)
    assert malformed.returncode != 0 and "commitment" in malformed.stderr and "Traceback" not in malformed.stderr
    # Another campaign's seed, or a seed of this one made up, is not this campaign's current one: refused alike.
    other = rollbook("post", *anna, "salt=post 15 gull", f"commitment={'0' * 64}", store=url, check=False)
    assert other.returncode != 0 and "the seed changed" in other.stderr
    rollbook("undo", "gm-roll", "--reason", "typo", "-c", "audit", store=url)  # re-makes the campaign, Anna's roll too
    rollbook("post", "end_chapter", "-c", "audit", store=url)
    kept = json.loads(rollbook("rolls", "-c", "audit", "--json", store=url).stdout)
    assert [(r["salt"], r["commitment"]) for r in kept if "salt" in r] == [("post 12 owl", named)]
    report = json.loads(rollbook("verify", "-c", "audit", "--json", store=url).stdout)["audit"]
    assert report["findings"] == [] and report["rolls_checked"] == 2  # Anna's, and the struck one of revision 1


def test_a_snapshot_taken_before_the_seeds_command_was_kept_agrees_and_names_no_command():
    """`seeded_by` is new in the Campaign's state: a snapshot taken before it lacks it and still agrees with the fold
    (`verify` finds nothing in an older store); restored, it names no command, and a rotation is refused alike."""
    store, service = table()
    folded = dict(vars(service.campaign("audit")))
    assert folded["seeded_by"]  # the command that committed the seed: create_campaign's
    older = {k: v for k, v in folded.items() if k != "seeded_by"}
    assert Campaign.snapshot_agrees(older, folded)
    assert not Campaign.snapshot_agrees({**folded, "seeded_by": "someone-else"}, folded)
    restored = object.__new__(type(service.campaign("audit")))
    restored.__dict__.update(older)
    assert restored.seeded_by is None
    supply = SeedSupply(store.seeds.seed, salt="post 1 owl", commitment="0" * 64)
    with pytest.raises(CommandRejected, match=r"^commitment: the seed changed since this was salted under 0{16}…"):
        supply.source_for(restored)
