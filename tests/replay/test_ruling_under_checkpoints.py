"""A ruling under the players' checkpoints (issue 44, item 3; the attack `ruling_author_rewrite.py`).

Who ruled and why were rewritten (`auditor:kim`, "mistyped" → `auditor:zed`, "the GM asked") and revision 1's
chain refit: every check passed. Now the next revision's first command chains to the ruling's hash, over the
ruling and the head of the revision it replaces (`chain.revision_start`): rewriting the ruling breaks revision 2's
chain, and refitting that too changes every head a player's checkpoint of revision 2 holds."""

import json
import sqlite3
import uuid

from rollbook.domain.chain import GENESIS_CHAIN, chain_hash, event_digest, revision_start
from rollbook.domain.ids import campaign_id
from rollbook.replay.history import recorded_commands
from rollbook.store import Store

from .conftest import plain, rollbook
from .test_tamper_rulings import rule_on_r1

FORGED = {b"auditor:kim": b"auditor:zed", b"mistyped": b"the GM asked"}


class _Stored:
    def __init__(self, topic, state):
        self.topic, self.state = topic, state


def words(result):
    return " ".join(result.stdout.split())


def forge(state):
    for honest, forged in FORGED.items():
        state = state.replace(honest, forged)
    return state


def refit(db, key, start):
    """Recompute every fingerprint and chain hash of revision `key` from `start`, as a forger with the project's
    own functions would; the forged ruling's hash when the revision is a later one."""
    rows = db.execute("SELECT rowid, originator_id, originator_version, topic, state FROM stored_events "
                      "ORDER BY rowid").fetchall()
    stored = {(uuid.UUID(str(o)).hex, v): _Stored(t, bytes(s)) for _, o, v, t, s in rows}
    previous, mine = start, campaign_id(key).hex
    for rowid, originator, _, topic, state in rows:
        if uuid.UUID(str(originator)).hex != mine or not topic.endswith("CommandApplied"):
            continue
        applied = json.loads(state)
        for write in applied["writes"]:
            write[2] = event_digest(stored[(write[0], write[1])])
        applied["chain"] = previous = chain_hash(previous, applied["command"], applied["writes"])
        db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?",
                   (json.dumps(applied, separators=(",", ":")).encode(), rowid))
    db.commit()


def rewrite_the_ruling(path, *, everywhere):
    """The ruling's event rewritten (`everywhere`: and its command record, and revision 2 refit to the forged
    ruling's hash), then revision 1 refit."""
    db = sqlite3.connect(path)
    topics = "topic LIKE '%Campaign.Ruled'" + (" OR topic LIKE '%CommandApplied'" if everywhere else "")
    for rowid, state in db.execute(f"SELECT rowid, state FROM stored_events WHERE {topics}").fetchall():
        if forge(bytes(state)) != bytes(state):
            db.execute("UPDATE stored_events SET state = ? WHERE rowid = ?", (forge(bytes(state)), rowid))
    db.commit()
    refit(db, "audit", GENESIS_CHAIN)
    if everywhere:
        ruled = db.execute("SELECT state FROM stored_events WHERE topic LIKE '%Campaign.Ruled'").fetchone()[0]
        refit(db, "audit@r2", revision_start(json.loads(ruled)))
    db.close()


def test_the_next_revision_chains_to_the_ruling_and_the_head_it_replaces(audited):
    url, _ = audited
    before = json.loads(rollbook("verify", "-c", "audit", "--json", store=url).stdout)["audit"]
    rule_on_r1(url, faces=[1, 1])
    ruling = json.loads(rollbook("revisions", "-c", "audit", "--json", store=url).stdout)[1]
    assert ruling["replaces"] == {"revision": 1, "size": before["commands"], "head": before["head"]}
    assert (ruling["actor"], ruling["reason"], ruling["decision"]) == ("auditor:kim", "mistyped", {"faces": [1, 1]})
    store = Store.open(url)
    try:
        first = next(recorded_commands(store.app, "audit@r2"))
    finally:
        store.close()
    assert first.chain == chain_hash(revision_start(ruling), first.command, first.writes)
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
    replayed = rollbook("replay", "-c", "audit", "--revision", "2", "--verify", store=url)
    assert "identical to the store" in words(replayed)


def test_a_ruling_rewritten_in_its_event_fails_verify(audited):
    url, path = audited
    rule_on_r1(url, faces=[1, 1])
    rewrite_the_ruling(path, everywhere=False)
    result = rollbook("verify", "-c", "audit", store=url, check=False)
    said = words(result)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "the ruling that made revision 2 shows actor, reason other than the chain recorded it" in said
    assert "does not chain to the ruling that made the revision" in said


def test_a_ruling_rewritten_everywhere_is_caught_by_the_players_checkpoint_of_the_next_revision(audited, tmp_path):
    url, path = audited
    before = tmp_path / "before.txt"
    before.write_text(rollbook("checkpoint", "-c", "audit", store=url).stdout)
    rule_on_r1(url, faces=[1, 1])
    rollbook("post", "take_hole", "ship=Chaika", "-c", "audit", store=url)
    after = tmp_path / "after.txt"
    after.write_text(rollbook("checkpoint", "-c", "audit", store=url).stdout)
    witness = ["--state", str(tmp_path / "w.db")]
    assert plain("witness", "add", url, "-c", "audit", "--name", "p.example/w", *witness).returncode == 0
    assert plain("witness", "check", *witness).returncode == 0  # it co-signs revision 2 as the players saw it
    rewrite_the_ruling(path, everywhere=True)
    shown = json.loads(rollbook("revisions", "-c", "audit", "--json", store=url).stdout)[1]
    assert (shown["actor"], shown["reason"]) == ("auditor:zed", "the GM asked")  # the forgery, consistent throughout
    # The player's checkpoint of revision 1 before the ruling reaches no part of it; the one of revision 2 does.
    held = rollbook("verify", "-c", "audit", "--checkpoint", str(before), "--checkpoint", str(after), store=url,
                    check=False)
    said = " ".join((held.stdout + held.stderr).split())
    assert held.returncode == 1 and "Traceback" not in said
    assert "before.txt" not in said and "after.txt: at 18 commands its root is" in said, said
    assert "the history was rewritten" in said
    # And a witness of revision 2 refuses the rewritten log, showing both heads.
    witnessed = plain("witness", "check", *witness)
    assert witnessed.returncode == 1 and "FORK: rollbook/audit/r2" in witnessed.stdout, witnessed.stdout


def test_a_revision_made_before_rulings_named_what_they_replace_still_verifies(audited, tmp_path):
    """As older code made it (no `replaces`, its chain from zeros): verified, replayed, exported and imported alike."""
    url, _ = audited
    rule_on_r1(url, name_replaced=False, faces=[1, 1])
    ruling = json.loads(rollbook("revisions", "-c", "audit", "--json", store=url).stdout)[1]
    assert "replaces" not in ruling
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
    replayed = rollbook("replay", "-c", "audit", "--revision", "2", "--verify", store=url)
    assert "identical to the store" in words(replayed)
    exported = tmp_path / "audit.export"
    exported.write_text(rollbook("export", "-c", "audit", store=url).stdout)
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    rollbook("import", str(exported), store=copy)
    assert rollbook("verify", "-c", "audit", store=copy, check=False).returncode == 0
    assert "replaces" not in json.loads(rollbook("revisions", "-c", "audit", "--json", store=copy).stdout)[1]
