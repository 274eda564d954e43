"""Stores written before the Merkle tree (issue 34): a campaign restored from a snapshot that has no tree
gets it from its record before its next command, verifies as before, and signs the same checkpoints."""

import json
import sqlite3

from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.checkpoint import parse_all, root_at
from rollbook.domain.ids import campaign_id
from rollbook.replay.history import recorded_commands
from rollbook.store import Store


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


def lines(start, end):
    made = [{"type": "create_campaign", "ruleset": "pirates", "title": "Old"},
            {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4},
            {"type": "start_chapter"}]
    made += [{"type": "gain_money", "to": "Chaika", "chests": 1, "reason": f"loot {n}"} for n in range(300)]
    made += [{"type": "end_chapter"}]
    return "".join(json.dumps({"campaign": "old", "id": f"c{n}", **c}) + "\n" for n, c in enumerate(made[start:end], start))


def as_before_the_tree(path):
    """Every snapshot of the campaign as an older Rollbook took it: class version 4, no tree in it."""
    store = Store.open(f"sqlite:///{path}")
    table = store.app.snapshots.recorder.events_table_name
    store.close()
    with sqlite3.connect(path) as db:
        rows = db.execute(f"SELECT originator_version, state FROM {table} WHERE originator_id = ?",
                          (campaign_id("old").hex,)).fetchall()
        assert rows, "the campaign has snapshots"
        for version, state in rows:
            kept = json.loads(state)
            assert kept["state"].pop("tree") is not None
            kept["state"]["class_version"] = 4
            db.execute(f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                       (json.dumps(kept).encode(), campaign_id("old").hex, version))
        db.execute("DROP TABLE IF EXISTS rollbook_tlog_tiles")
        db.execute("DROP TABLE IF EXISTS rollbook_tlog")


def test_a_campaign_restored_from_a_snapshot_without_its_tree_is_given_it_from_its_record(tmp_path):
    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    assert rollbook("run", "-", "--store", url, input=lines(0, 250)).exit_code == 0
    as_before_the_tree(path)
    assert rollbook("verify", "-c", "old", "--store", url).exit_code == 0  # an old snapshot agrees with its fold
    store = Store.open(url)
    try:
        assert store.app.repository.get(campaign_id("old")).tree is None
    finally:
        store.close()
    # The next commands (the chapter's end among them) find the tree filled in before they are decided: played
    # from a file, as `run` pipelines them (each decided while the one before is being committed).
    (tmp_path / "more.jsonl").write_text(lines(250, 304))
    result = rollbook("run", str(tmp_path / "more.jsonl"), "--store", url)
    assert result.exit_code == 0
    store = Store.open(url)
    try:
        chain = [c.chain for c in recorded_commands(store.app, "old")]
    finally:
        store.close()
    printed = result.stdout[result.stdout.index("rollbook/old\n"):]
    (head,) = parse_all(printed, where="run")
    assert head.size == 303 and head.root == root_at(chain, 303)  # the chapter's end signed the 303 before it
    (tmp_path / "printed.txt").write_text(printed)
    assert rollbook("verify", "-c", "old", "--store", url, "--checkpoint", str(tmp_path / "printed.txt")).exit_code == 0
    assert rollbook("verify", "-c", "old", "--store", url).exit_code == 0


def test_a_campaign_whose_last_command_is_still_being_committed_gets_its_tree_with_that_command(tmp_path):
    """`run`'s writer commits a command while the next is decided: a campaign reloaded then is one command
    ahead of the store, and its tree takes that command from the campaign's own chain hash."""
    from rollbook.store.tlog import fill_tree

    path = tmp_path / "old.db"
    url = f"sqlite:///{path}"
    assert rollbook("run", "-", "--store", url, input=lines(0, 250)).exit_code == 0
    as_before_the_tree(path)
    store = Store.open(url)
    try:
        campaign = store.app.repository.get(campaign_id("old"))
        chain = [c.chain for c in recorded_commands(store.app, "old")]
        campaign.record_command(seq=campaign.seq + 1, command_id="pending", command={"id": "pending"}, writes=[],
                                chain="ab" * 32)  # decided, not yet stored
        assert campaign.tree is None
        fill_tree(store.app, campaign)
        assert campaign.tree_root() == root_at([*chain, "ab" * 32], len(chain) + 1)
    finally:
        store.close()
