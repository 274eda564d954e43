"""A campaign names external witnesses (issue 51): `rollbook checkpoint` sends each the checkpoint by C2SP
tlog-witness's add-checkpoint, with the consistency proof from the size it co-signed last, and keeps and publishes
the cosignatures. Rollbook's own `rollbook witness serve` on 127.0.0.1 is the witness here."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rollbook
from rollbook.cli import app
from rollbook.domain.transparency.note import Verifier, parse_note
from rollbook.testing.serving import start_witness

PIRATES = Path(rollbook.__file__).parent / "examples" / "pirates.jsonl"
CAMPAIGN = "black-sails"


def rollbook_cli(*args):
    return CliRunner().invoke(app, ["-q", *args])


@pytest.fixture
def witnessed(tmp_path):
    """The example pirates campaign in a SQLite store, and a Rollbook witness serving add-checkpoint for its log."""
    url = f"sqlite:///{tmp_path / 'rollbook.db'}"
    assert rollbook_cli("run", str(PIRATES), "--store", url).exit_code == 0
    log_vkey = rollbook_cli("checkpoint", "-c", CAMPAIGN, "--store", url, "--vkey").stdout.strip()
    state = tmp_path / "witness" / "witness.db"
    added = rollbook_cli("witness", "add", "--origin", f"rollbook/{CAMPAIGN}", "--log-vkey", log_vkey,
                         "--name", "w.example/w", "--state", str(state), "--json")
    assert added.exit_code == 0, added.output
    server = start_witness(state, tmp_path / "witness.log")
    try:
        yield url, server.url, json.loads(added.stdout)["vkey"]
    finally:
        server.stop()


def checkpoint(url):
    shown = rollbook_cli("checkpoint", "-c", CAMPAIGN, "--store", url, "--json")
    assert shown.exit_code == 0, shown.output
    return json.loads(shown.stdout)


def test_rollbook_checkpoint_gathers_the_named_witness_cosignature_as_the_log_grows(witnessed, tmp_path):
    url, witness_url, witness_vkey = witnessed
    assert checkpoint(url)["witnesses"] == []  # none named yet: nobody is asked
    named = rollbook_cli("witness", "ask", witness_url, "--vkey", witness_vkey, "-c", CAMPAIGN, "--store", url)
    assert named.exit_code == 0, named.output
    first = checkpoint(url)
    assert [w["status"] for w in first["witnesses"]] == ["cosigned"], first["witnesses"]
    assert parse_note(first["note"]).verified([Verifier.parse(witness_vkey)])
    assert checkpoint(url)["witnesses"][0]["status"] == "unchanged"  # the same checkpoint: not asked again
    # The log grows: the witness gets the proof from the size it co-signed, and co-signs the new size.
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"type": "start_chapter", "campaign": CAMPAIGN}) + "\n")
    assert rollbook_cli("run", str(more), "--store", url).exit_code == 0
    second = checkpoint(url)
    assert second["size"] == first["size"] + 1 and second["witnesses"][0]["status"] == "cosigned"
    (tmp_path / "published.txt").write_text(second["note"])
    verified = rollbook_cli("verify", "-c", CAMPAIGN, "--store", url, "--checkpoint", str(tmp_path / "published.txt"),
                            "--witness", witness_vkey)
    assert verified.exit_code == 0, verified.output


def test_a_witness_that_does_not_co_sign_is_said_and_the_checkpoint_still_printed(witnessed):
    url, witness_url, witness_vkey = witnessed
    impostor = Verifier("w.example/w", 0x04, bytes(32)).vkey  # the witness's name, another key
    named = rollbook_cli("witness", "ask", witness_url, "--vkey", impostor, "-c", CAMPAIGN, "--store", url)
    assert named.exit_code == 0, named.output
    shown = CliRunner().invoke(app, ["-q", "checkpoint", "-c", CAMPAIGN, "--store", url])
    assert shown.exit_code == 0 and shown.stdout.startswith(f"rollbook/{CAMPAIGN}\n")
    assert "did not co-sign" in shown.output and "Traceback" not in shown.output
    for bad, field in (("ftp://x", "url"), (witness_url, "vkey")):
        refused = rollbook_cli("witness", "ask", bad, "--vkey", witness_vkey if field == "url" else "nope",
                               "-c", CAMPAIGN, "--store", url)
        assert refused.exit_code != 0 and "Traceback" not in refused.output, refused.output


def test_a_witness_ahead_of_what_the_store_kept_says_its_size_and_is_sent_the_proof_from_there(witnessed, tmp_path):
    """The store lost the cosignatures it kept (or the witness co-signed elsewhere): `old 0` gets 409 with the
    witness's size, and `rollbook checkpoint` asks again with the consistency proof from that size."""
    import sqlite3

    url, witness_url, witness_vkey = witnessed
    rollbook_cli("witness", "ask", witness_url, "--vkey", witness_vkey, "-c", CAMPAIGN, "--store", url)
    first = checkpoint(url)
    assert first["witnesses"][0]["status"] == "cosigned"
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        assert db.execute("DELETE FROM rollbook_cosignatures").rowcount == 1
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"type": "start_chapter", "campaign": CAMPAIGN}) + "\n")
    assert rollbook_cli("run", str(more), "--store", url).exit_code == 0
    second = checkpoint(url)
    assert second["witnesses"][0]["status"] == "cosigned", second["witnesses"]
    assert parse_note(second["note"]).verified([Verifier.parse(witness_vkey)])
