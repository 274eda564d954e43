"""The smaller record defects of issue 44, item 4: a tampered `seq` (`t38_seq_edit_traceback.py`), deleted
cosignatures (`cosignatures_deleted.sh`) and deleted tiles, each found in one line, none passing every check."""

import json
import sqlite3

import pytest

from .conftest import plain, rollbook


def one_line_refusal(result):
    said = (result.stdout + result.stderr).strip()
    assert result.returncode != 0 and "Traceback" not in said, said
    return " ".join(said.split())


@pytest.fixture
def witnessed(audited, tmp_path):
    """(store URL, db path, witness state): the campaign `audit` with a witness that co-signed it."""
    url, path = audited
    state = str(tmp_path / "w.db")
    assert plain("witness", "add", url, "-c", "audit", "--name", "p.example/w", "--state", state).returncode == 0
    checked = plain("witness", "check", "--state", state)
    assert checked.returncode == 0 and "cosigned" in checked.stdout, checked.stdout + checked.stderr
    return url, path, state


def test_a_tampered_seq_is_a_one_line_finding_in_every_verb(witnessed):
    url, path, state = witnessed
    with sqlite3.connect(path) as db:
        rowid, stored = db.execute("SELECT rowid, state FROM stored_events WHERE topic LIKE '%CommandApplied' "
                                   "ORDER BY rowid LIMIT 1 OFFSET 8").fetchone()
        applied = json.loads(stored)
        applied["seq"] = 500
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(applied).encode(), rowid))
    verified = one_line_refusal(rollbook("verify", "-c", "audit", store=url, check=False))
    assert "command 9 is missing (next recorded is 500)" in verified
    for verb in (["checkpoint", "-c", "audit"], ["prove", "r2", "-c", "audit"]):
        said = one_line_refusal(rollbook(*verb, store=url, check=False))
        assert "command 500 is recorded after command 8: its seq was edited" in said, said
    said = one_line_refusal(plain("witness", "check", "--state", state))
    assert "its seq was edited" in said, said


def test_deleted_cosignatures_are_sent_again_by_the_witness(witnessed):
    url, path, state = witnessed
    cosigned = rollbook("checkpoint", "-c", "audit", "--cosigned", store=url, check=False)
    assert cosigned.returncode == 0 and "p.example/w" in cosigned.stdout
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM rollbook_cosignatures")
    assert rollbook("checkpoint", "-c", "audit", "--cosigned", store=url, check=False).returncode != 0
    again = plain("witness", "check", "--state", state)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "the log no longer published this witness's cosignature: sent again" in " ".join(again.stdout.split())
    restored = rollbook("checkpoint", "-c", "audit", "--cosigned", store=url, check=False)
    assert restored.returncode == 0 and "p.example/w" in restored.stdout
    # Published again, it is not sent a third time.
    assert "delivered\n" in plain("witness", "check", "--state", state).stdout


def test_deleted_tiles_are_found_by_verify_and_made_again_by_rebuild(audited):
    url, path = audited
    rollbook("checkpoint", "-c", "audit", store=url)  # the tiles exist
    with sqlite3.connect(path) as db:
        assert db.execute("DELETE FROM rollbook_tlog_tiles").rowcount > 0
    said = one_line_refusal(rollbook("verify", "-c", "audit", store=url, check=False))
    assert "the Merkle tiles kept for audit lack part of its tree of 17 commands (deleted)" in said
    assert "`rollbook rebuild` makes them again" in one_line_refusal(rollbook("checkpoint", "-c", "audit", store=url,
                                                                              check=False))
    assert "Merkle tiles of 1 campaign revisions" in rollbook("rebuild", store=url).stdout
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
    assert rollbook("prove", "r2", "-c", "audit", store=url, check=False).returncode == 0


def test_edited_tiles_are_found_by_verify(audited):
    url, path = audited
    rollbook("checkpoint", "-c", "audit", store=url)
    with sqlite3.connect(path) as db:
        hashes = db.execute("SELECT hashes FROM rollbook_tlog_tiles WHERE level = 0").fetchone()[0]
        db.execute("UPDATE rollbook_tlog_tiles SET hashes = ? WHERE level = 0", (bytes(32) + hashes[32:],))
    said = one_line_refusal(rollbook("verify", "-c", "audit", store=url, check=False))
    assert "do not hold the tree of its 17 commands (edited)" in said


def test_the_listings_follow_the_current_revision_after_a_ruling(audited):
    """`rollbook characters` and `rollbook campaigns` kept revision 1's figures after an undo or a dispute."""
    url, _ = audited
    first = {c["name"]: c["figures"] for c in json.loads(rollbook("characters", "-c", "audit", "--json",
                                                                  store=url).stdout)}
    rollbook("dispute", "r1", "-c", "audit", "--drop", "--reason", "no such roll", "--actor", "gm", store=url)
    listed = {c["name"]: c["figures"] for c in json.loads(rollbook("characters", "-c", "audit", "--json",
                                                                   store=url).stdout)}
    sheet = json.loads(rollbook("sheet", "Anna", "-c", "audit", "--json", store=url).stdout)
    assert listed["Anna"] != first["Anna"] and listed["Anna"]["luck"] == sheet["luck"], (first, listed, sheet)
    audit = next(c for c in json.loads(rollbook("campaigns", "--json", store=url).stdout) if c["campaign"] == "audit")
    assert audit["revision"] == 2
