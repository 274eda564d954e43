"""A damaged or edited store gives a clear error or a `verify` finding, never a traceback (issue 36, item 12).

Each tamper is made with python's sqlite3 on a small pirate campaign:
- one event's bytes not JSON (`verify` raised JSONDecodeError);
- a middle event of Jack's deleted (`replay` raised OriginatorVersionError);
- an old `spend_luck`'s events appended again under a new id, with its claim and a refitted chain
  (`rebuild`, `replay`, `sheet`: AssertionError in pirates/pirate.py);
and `post create_character … stats=` followed by 10,000 `[` raised RecursionError.
"""

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.chain import chain_hash, event_digest
from rollbook.domain.ids import campaign_id, command_claim_id
from rollbook.domain.rulesets.pirates.pirate import Pirate

STATS = {"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}
HISTORY = [
    {"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"},
    {"type": "create_character", "campaign": "bs", "name": "Jack", "player": "jack", "stats": STATS, "luck": 2},
    {"type": "create_character", "campaign": "bs", "name": "Mary", "player": "mary", "stats": STATS, "luck": 2},
    {"type": "start_chapter", "campaign": "bs"},
    {"type": "roll_move", "campaign": "bs", "id": "r1", "character": "Jack", "stat": "guile", "dice": [2, 3]},
    {"type": "spend_luck", "campaign": "bs", "id": "luck", "character": "Mary", "purpose": "help", "roll": "r1"},
    {"type": "roll_move", "campaign": "bs", "id": "r2", "character": "Jack", "stat": "audacity", "dice": [4, 4]},
    {"type": "take_damage", "campaign": "bs", "id": "h1", "character": "Jack", "harm": 1},
]
READS = [("rebuild",), ("replay", "-c", "bs"), ("replay", "-c", "bs", "--verify"), ("sheet", "Jack", "-c", "bs")]


def rollbook(url, *words):
    return CliRunner().invoke(app, ["-q", *words, "--store", url])


def clean_exit(result):
    """Exit status 1 with a message: never an exception escaping the command line."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.stderr


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "bs.db"
    url = f"sqlite:///{path}"
    lines = tmp_path / "history.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in HISTORY))
    result = rollbook(url, "run", str(lines))
    assert result.exit_code == 0, result.output
    return url, path


def rows_of(db, originator):
    return db.execute("SELECT rowid, originator_version, topic, state FROM stored_events WHERE originator_id = ? "
                      "ORDER BY originator_version", (originator.hex,)).fetchall()


def verify_problems(url):
    result = rollbook(url, "verify", "-c", "bs", "--json")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result.output
    return [f["problem"] for f in json.loads(result.stdout)["bs"]["findings"]]


def test_an_event_whose_bytes_are_not_json_is_a_finding_and_a_clear_error(store):
    url, path = store
    with sqlite3.connect(path) as db:
        rowid = next(r for r, _, topic, state in rows_of(db, campaign_id("bs"))
                     if topic.endswith("DiceRolled") and b'"r1"' in state)
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (b"{not json", rowid))
    problems = verify_problems(url)
    assert any("event DiceRolled" in p and "does not decode" in p for p in problems), problems
    assert any("event DiceRolled" in p and "was edited" in p for p in problems), problems
    for read in READS:
        assert "the store was damaged or edited: `rollbook verify` says where" in clean_exit(rollbook(url, *read))


def test_a_middle_event_deleted_is_a_finding_and_a_clear_error(store):
    url, path = store
    with sqlite3.connect(path) as db:
        rows = rows_of(db, Pirate.id_for("bs", "Jack"))
        db.execute("DELETE FROM stored_events WHERE rowid = ?", (rows[len(rows) // 2][0],))
    problems = verify_problems(url)
    assert any("an event it wrote is gone" in p for p in problems), problems
    for read in READS:
        assert "an event before it is gone" in clean_exit(rollbook(url, *read))


def forge_again(path, command_id, new_id):
    """Append a recorded command's events again, under `new_id`: each at its aggregate's next version,
    with a claim of the new id and a CommandApplied chained to the head, as the project's code makes them."""
    campaign = campaign_id("bs")
    with sqlite3.connect(path) as db:
        applied = [json.loads(state) for _, _, topic, state in rows_of(db, campaign) if topic.endswith("CommandApplied")]
        old = next(a for a in applied if a["command_id"] == command_id)
        top = {}
        writes = []
        for originator, version, _ in old["writes"]:
            topic, state = db.execute("SELECT topic, state FROM stored_events WHERE originator_id = ? AND "
                                      "originator_version = ?", (originator, version)).fetchone()
            if topic.endswith("CommandClaim.Recorded"):
                originator = command_claim_id("bs", new_id).hex
                state = state.replace(command_id.encode(), new_id.encode())
                version = 1
            else:
                if originator not in top:
                    top[originator] = db.execute("SELECT MAX(originator_version) FROM stored_events WHERE "
                                                 "originator_id = ?", (originator,)).fetchone()[0]
                top[originator] += 1
                version = top[originator]
            db.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                       (originator, version, topic, state))
            writes.append([originator, version, event_digest(type("Stored", (), {"topic": topic, "state": state}))])
        command = {**old["command"], "id": new_id}
        record = {**old, "seq": applied[-1]["seq"] + 1, "command_id": new_id, "command": command, "writes": writes,
                  "chain": chain_hash(applied[-1]["chain"], command, writes)}
        topic = next(t for _, _, t, _ in rows_of(db, campaign) if t.endswith("CommandApplied"))
        db.execute("INSERT INTO stored_events (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
                   (campaign.hex, (top.get(campaign.hex) or rows_of(db, campaign)[-1][1]) + 1, topic,
                    json.dumps(record, separators=(",", ":")).encode()))


def test_an_old_commands_events_appended_again_are_a_finding_and_a_clear_error(store):
    url, path = store
    forge_again(path, "luck", "luck-again")
    problems = verify_problems(url)
    assert any("cannot be folded" in p and "AssertionError" in p for p in problems), problems
    for read in READS:
        assert "cannot be folded" in clean_exit(rollbook(url, *read))


@pytest.mark.parametrize("words", [
    ("create_character", "name=Zed", "player=zed", "stats=" + "[" * 10_000),
    ("create_character", "name=Zed", "player=zed", "stats=" + "[" * 5_000 + "]" * 5_000),
    # A player naming another player's character, with the same deep value: refused before anything else.
    ("roll_move", "character=Jack", "stat=" + "[" * 10_000, "--actor", "player:mary"),
])
def test_a_value_nested_ten_thousand_deep_is_refused_naming_its_field(store, words):
    url, path = store
    with sqlite3.connect(path) as db:
        before = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]
    refused = clean_exit(rollbook(url, "post", *words, "-c", "bs"))
    field = words[-3 if words[0] == "roll_move" else -1].split("=", 1)[0]
    assert f"{field}: word" in refused and "nested too deeply" in refused
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0] == before
