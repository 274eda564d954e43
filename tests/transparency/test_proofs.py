"""Proofs a player checks with nothing but a checkpoint and the campaign's vkey (issue 34):
every roll of the four example campaigns, consistency between checkpoints, and what fails."""

import ast
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rollbook
from rollbook.cli import app
from rollbook.domain.checkpoint import parse_all
from rollbook.domain.transparency.note import Verifier
from rollbook.domain.transparency.proof import check
from rollbook.replay.transparency import consistency_proof, inclusion_proof, open_log
from rollbook.store import Store

EXAMPLES = sorted((Path(rollbook.__file__).parent / "examples").glob("*.jsonl"))


def rollbook_cli(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    """A SQLite store of the four example campaigns (every file of examples/), and its campaigns."""
    folder = tmp_path_factory.mktemp("examples")
    url = f"sqlite:///{folder / 'examples.db'}"
    for file in EXAMPLES:
        assert rollbook_cli("run", str(file), "--store", url).exit_code == 0
    campaigns = [c["campaign"] for c in json.loads(rollbook_cli("campaigns", "--json", "--store", url).stdout)]
    return url, campaigns, folder


def test_every_roll_of_the_example_campaigns_is_proven_in_the_log_with_its_faces(examples):
    url, campaigns, _ = examples
    assert len(EXAMPLES) == 4 and len(campaigns) >= 4
    store = Store.open(url)
    proven = 0
    try:
        for campaign in campaigns:
            rolls = json.loads(rollbook_cli("rolls", "-c", campaign, "--json", "--store", url).stdout)
            vkey = [open_log(store, campaign).verifier]
            for roll in rolls:
                document = inclusion_proof(store, campaign, roll["id"])
                checked = check(json.loads(json.dumps(document)), vkey)
                assert checked.ok, (campaign, roll["id"], checked.problems)
                assert checked.roll["faces"] == roll["faces"] and checked.command["id"] == roll["id"].split("#")[0]
                proven += 1
    finally:
        store.close()
    assert proven >= 40  # 43 rolls, every one


def test_check_proof_needs_only_the_proof_and_the_vkey_and_fails_on_any_edit(examples):
    url, _, folder = examples
    roll = json.loads(rollbook_cli("rolls", "-c", "silver-fleet", "--json", "--store", url).stdout)[3]["id"]
    proof = rollbook_cli("prove", roll, "-c", "silver-fleet", "--json", "--store", url)
    assert proof.exit_code == 0, proof.output
    vkey = rollbook_cli("checkpoint", "-c", "silver-fleet", "--vkey", "--store", url).stdout.strip()
    saved = folder / "proof.json"
    saved.write_text(proof.stdout)
    checked = rollbook_cli("check-proof", str(saved), "--vkey", vkey)
    assert checked.exit_code == 0 and f"ok: roll '{roll}'" in checked.output
    document = json.loads(proof.stdout)
    edits = {
        "path": lambda d: d["path"].__setitem__(0, "00" * 32),
        "leaf_index": lambda d: d.__setitem__("leaf_index", d["leaf_index"] + 1),
        "the command": lambda d: d["record"].__setitem__("command", d["record"]["command"].replace('"actor"', '"actor" ')),
        "the checkpoint": lambda d: d.__setitem__("checkpoint", d["checkpoint"].replace("revision 1", "revision 2")),
        "the roll": lambda d: d["roll_event"].__setitem__("state", d["roll_event"]["state"][:-8] + "AAAAAAA="),
    }
    for what, edit in edits.items():
        edited = json.loads(proof.stdout)
        edit(edited)
        saved.write_text(json.dumps(edited))
        result = rollbook_cli("check-proof", str(saved), "--vkey", vkey)
        assert result.exit_code == 1 and "NOT OK" in result.output, what
    # Another campaign's key proves nothing about this one.
    other = rollbook_cli("checkpoint", "-c", "black-sails", "--vkey", "--store", url).stdout.strip()
    saved.write_text(json.dumps(document))
    assert rollbook_cli("check-proof", str(saved), "--vkey", other).exit_code == 1


def test_a_proof_against_the_checkpoint_a_player_kept_and_the_consistency_of_two_kept_checkpoints(examples):
    url, _, folder = examples
    store = Store.open(url)
    try:
        log = open_log(store, "silver-fleet")
        early, late = log.head(40), log.head()
        vkey = log.verifier
    finally:
        store.close()
    (folder / "early.txt").write_text(f"from the thread:\n{early.note}\n")
    (folder / "late.txt").write_text(str(late.note))
    roll = "sf-guns"
    kept = rollbook_cli("prove", roll, "-c", "silver-fleet", "--checkpoint", str(folder / "early.txt"), "--json",
                        "--store", url)
    assert json.loads(kept.stdout)["tree_size"] == 40
    (folder / "kept.json").write_text(kept.stdout)
    assert rollbook_cli("check-proof", str(folder / "kept.json"), "--vkey", vkey.vkey).exit_code == 0
    shown = rollbook_cli("prove", "--consistency", str(folder / "early.txt"), str(folder / "late.txt"), "-c",
                         "silver-fleet", "--json", "--store", url)
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.stdout)
    assert (document["old_size"], document["new_size"]) == (40, late.size) and 0 < len(document["path"]) <= 7
    assert check(document, [vkey]).ok
    # Given in the wrong order, or a roll recorded after the checkpoint: refused, saying why.
    wrong = rollbook_cli("prove", "--consistency", str(folder / "late.txt"), str(folder / "early.txt"), "-c",
                         "silver-fleet", "--store", url)
    assert wrong.exit_code == 1 and "give the earlier first" in wrong.output
    last = json.loads(rollbook_cli("rolls", "-c", "silver-fleet", "--json", "--store", url).stdout)[-1]["id"]
    after = rollbook_cli("prove", last, "-c", "silver-fleet", "--checkpoint", str(folder / "early.txt"), "--store", url)
    assert after.exit_code == 1 and "after the checkpoint of 40 commands" in after.output


def test_a_consistency_proof_between_two_histories_does_not_verify(examples, tmp_path):
    """The same campaign and key, another history after command 30: no proof joins the two."""
    url, _, _ = examples
    store = Store.open(url)
    try:
        log = open_log(store, "silver-fleet")
        honest, proof = log.head(30), consistency_proof(store, "silver-fleet", 30, None)
    finally:
        store.close()
    document = {**proof, "old_root": "11" * 32}
    forged = str(honest.note).replace(honest.body().split("\n")[2], "ERERERERERERERERERERERERERERERERERERERERERE=")
    document["old_checkpoint"] = forged
    checked = check(document, [log.verifier])
    assert not checked.ok  # the forged old head is not signed, and no path leads from it
    (kept,) = parse_all(str(honest.note), where="kept")
    assert check({**proof, "old_checkpoint": str(kept.note)}, [log.verifier]).ok


def test_the_tree_of_a_store_kept_without_tiles_is_built_on_first_need_and_follows_the_record(examples, tmp_path):
    """A store written before the tree (no tiles) gets them when first asked; a cut below them rebuilds them."""
    import shutil
    import sqlite3

    url, _, folder = examples
    copy = tmp_path / "old.db"
    shutil.copy(folder / "examples.db", copy)
    shutil.copytree(f"{folder / 'examples.db'}.secrets", f"{copy}.secrets")
    with sqlite3.connect(copy) as db:
        db.execute("DROP TABLE IF EXISTS rollbook_tlog_tiles")
        db.execute("DROP TABLE IF EXISTS rollbook_tlog")
    copied = f"sqlite:///{copy}"
    ours = rollbook_cli("checkpoint", "-c", "silver-fleet", "--store", copied).stdout
    theirs = rollbook_cli("checkpoint", "-c", "silver-fleet", "--store", url).stdout
    assert ours == theirs


def test_the_verifier_depends_on_no_store_and_check_proof_opens_none(examples):
    """`rollbook.domain.transparency` is the standard library and `cryptography`; `check-proof` loads no store."""
    import subprocess
    import sys

    url, _, folder = examples
    proof = folder / "alone.json"
    proof.write_text(rollbook_cli("prove", "sf-guns", "-c", "silver-fleet", "--json", "--store", url).stdout)
    vkey = rollbook_cli("checkpoint", "-c", "silver-fleet", "--vkey", "--store", url).stdout.strip()
    script = (
        "import sys\n"
        "import rollbook.domain.transparency.proof, rollbook.domain.transparency.note, rollbook.domain.transparency.merkle\n"
        "alone = sorted(m for m in sys.modules if m.startswith(('eventsourcing', 'pydantic', 'rollbook')))\n"
        "from rollbook.cli import main\n"
        f"sys.argv = ['rollbook', 'check-proof', {str(proof)!r}, '--vkey', {vkey!r}]\n"
        "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
        "print(alone)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('eventsourcing', 'rollbook.store', 'rollbook.replay'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    alone, loaded = done.stdout.strip().splitlines()[-2:]
    assert ast.literal_eval(alone) == ["rollbook", "rollbook.domain", "rollbook.domain.transparency", "rollbook.domain.transparency.merkle",
                           "rollbook.domain.transparency.note", "rollbook.domain.transparency.proof"]
    assert ast.literal_eval(loaded) == [] and "ok: roll 'sf-guns'" in done.stdout
