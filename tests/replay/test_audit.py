"""Replay --verify, tamper evidence, verifiable dice, disputes and revisions, export and import."""

import json
import sqlite3
import uuid

from eventsourcing.persistence import StoredEvent

from rollbook.domain.chain import event_digest

import pytest

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow


def edit_event(path, topic_suffix, change):
    """Edit the first stored event of a kind in place, as a tamperer with the sqlite3 module would."""
    with sqlite3.connect(path) as db:
        rowid, state = db.execute(
            "SELECT rowid, state FROM stored_events WHERE topic LIKE ? ORDER BY rowid LIMIT 1", (f"%{topic_suffix}",)
        ).fetchone()
        data = json.loads(state)
        change(data)
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(data).encode(), rowid))
    return rowid


def replay_differs_at(cli, store, position, *said):
    """`replay --verify` fails, naming the position where the history differs and saying each of `said`."""
    result = cli.run("replay", "-c", "audit", "--verify", store=store, check=False)
    assert result.returncode == 1
    assert f"replay differs at position {position}" in result.stderr
    assert all(words in result.stderr for words in said), result.stderr


def test_replay_verify_passes_on_an_untouched_store(audited, cli):
    store, _ = audited
    report = cli.json("replay", "-c", "audit", "--verify", store=store)
    assert report["identical"] and report["commands"] == 17 and report["events_compared"] > 50


def test_replay_until_a_point(audited, cli):
    store, _ = audited
    assert cli.json("replay", "-c", "audit", "--until", "h1", store=store)["commands"] == 9


def test_an_edited_payload_is_found_by_verify_at_its_position(audited, cli):
    store, path = audited
    position = edit_event(path, "Pirate.LuckSpent", lambda data: data.update(amount=0))
    result = cli.run("verify", "-c", "audit", store=store, check=False)
    assert result.returncode == 1
    assert f"first finding at position {position}" in result.stderr and "was edited" in result.stderr


def test_replay_holds_each_event_to_the_fingerprint_its_command_recorded(audited, cli):
    """A payload edited with its fingerprint refitted into its command's record: what the rules decide
    again is not what the record says, and replay names the event, decoding the stored one."""
    store, path = audited
    position = edit_event(path, "Pirate.LuckSpent", lambda data: data.update(amount=0))
    with sqlite3.connect(path) as db:
        originator, version, topic, state = db.execute(
            "SELECT originator_id, originator_version, topic, state FROM stored_events WHERE rowid = ?", (position,)
        ).fetchone()
        write = [uuid.UUID(str(originator)).hex, version]
        for rowid, applied in db.execute("SELECT rowid, state FROM stored_events WHERE topic LIKE '%CommandApplied'"):
            data = json.loads(applied)
            for entry in data["writes"]:
                if entry[:2] == write:
                    entry[2] = event_digest(StoredEvent(originator, version, topic, state))
                    db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(data).encode(), rowid))
    replay_differs_at(cli, store, position, "LuckSpent", "payloads differ in amount")


def test_replay_writes_nothing_and_finds_an_event_its_record_does_not_name(audited, cli):
    store, path = audited

    def stored_rows():
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*), MAX(rowid) FROM stored_events").fetchone()

    before = stored_rows()
    assert cli.json("replay", "-c", "audit", "--verify", store=store)["identical"]
    assert stored_rows() == before
    position = edit_event(path, "CommandApplied", lambda data: data.update(writes=data["writes"][:-1]))
    replay_differs_at(cli, store, position, "CommandApplied", "differ in writes")


def test_verify_recomputes_seeded_rolls_and_finds_a_forged_face(audited, cli):
    store, path = audited
    report = cli.json("verify", "-c", "audit", store=store)["audit"]
    assert report["findings"] == [] and report["rolls_checked"] == 2  # r1 and r3, under the revealed seed

    def forge(data):
        data["roll"]["faces"] = [face % 6 + 1 for face in data["roll"]["faces"]]  # every face changed

    edit_event(path, "Campaign.DiceRolled", forge)
    result = cli.run("verify", "-c", "audit", "--json", store=store, check=False)
    assert result.returncode == 1
    problems = [f["problem"] for f in json.loads(result.stdout)["audit"]["findings"]]
    assert any("but its seed gives" in p for p in problems), problems
    assert any("was edited" in p for p in problems), problems


def test_seeded_rolls_take_consecutive_nonces(audited, cli):
    store, _ = audited
    seeded = [r for r in cli.json("rolls", "-c", "audit", store=store) if r["source"] == "hmac"]
    assert [r["nonce"] for r in seeded] == list(range(len(seeded))) and len(seeded) == 3


def test_a_dispute_dry_run_shows_the_difference_and_writes_nothing(audited, cli):
    store, path = audited
    with sqlite3.connect(path) as db:
        before = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    r4 = next(r for r in cli.json("rolls", "-c", "audit", store=store) if r["id"] == "r4")
    result = cli.json("dispute", "r4", "-c", "audit", "--reason", "mistyped", "--actor", "auditor:kim",
                      "--faces", "1,1", "--dry-run", store=store)
    # Foresight +1 and the light wound's pending -1 from h2: 1 + 1 + 1 - 1 = 2.
    if r4["total"] != 2:
        assert {"what": "character Anna", "path": "move.total", "before": r4["total"], "after": 2} in result["differences"]
    assert result["not_applied"] == [] and not result["applied"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM stored_events").fetchone() == before


def test_dropping_a_roll_makes_later_commands_illegal_and_they_are_listed(audited, cli):
    store, _ = audited
    result = cli.json("dispute", "r2", "-c", "audit", "--reason", "never happened", "--drop", "--dry-run", store=store)
    listed = [(s["id"], s["reason"]) for s in result["not_applied"]]
    assert listed[0] == ("r2", "dropped by the dispute")
    assert listed[1][0] == "help" and "is not the open move" in listed[1][1]
    assert {"what": "character Bo", "path": "luck", "before": 1, "after": 2} in result["differences"]


def test_an_applied_dispute_becomes_revision_2_and_revision_1_still_reads(audited, cli):
    store, _ = audited
    result = cli.json("dispute", "r2", "-c", "audit", "--reason", "mistyped", "--actor", "auditor:kim",
                       "--faces", "1,1", store=store)
    assert result["applied"] and result["revision"] == 2
    # Guile +1, the pending light -1, Bo's help +1: [1, 1] makes 3 where [6, 2] made 9.
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "help", store=store)["move"]["total"] == 3
    assert cli.json("sheet", "Anna", "-c", "audit", "--at", "help", "--revision", "1", store=store)["move"]["total"] == 9
    rolls_now = {r["id"]: r for r in cli.json("rolls", "-c", "audit", store=store)}
    rolls_then = {r["id"]: r for r in cli.json("rolls", "-c", "audit", "--revision", "1", store=store)}
    assert rolls_now["r2"]["faces"] == [1, 1] and rolls_now["r2"]["source"] == "dispute"
    assert rolls_then["r2"]["faces"] == [6, 2] and rolls_then["r2"]["total"] == 9
    revisions = cli.json("revisions", "-c", "audit", store=store)
    assert [(r["revision"], r.get("actor")) for r in revisions] == [(1, None), (2, "auditor:kim")]
    assert cli.json("verify", "-c", "audit", store=store)["audit@r2"]["findings"] == []
    assert cli.json("replay", "-c", "audit", "--verify", store=store)["identical"]


def test_a_player_cannot_dispute_and_nothing_is_written(audited, cli):
    store, path = audited
    with sqlite3.connect(path) as db:
        before = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()
    result = cli.run("dispute", "r2", "-c", "audit", "--reason", "unfair", "--actor", "player:anna", "--reroll",
                      store=store, check=False)
    assert result.returncode == 1 and "player:anna cannot dispute a roll" in result.stderr
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM stored_events").fetchone() == before


def test_export_and_import_give_the_same_sheets_and_verify_passes(audited, tmp_path, cli):
    store, _ = audited
    cli.run("dispute", "r3", "-c", "audit", "--reason", "dice fell off the table", "--reroll", store=store)
    exported = cli.run("export", "-c", "audit", store=store).stdout
    (tmp_path / "history.jsonl").write_text(exported)
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    cli.run("import", str(tmp_path / "history.jsonl"), store=copy)
    for name in ("Anna", "Bo", "Chaika"):
        assert cli.json("sheet", name, "-c", "audit", store=copy) == cli.json("sheet", name, "-c", "audit", store=store)
    assert cli.json("rolls", "-c", "audit", store=copy)[-1]["faces"] == cli.json("rolls", "-c", "audit", store=store)[-1]["faces"]
    assert all(not r["findings"] for r in cli.json("verify", "-c", "audit", store=copy).values())
