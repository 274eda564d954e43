"""Checkpoints (issue 17): a signed head published outside the store, and the store held to it.

What no check of the store alone can see — its last commands cut, or its whole history
re-executed with one roll changed and every hash recomputed — a checkpoint kept from
before catches, on SQLite and PostgreSQL alike.
"""

import json
import shutil

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.checkpoint import parse


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


def checkpoint_of(url, tmp_path, name="thread.txt"):
    """`rollbook checkpoint`, saved as a player would paste it from the thread."""
    result = rollbook("checkpoint", "-c", "audit", "--store", url)
    assert result.exit_code == 0, result.output
    (tmp_path / name).write_text(f"Posted by the GM, 3 March:\n\n{result.stdout}\nSee you next week!\n")
    return tmp_path / name


def test_a_checkpoint_names_the_head_and_the_store_verifies_against_it(tampered, tmp_path):
    url, _ = tampered
    pasted = checkpoint_of(url, tmp_path)
    checkpoint = parse(pasted.read_text(), where="thread")
    report = json.loads(rollbook("verify", "-c", "audit", "--json", "--store", url).stdout)["audit"]
    assert (checkpoint.campaign, checkpoint.revision, checkpoint.commands) == ("audit", 1, 17)
    assert checkpoint.origin == "rollbook/audit" and checkpoint.signed_by(report["public_key"])
    as_json = rollbook("checkpoint", "-c", "audit", "--json", "--store", url).stdout
    (tmp_path / "cp.json").write_text(as_json)
    result = rollbook("verify", "-c", "audit", "--store", url, "--checkpoint", str(pasted),
                      "--checkpoint", str(tmp_path / "cp.json"))
    assert result.exit_code == 0 and "0 findings" in result.output


def test_a_store_cut_after_a_checkpoint_and_rebuilt_passes_verify_but_not_verify_checkpoint(tampered, tmp_path):
    url, tamper = tampered
    pasted = checkpoint_of(url, tmp_path)
    # The last two commands (a chapter's start, roll r4): everything stored after the 15th's record, gone.
    position = tamper.position()
    cut = tamper.sql(f"SELECT {position} FROM {{events}} WHERE topic LIKE '%CommandApplied' "
                     f"ORDER BY {position} LIMIT 1 OFFSET 14")[0][0]
    tamper.sql(f"DELETE FROM {{events}} WHERE {position} > ?", cut)
    # The projections still remember the longer store, until they are rebuilt from the cut one.
    result = rollbook("verify", "-c", "audit", "--store", url)
    assert result.exit_code == 1 and "events at its end were removed" in result.output
    assert rollbook("rebuild", "--store", url).exit_code == 0
    assert rollbook("verify", "-c", "audit", "--store", url).exit_code == 0
    result = rollbook("verify", "-c", "audit", "--store", url, "--checkpoint", str(pasted))
    assert result.exit_code == 1
    assert f"checkpoint {pasted}: it was signed at 17 commands, the store holds 15: the history was cut" in result.output


@pytest.mark.slow
def test_a_history_re_executed_with_one_roll_changed_passes_verify_but_not_verify_checkpoint(audited, tmp_path):
    from .conftest import HISTORY

    url, path = audited
    pasted = checkpoint_of(url, tmp_path)
    # The writer keeps the signing key and re-executes every command with r2's faces changed.
    forged = tmp_path / "forged.db"
    shutil.copytree(f"{path}.secrets", f"{forged}.secrets")
    lines = [{**c, "dice": [1, 1]} if c.get("id") == "r2" else c for c in HISTORY]
    (tmp_path / "forged.jsonl").write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in lines) + "\n")
    assert rollbook("run", str(tmp_path / "forged.jsonl"), "--store", f"sqlite:///{forged}").exit_code == 0
    assert rollbook("verify", "-c", "audit", "--store", f"sqlite:///{forged}").exit_code == 0
    result = rollbook("verify", "-c", "audit", "--store", f"sqlite:///{forged}", "--checkpoint", str(pasted))
    assert result.exit_code == 1 and "the history was rewritten" in result.output
    assert "signature" not in result.output  # signed with the very key: only the head tells


@pytest.mark.slow
def test_a_checkpoint_whose_signature_fails_is_a_finding(audited, tmp_path):
    url, _ = audited
    pasted = checkpoint_of(url, tmp_path)
    pasted.write_text(pasted.read_text().replace("\n17\n", "\n16\n"))
    result = rollbook("verify", "-c", "audit", "--store", url, "--checkpoint", str(pasted))
    assert result.exit_code == 1 and "its signature is not the campaign's key's" in result.output


def test_ending_a_chapter_prints_its_checkpoint_and_records_no_old_form(tmp_path):
    from .conftest import HISTORY

    url = f"sqlite:///{tmp_path / 'audit.db'}"
    lines = "\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY[:15]) + "\n"
    result = rollbook("run", "-", "--store", url, input=lines)
    assert result.exit_code == 0
    printed = parse(result.stdout, where="run")
    # Printed by the 15th command (ch1-end): the Merkle tree of the 14 before it.
    assert printed.commands == 14 and printed.origin == "rollbook/audit"
    (tmp_path / "printed.txt").write_text(result.stdout)
    assert rollbook("verify", "-c", "audit", "--store", url, "--checkpoint", str(tmp_path / "printed.txt")).exit_code == 0
    # The same size at any later time is the very same checkpoint, byte for byte (Ed25519 is deterministic).
    again = rollbook("checkpoint", "-c", "audit", "--size", "14", "--store", url)
    assert again.stdout in result.stdout
    # The old form (issue 47, item 6) is no longer written into the campaign: the C2SP one is signed whenever asked.
    log = json.loads(rollbook("log", "-c", "audit", "--json", "--store", url).stdout)
    assert "ScopeEnded" in {e["type"] for e in log} and "CheckpointSigned" not in {e["type"] for e in log}


@pytest.mark.slow
def test_the_signing_key_is_kept_beside_the_store_readable_by_its_owner_only(audited):
    _, path = audited
    key = path.parent / f"{path.name}.secrets" / "audit" / "signing.key"
    assert key.stat().st_mode & 0o777 == 0o600
    assert key.parent.stat().st_mode & 0o777 == 0o700 and key.parent.parent.stat().st_mode & 0o777 == 0o700
