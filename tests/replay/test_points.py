"""Points of the history (issue 15, "reads that break, or lie"): a counted unit's real end, revisions spoken of
as such, and one resolver for every read verb. Through the CLI, as a game master meets them."""

import json
from pathlib import Path

import pytest

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
READ_VERBS = [("sheet", "Anna"), ("log",), ("rolls",), ("limits",), ("timeline",)]


@pytest.fixture
def heroes(tmp_path, cli):
    store = f"sqlite:///{tmp_path / 'heroes.db'}"
    cli.run("run", str(EXAMPLES / "heroes.jsonl"), store=store)
    return store


def command_positions(cli, campaign, store):
    return {row["data"]["command_id"]: row["position"]
            for row in cli.json("log", "-c", campaign, store=store) if row["type"] == "CommandApplied"}


def test_a_page_ends_with_the_last_command_played_in_it_and_the_last_one_with_its_battle(heroes, cli):
    timeline = {(e["label"], e["number"]): e for e in cli.json("timeline", "-c", "null-hour", store=heroes)["timeline"]}
    commands = command_positions(cli, "null-hour", heroes)
    page_1, page_2, battle = timeline["page", 1], timeline["page", 2], timeline["battle", 1]
    # heroes-15 is the drones' attack, the last command before heroes-16 (next_page) begins page 2.
    assert page_1["end"] == commands["heroes-15"] and page_1["ended_at"] == "2026-04-01T23:15:00+00:00"
    assert page_1["start"] < page_1["end"] < page_2["start"]
    assert (page_2["end"], page_2["ended_at"]) == (battle["end"], battle["ended_at"])
    # --at page:1 is the state right after the page ended: every roll of the page is in it.
    rolls = {r["id"] for r in cli.json("rolls", "-c", "null-hour", "--at", "page:1", store=heroes)}
    assert rolls == {r["id"] for r in cli.json("rolls", "-c", "null-hour", "--at", "heroes-15", store=heroes)}
    assert rolls != {r["id"] for r in cli.json("rolls", "-c", "null-hour", "--at", "page:1:start", store=heroes)}
    at_end = cli.json("log", "-c", "null-hour", "--at", "page:2", store=heroes)[-1]
    assert at_end["position"] == commands["heroes-21"]  # the end_battle command that closed page 2


def test_a_unit_still_open_shows_its_latest_point_and_says_so(heroes, cli):
    now = cli.json("sheet", "Spark", "-c", "null-hour", store=heroes)
    result = cli.run("sheet", "Spark", "-c", "null-hour", "--at", "issue:2", "--json", store=heroes)
    assert json.loads(result.stdout) == now
    last = cli.json("log", "-c", "null-hour", store=heroes)[-1]["position"]
    assert f"issue 2 is still open: showing its latest point, now (position {last})" in result.stderr


def test_a_round_and_a_turn_end_with_their_battle(tmp_path, cli):
    store = f"sqlite:///{tmp_path / 'c.db'}"
    for game in ("implant", "gladiators"):
        cli.run("run", str(EXAMPLES / f"{game}.jsonl"), store=store)
    for campaign, label in (("neon-alley", "round"), ("ludus-magnus", "turn")):
        entries = cli.json("timeline", "-c", campaign, store=store)["timeline"]
        units = [e for e in entries if e["label"] == label]
        battles = [e for e in entries if e["label"] == "battle"]
        assert units and all(u["end"] is not None and u["end"] > u["start"] for u in units), units
        assert units[-1]["end"] == battles[-1]["end"]


@pytest.fixture
def disputed(audited, cli):
    """The audit campaign after one dispute of r2: revision 2 is current."""
    store, _ = audited
    before = cli.json("log", "-c", "audit", store=store)
    cli.run("dispute", "r2", "-c", "audit", "--reason", "misread", "--faces", "1,1", "--actor", "auditor:kim",
            store=store)
    return store, before


def test_a_revision_is_spoken_of_as_such(disputed, cli):
    store, _ = disputed
    current = cli.json("timeline", "-c", "audit", store=store)
    first = cli.json("timeline", "-c", "audit", "--revision", "1", store=store)
    assert (current["campaign"], current["revision"], current["current_revision"]) == ("audit", 2, 2)
    assert (first["campaign"], first["revision"], first["current_revision"]) == ("audit", 1, 2)
    for args in (("sheet", "Zed"), ("sheet", "Anna", "--at", "chapter:9"), ("rolls", "--at", "nonsense"),
                 ("log", "--at", "1999-01-01T00:00:00Z")):
        result = cli.run(*args, "-c", "audit", store=store, check=False)
        assert result.returncode == 1 and "revision 2 of audit" in result.stderr and "@r" not in result.stderr
    replayed = cli.run("replay", "-c", "audit", store=store)
    assert "of revision 2 of audit" in replayed.stdout and "@r" not in replayed.stdout


@pytest.mark.parametrize("verb", READ_VERBS, ids=lambda v: v[0])
def test_a_position_noted_before_a_dispute_names_its_revision_in_every_verb(disputed, cli, verb):
    store, before = disputed
    wound = next(row["position"] for row in before if row["type"] == "Wounded")
    result = cli.run(*verb, "-c", "audit", "--at", str(wound), store=store, check=False)
    assert result.returncode == 1 and not result.stdout
    assert f"position {wound} is not in revision 2 of audit" in result.stderr
    assert "it is in revision 1 of audit, read it with --revision 1" in result.stderr
    cli.run(*verb, "-c", "audit", "--at", str(wound), "--revision", "1", store=store)


@pytest.mark.parametrize("verb", READ_VERBS, ids=lambda v: v[0])
def test_a_position_past_the_end_is_an_error_in_every_verb(audited, cli, verb):
    store, _ = audited
    result = cli.run(*verb, "-c", "audit", "--at", "99999", store=store, check=False)
    assert result.returncode == 1 and not result.stdout
    assert "position 99999 is not in revision 1 of audit (its positions run from " in result.stderr


@pytest.mark.parametrize("point, said", [
    ("0", "position 0 is not in revision 1 of audit"),
    ("chapter:9", "no chapter 9 in the timeline of audit (chapter 1 to 2)"),
    ("round:1", "no round 1 in the timeline of audit (it has battle, chapter, move, scene)"),
    ("chapter:1:end", "'chapter:1:end': a boundary is LABEL:N or LABEL:N:start"),
    ("2026-13-40T00:00:00Z", "'2026-13-40T00:00:00Z' is not an ISO-8601 time"),
])
def test_a_point_that_does_not_exist_is_named_with_what_exists(audited, cli, point, said):
    store, _ = audited
    result = cli.run("log", "-c", "audit", "--at", point, store=store, check=False)
    assert result.returncode == 1 and not result.stdout and "Traceback" not in result.stderr
    assert said in result.stderr
