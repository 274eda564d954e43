"""`rollbook witness serve` (issue 51): C2SP tlog-witness's add-checkpoint over HTTP, every status of the spec, for a
log added by its origin and vkey (any C2SP log, not only Rollbook's)."""

import base64
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.transparency import merkle
from rollbook.domain.transparency.note import ED25519, Checkpoint, Note, Verifier, parse_signature_line, sign_with
from rollbook.server.witness import create_witness_app

ORIGIN = "example.org/log"
LOG_KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
LOG_VKEY = Verifier(ORIGIN, ED25519, LOG_KEY.public_key().public_bytes_raw()).vkey
LEAVES = [merkle.leaf_hash(f"entry {i}".encode()) for i in range(20)]


def subtree(height, index):
    return merkle.complete_root(LEAVES[index << height:(index + 1) << height])


def checkpoint(size, *, key=LOG_KEY, origin=ORIGIN, root=None):
    text = Checkpoint(origin, size, root or merkle.root_of(LEAVES[:size])).text
    return str(Note(text, (sign_with(key, origin, text),)))


def request(old, size, proof=None, **options):
    if proof is None:
        proof = merkle.consistency_path(old, size, subtree) if 0 < old < size else []
    lines = "".join(base64.b64encode(h).decode() + "\n" for h in proof)
    return f"old {old}\n{lines}\n{checkpoint(size, **options)}"


@pytest.fixture
def witness(tmp_path):
    state = tmp_path / "witness.db"
    added = CliRunner().invoke(app, ["-q", "witness", "add", "--origin", ORIGIN, "--log-vkey", LOG_VKEY,
                                     "--name", "w.example/w", "--state", str(state), "--json"])
    assert added.exit_code == 0, added.output
    with TestClient(create_witness_app(state)) as client:
        yield client, Verifier.parse(json.loads(added.stdout)["vkey"]), state


def add(client, body):
    return client.post("/add-checkpoint", content=body.encode())


def test_a_checkpoint_that_extends_the_last_is_co_signed_and_one_that_does_not_is_refused(witness):
    client, vkey, _ = witness
    first = add(client, request(0, 5))
    assert first.status_code == 200, first.text
    co_signed = Note(checkpoint(5).split("\n\n")[0] + "\n", ())  # the checkpoint's text, with the witness's line
    assert co_signed.with_signatures([parse_signature_line(first.text.rstrip("\n"))]).verified([vkey])
    assert add(client, request(5, 12)).status_code == 200
    # 409: not the size co-signed last; the body is that size, as the spec's media type.
    stale = add(client, request(5, 20))
    assert (stale.status_code, stale.text, stale.headers["content-type"]) == (409, "12\n", "text/x.tlog.size")
    # 409 too: the size co-signed last, but another root.
    other = add(client, request(12, 12, root=merkle.root_of(LEAVES[1:13])))
    assert other.status_code == 409 and other.text == "12\n"
    # 422: a proof that does not lead from the root co-signed to the new one (evidence kept).
    wrong = merkle.consistency_path(12, 20, subtree)
    wrong[0] = bytes(32)
    assert add(client, request(12, 20, proof=wrong)).status_code == 422
    evidence = json.loads(CliRunner().invoke(app, ["-q", "witness", "evidence", "--state", str(witness[2]),
                                                   "--json"]).stdout)
    assert [e["origin"] for e in evidence] == [ORIGIN, ORIGIN]
    assert add(client, request(12, 20)).status_code == 200


@pytest.mark.parametrize("body, status", [
    ("old 0\n\n" + checkpoint(5, origin="example.org/other"), 404),  # no log of that origin here
    ("old 0\n\n" + checkpoint(5, key=Ed25519PrivateKey.from_private_bytes(bytes(32))), 403),  # another key
    ("old 00\n\n" + checkpoint(5), 400),  # leading zeroes
    ("old 010\n\n" + checkpoint(5), 400),
    ("old -1\n\n" + checkpoint(5), 400),
    ("old 6\n\n" + checkpoint(5), 400),  # above the checkpoint's size
    ("old 0\n" + "AAAA\n" * 64 + "\n" + checkpoint(5), 400),  # more than 63 proof lines
    ("old 0\nnot base64!\n\n" + checkpoint(5), 400),
    ("old 0\n\nexample.org/log\n5\n", 400),  # no signature
    ("nothing", 400),
    ("old 0\n" + base64.b64encode(bytes(32)).decode() + "\n\n" + checkpoint(5), 422),  # a proof from size 0
])
def test_each_refusal_has_the_specs_status(witness, body, status):
    client, _, _ = witness
    answer = add(client, body)
    assert answer.status_code == status, answer.text
    assert "Traceback" not in answer.text and answer.text.endswith("\n")


def test_a_log_is_added_by_origin_only_with_a_vkey_of_its_key_name(tmp_path):
    state = str(tmp_path / "w.db")
    other = Verifier("example.org/else", ED25519, LOG_KEY.public_key().public_bytes_raw()).vkey
    refused = CliRunner().invoke(app, ["-q", "witness", "add", "--origin", ORIGIN, "--log-vkey", other,
                                       "--name", "w.example/w", "--state", state])
    assert refused.exit_code != 0 and "example.org/else" in refused.output and "Traceback" not in refused.output
    alone = CliRunner().invoke(app, ["-q", "witness", "add", "--origin", ORIGIN, "--name", "w.example/w",
                                     "--state", state])
    assert alone.exit_code != 0 and "--log-vkey" in alone.output
