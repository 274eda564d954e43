"""Witnesses (issue 34): a player's own witness co-signs what extends the log, refuses a fork showing
both heads, serves the players' `verify --witness`, and survives being killed at any moment."""

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.transparency.note import Checkpoint, Verifier, parse_note
from rollbook.replay.witness import open_witness
from rollbook.testing.plugin import postgres_schema

SHARED, MINE, THEIRS = 20, 10, 15


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


def commands(start, end, branch="", campaign="fork"):
    lines = [{"type": "create_campaign", "ruleset": "pirates", "title": "Fork"},
             {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4}]
    lines += [{"type": "gain_money", "to": "Chaika", "chests": 1, "reason": f"loot {branch}{n}"} for n in range(60)]
    return "".join(json.dumps({"campaign": campaign, "id": f"{branch}c{n}", "at": f"2026-03-01T20:{n:02d}:00Z", **c}) + "\n"
                   for n, c in enumerate(lines[start:end], start))


def run(url, lines):
    result = rollbook("run", "-", "--store", url, input=lines)
    assert result.exit_code == 0, result.output


@pytest.fixture(params=["sqlite", "postgres"])
def two_histories(request, tmp_path, monkeypatch):
    """(A, B): two stores where the GM signed, with the one campaign key, two histories of `fork` that
    share their first SHARED commands: A goes on with MINE commands, B with THEIRS others."""
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))  # PostgreSQL's keys: one place for both
    with ExitStack() as stack:
        if request.param == "sqlite":
            a, b = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
        else:
            a, b = stack.enter_context(postgres_schema()), stack.enter_context(postgres_schema())
        run(a, commands(0, SHARED))
        exported = tmp_path / "fork.jsonl"
        exported.write_text(rollbook("export", "-c", "fork", "--store", a).stdout)
        if request.param == "sqlite":
            shutil.copytree(tmp_path / "a.db.secrets", tmp_path / "b.db.secrets")
        assert rollbook("import", str(exported), "--store", b).exit_code == 0
        run(a, commands(SHARED, SHARED + MINE, "a"))
        run(b, commands(SHARED, SHARED + THEIRS, "b"))
        yield a, b


def test_a_gm_who_signs_two_histories_is_caught_by_a_witness_that_sees_both(two_histories, tmp_path):
    a, b = two_histories
    state = str(tmp_path / "alice" / "witness.db")
    added = rollbook("witness", "add", a, "-c", "fork", "--name", "alice.example/w", "--state", state, "--json")
    assert added.exit_code == 0, added.output
    witness_vkey = json.loads(added.stdout)["vkey"]
    first = rollbook("witness", "check", "--state", state)
    assert first.exit_code == 0 and f"cosigned: rollbook/fork at {SHARED + MINE} commands" in first.output
    # The same key signs both (one vkey): the witness takes B as another source of the same log.
    assert rollbook("witness", "add", b, "-c", "fork", "--name", "alice.example/w", "--state", state).exit_code == 0
    second = rollbook("witness", "check", "--state", state)
    assert second.exit_code == 1, second.output
    assert "FORK: rollbook/fork at 35 commands" in second.output and "refused to co-sign" in second.output
    # Both heads, as evidence: the checkpoint co-signed (A's, 30) and the one offered (B's, 35), each signed.
    shown = second.output
    assert f"rollbook/fork\n{SHARED + MINE}\n" in shown and f"rollbook/fork\n{SHARED + THEIRS}\n" in shown
    evidence = json.loads(rollbook("witness", "evidence", "--state", state, "--json").stdout)
    assert len(evidence) == 1 and Checkpoint.parse(parse_note(evidence[0]["offered"]).text).size == SHARED + THEIRS
    # Nothing of B was co-signed; A's checkpoint, co-signed, is published by A's store.
    cosigned = rollbook("checkpoint", "-c", "fork", "--cosigned", "--store", a).stdout
    assert parse_note(cosigned).verified([Verifier.parse(witness_vkey)])
    assert "no witness has co-signed" in rollbook("checkpoint", "-c", "fork", "--cosigned", "--store", b).output
    # The witness's own reasons in the reader's language; the --json's stay English (issue 49).
    russian = rollbook("--lang", "ru", "witness", "check", "--state", state)
    assert russian.exit_code == 1 and (
        f"rollbook/fork при размере {SHARED + THEIRS} не продолжает контрольную точку, заверенную при размере "
        f"{SHARED + MINE}: история переписана или раздвоена (заверить отказано)") in " ".join(russian.output.split())
    said = json.loads(rollbook("--lang", "ru", "witness", "check", "--state", state, "--json").stdout)
    assert [o["reason"] for o in said if o["status"] == "fork"] == [
        f"rollbook/fork at {SHARED + THEIRS} does not extend the checkpoint co-signed at {SHARED + MINE}: the history "
        "was rewritten or forked (refused to co-sign)"]
    kept = rollbook("--lang", "ru", "witness", "evidence", "--state", state).output
    assert "rollbook/fork (" in kept and "): нет согласованности с заверенной контрольной точкой" in kept


def test_players_who_compare_their_checkpoints_catch_the_same_fork(two_histories, tmp_path):
    a, b = two_histories
    mine, theirs = tmp_path / "anna.txt", tmp_path / "bo.txt"
    mine.write_text(rollbook("checkpoint", "-c", "fork", "--store", a).stdout)
    theirs.write_text(rollbook("checkpoint", "-c", "fork", "--store", b).stdout)
    for store in (a, b):  # each store holds to its own checkpoint, and neither to the other's
        assert rollbook("verify", "-c", "fork", "--store", store, "--checkpoint", str(mine if store == a else theirs)).exit_code == 0
        both = rollbook("verify", "-c", "fork", "--store", store, "--checkpoint", str(mine), "--checkpoint", str(theirs))
        assert both.exit_code == 1 and ("the history was rewritten" in both.output or "the history was cut" in both.output)
    joined = rollbook("prove", "--consistency", str(mine), str(theirs), "-c", "fork", "--store", b)
    assert joined.exit_code == 1 and "not this history" in joined.output


def watched_store(tmp_path):
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    run(url, commands(0, 5))
    return url


def test_verify_witness_requires_the_named_witnesses_cosignatures(tmp_path):
    url = watched_store(tmp_path)
    states = {name: str(tmp_path / name / "witness.db") for name in ("alice", "bob")}
    vkeys = {name: json.loads(rollbook("witness", "add", url, "-c", "fork", "--name", f"{name}.example/w", "--state",
                                       state, "--json").stdout)["vkey"] for name, state in states.items()}
    chapter_end = tmp_path / "chapter.txt"
    chapter_end.write_text(rollbook("checkpoint", "-c", "fork", "--store", url).stdout)
    assert rollbook("witness", "check", "--state", states["alice"]).exit_code == 0
    published = tmp_path / "published.txt"
    published.write_text(rollbook("checkpoint", "-c", "fork", "--cosigned", "--store", url).stdout)
    ok = rollbook("verify", "-c", "fork", "--store", url, "--checkpoint", str(chapter_end), "--checkpoint",
                  str(published), "--witness", vkeys["alice"])
    assert ok.exit_code == 0 and "co-signed by 1 witness: alice.example/w" in ok.output
    missing = rollbook("verify", "-c", "fork", "--store", url, "--checkpoint", str(published),
                       "--witness", vkeys["alice"], "--witness", vkeys["bob"])
    assert missing.exit_code == 1
    assert "no checkpoint given is co-signed by the witness bob.example/w" in missing.output
    # The chapter's own checkpoint waited for nobody: it has no cosignature, and is not enough alone.
    alone = rollbook("verify", "-c", "fork", "--store", url, "--checkpoint", str(chapter_end), "--witness", vkeys["alice"])
    assert alone.exit_code == 1
    # Once bob's witness runs too, the log publishes both cosignatures on one checkpoint.
    run(url, commands(5, 8))
    for state in states.values():
        assert rollbook("witness", "check", "--state", state).exit_code == 0
    both = tmp_path / "both.txt"
    both.write_text(rollbook("checkpoint", "-c", "fork", "--cosigned", "--store", url).stdout)
    assert len(parse_note(both.read_text()).signatures) == 3
    assert rollbook("verify", "-c", "fork", "--store", url, "--checkpoint", str(both), "--witness", vkeys["alice"],
                    "--witness", vkeys["bob"]).exit_code == 0


def test_a_witness_follows_a_ruling_into_its_new_revision_without_calling_it_a_fork(tmp_path):
    url = f"sqlite:///{tmp_path / 'gm.db'}"
    run(url, commands(0, 6))
    state = str(tmp_path / "w.db")
    assert rollbook("witness", "add", url, "-c", "fork", "--name", "w.example/w", "--state", state).exit_code == 0
    assert rollbook("witness", "check", "--state", state).exit_code == 0
    assert rollbook("undo", "c5", "-c", "fork", "--reason", "typo", "--store", url).exit_code == 0
    checked = rollbook("witness", "check", "--state", state, "--json")
    assert checked.exit_code == 0, checked.output
    seen = {o["origin"]: o["status"] for o in json.loads(checked.stdout)}
    # Revision 2 is a log of its own (its origin /r2); revision 1's log went on with the ruling, and extends.
    assert seen == {"rollbook/fork/r2": "cosigned", "rollbook/fork": "cosigned"}


def consistent(state_path):
    """The witness's file after a kill: whole, and whatever it says it co-signed it did co-sign."""
    with sqlite3.connect(state_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = db.execute("SELECT origin, size, root, note, cosignature FROM latest").fetchall()
        assert db.execute("SELECT count(*) FROM evidence").fetchone()[0] == 0  # no fork where there is none
    witness = open_witness(Path(state_path))
    for origin, size, root, note, line in rows:
        parsed = parse_note(note)
        checkpoint = Checkpoint.parse(parsed.text)
        assert (checkpoint.origin, checkpoint.size, checkpoint.root.hex()) == (origin, size, root)
        cosigned = parse_note(parsed.text + "\n" + line)
        assert cosigned.verified([witness.verifier])
    return {origin: size for origin, *_ in rows}


@pytest.mark.slow
def test_a_killed_witness_check_leaves_its_state_consistent_and_the_next_one_goes_on(tmp_path):
    url = watched_store(tmp_path)
    state = tmp_path / "w.db"
    assert rollbook("witness", "add", url, "-c", "fork", "--name", "w.example/w", "--state", str(state)).exit_code == 0
    seed = random.randrange(1 << 30)
    chance = random.Random(seed)
    kills, size, seen = 0, 5, 0
    for _ in range(8):
        more = chance.randint(1, 4)
        run(url, commands(size, size + more))
        size += more
        check = subprocess.Popen([sys.executable, "-m", "rollbook.cli", "-q", "witness", "check", "--state", str(state)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            check.wait(timeout=chance.uniform(0.3, 2.5))
            assert check.returncode == 0, check.stderr.read()
        except subprocess.TimeoutExpired:
            check.kill()  # SIGKILL: no cleanup, no rollback by the process itself
            check.wait()
            kills += 1
        check.stderr.close()
        now = consistent(state).get("rollbook/fork", 0)
        assert now >= seen  # never back
        seen = now
    final = rollbook("witness", "check", "--state", str(state), "--json")
    assert final.exit_code == 0, final.output
    (outcome,) = json.loads(final.stdout)
    assert outcome["delivered"] and outcome["status"] in ("cosigned", "unchanged")
    assert consistent(state)["rollbook/fork"] == outcome["size"]
    print(f"\nwitness check: {kills} SIGKILLs of 8 runs; seed {seed}")


@pytest.mark.slow
def test_a_witness_of_a_server_on_127_0_0_1_co_signs_delivers_and_catches_the_store_that_forked(two_histories, tmp_path):
    """The server publishes A; the GM's other store, B, is the history shown elsewhere. One witness, both sources."""
    from rollbook.hosting.accounts import Accounts
    from rollbook.store import Store
    from rollbook.testing.serving import serving

    a, b = two_histories
    store = Store.open(a)
    try:
        accounts = Accounts(store)
        token = accounts.add("anna")
        accounts.grant("fork", "anna", "player", by="test")
    finally:
        store.close()
    state = str(tmp_path / "anna" / "witness.db")
    with serving(a, tmp_path) as (server,):
        added = rollbook("--token", token, "witness", "add", server.url, "-c", "fork", "--name", "anna.example/w",
                         "--state", state, "--json")
        assert added.exit_code == 0, added.output
        witness_vkey = json.loads(added.stdout)["vkey"]
        checked = rollbook("witness", "check", "--state", state, "--json")
        assert checked.exit_code == 0, checked.output
        (outcome,) = json.loads(checked.stdout)
        assert outcome["status"] == "cosigned" and outcome["delivered"] and outcome["size"] == SHARED + MINE
        published = rollbook("--server", server.url, "--token", token, "checkpoint", "-c", "fork").stdout
        assert parse_note(published).verified([Verifier.parse(witness_vkey)])
        # A proof fetched from the server, checked with the vkey and the witness's key, needs nothing else.
        proof = rollbook("--server", server.url, "--token", token, "prove", "c3", "-c", "fork", "--json")
        (tmp_path / "proof.json").write_text(proof.stdout)
        vkey = rollbook("--server", server.url, "--token", token, "checkpoint", "-c", "fork", "--vkey").stdout.strip()
        assert rollbook("check-proof", str(tmp_path / "proof.json"), "--vkey", vkey, "--witness", witness_vkey).exit_code == 0
        assert rollbook("witness", "add", b, "-c", "fork", "--name", "anna.example/w", "--state", state).exit_code == 0
        forked = rollbook("witness", "check", "--state", state, "--json")
        assert forked.exit_code == 1
        statuses = {o["source"]: o["status"] for o in json.loads(forked.stdout[:forked.stdout.rindex("]") + 1])}
        assert statuses == {server.url: "unchanged", b: "fork"}


def test_a_witness_keeps_its_key_and_file_to_its_owner_and_refuses_a_bad_name_or_another_log_key(tmp_path):
    url = watched_store(tmp_path)
    state = tmp_path / "w" / "witness.db"
    bad = rollbook("witness", "add", url, "-c", "fork", "--name", "anna w", "--state", str(state))
    assert bad.exit_code == 1 and "cannot be one" in bad.output
    assert rollbook("witness", "add", url, "-c", "fork", "--name", "anna.example/w", "--state", str(state)).exit_code == 0
    assert state.stat().st_mode & 0o777 == 0o600
    assert state.with_name("witness.db.key").stat().st_mode & 0o777 == 0o600
    renamed = rollbook("witness", "add", url, "-c", "fork", "--name", "bob.example/w", "--state", str(state))
    assert renamed.exit_code == 1 and "one name per witness file" in renamed.output
    other = rollbook("witness", "add", url, "-c", "fork", "--name", "anna.example/w", "--state", str(state),
                     "--log-vkey", "rollbook/fork+00000000+AQ" + "A" * 42)
    assert other.exit_code == 1
    unwatched = rollbook("witness", "check", "-c", "nope", "--state", str(state))
    assert unwatched.exit_code == 1 and "watches no campaign 'nope'" in unwatched.output
