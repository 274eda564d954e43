"""A dispute is one unit of work: the corrected revision and its ruling, stored together or not at all.

Given the small pirate campaign `audit` (tests/replay/conftest.py) in a SQLite file:
a ruling interrupted before it is recorded leaves no revision behind; a retry of the same
ruling writes nothing and keeps the first one's seed; a different ruling is a dispute on
top; two disputes at once take revisions 2 and 3, each holding its own ruling's faces.
"""

import sqlite3

import pytest

from rollbook.commands.service import Rollbook
from rollbook.domain.ids import campaign_id
from rollbook.replay import dispute as disputes
from rollbook.replay.dispute import Ruling, dispute
from rollbook.store import Store

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow


def stored_rows(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


def rolled(cli, store, revision=None):
    extra = ["--revision", str(revision)] if revision is not None else []
    return {r["id"]: r for r in cli.json("rolls", "-c", "audit", *extra, store=store)}


def test_a_ruling_interrupted_before_it_is_recorded_leaves_no_revision(audited, monkeypatch):
    store_url, path = audited
    before = stored_rows(path)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt("the process stops between the revision and its ruling")

    monkeypatch.setattr(Rollbook, "append_history", interrupted)
    store = Store.open(store_url)
    with pytest.raises(KeyboardInterrupt):
        dispute(store, "audit", Ruling(roll="r3", reason="fell off", actor="gm", faces=[6, 6]), dry_run=False)
    store.close()
    assert stored_rows(path) == before
    assert Store.open(store_url).app.recorder.select_events(campaign_id("audit@r2"), limit=1) == []


def test_the_same_ruling_again_writes_nothing_and_a_different_one_is_a_dispute_on_top(audited, cli):
    store, path = audited
    first = cli.json("dispute", "r3", "-c", "audit", "--reason", "fell off", "--faces", "6,6", store=store)
    rows = stored_rows(path)
    again = cli.json("dispute", "r3", "-c", "audit", "--reason", "fell off", "--faces", "6,6", store=store)
    assert (again["revision"], again["dispute"], again["rerun"]) == (2, first["dispute"], True)
    assert stored_rows(path) == rows
    other = cli.json("dispute", "r3", "-c", "audit", "--reason", "the GM misread", "--faces", "1,1", store=store)
    assert (other["revision"], other["rerun"]) == (3, False)
    revisions = cli.json("revisions", "-c", "audit", store=store)
    assert [(r["revision"], (r.get("decision") or {}).get("faces")) for r in revisions] == [(1, None), (2, [6, 6]), (3, [1, 1])]
    assert rolled(cli, store)["r3"]["faces"] == [1, 1] and rolled(cli, store, 2)["r3"]["faces"] == [6, 6]


def test_a_reroll_retried_keeps_the_seed_its_revision_used(audited, cli):
    store, _ = audited
    first = cli.json("dispute", "r3", "-c", "audit", "--reason", "cocked die", "--reroll", store=store)
    again = cli.json("dispute", "r3", "-c", "audit", "--reason", "cocked die", "--reroll", store=store)
    assert again["rerun"] and again["dispute"] == first["dispute"]
    revisions = cli.json("revisions", "-c", "audit", store=store)
    assert len(revisions) == 2
    roll = rolled(cli, store)["r3"]
    assert roll["source"] == "dispute" and revisions[1]["decision"]["seed"] == roll["seed"]
    assert all(not r["findings"] for r in cli.json("verify", "-c", "audit", store=store).values())


def test_two_disputes_at_once_take_revisions_2_and_3_each_with_its_own_faces(audited, cli, monkeypatch):
    store_url, _ = audited
    real = disputes.reexecute
    calls = []

    def overtaken(*args, **kwargs):
        calls.append(kwargs.get("key"))
        if len(calls) == 1:  # while the first dispute re-executes, another auditor's is stored
            other = Store.open(store_url)
            dispute(other, "audit", Ruling(roll="r2", reason="mistyped", actor="auditor:kim", faces=[1, 1]),
                    dry_run=False)
            other.close()
        return real(*args, **kwargs)

    monkeypatch.setattr(disputes, "reexecute", overtaken)
    store = Store.open(store_url)
    result = dispute(store, "audit", Ruling(roll="r3", reason="fell off", actor="gm", faces=[6, 6]), dry_run=False)
    store.close()
    assert result.revision == 3
    revisions = cli.json("revisions", "-c", "audit", store=store_url)
    assert [(r["revision"], r.get("roll")) for r in revisions] == [(1, None), (2, "r2"), (3, "r3")]
    assert rolled(cli, store_url, 2)["r2"]["faces"] == [1, 1]
    assert (rolled(cli, store_url)["r2"]["faces"], rolled(cli, store_url)["r3"]["faces"]) == ([1, 1], [6, 6])
    for report in cli.json("verify", "-c", "audit", store=store_url).values():
        assert not report["findings"]
