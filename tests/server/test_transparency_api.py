"""The log over HTTP (issue 34): the published checkpoint and vkey, proofs, and a witness's cosignature
taken as tlog-witness's add-checkpoint refuses one (400/403/404/409/422), seen from the log."""

import json

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from rollbook.domain.checkpoint import sign_tree_head
from rollbook.domain.ids import campaign_id
from rollbook.domain.transparency.note import Verifier, cosign_with, parse_note
from rollbook.domain.transparency.proof import check

WITNESS = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
WITNESS_VKEY = Verifier("anna.example/w", 0x04, WITNESS.public_key().public_bytes_raw()).vkey


def cosigned(note_text, key=WITNESS, name="anna.example/w", at=1_790_000_000):
    note = parse_note(note_text)
    return str(note.with_signatures([cosign_with(key, name, note.text, at)]))


def submit(table, body, user="anna"):
    return table.client.post("/campaigns/bs/checkpoint/cosignatures", content=body.encode(),
                             headers={**table.headers(user), "Content-Type": "text/plain"})


def test_the_checkpoint_vkey_and_proofs_are_what_the_cli_gives(table):
    note = table.get("anna", "/campaigns/bs/checkpoint/note")
    assert note.status_code == 200 and note.headers["content-type"].startswith("text/plain")
    vkey = table.get("anna", "/campaigns/bs/checkpoint/vkey").text.strip()
    assert parse_note(note.text).verified([Verifier.parse(vkey)])
    assert note.text.startswith("rollbook/bs\n4\n") and note.text == table.get("bo", "/campaigns/bs/checkpoint/note").text
    proof = table.get("anna", "/campaigns/bs/proof/inclusion", roll="k3", size=4)
    assert proof.status_code == 200, proof.json()
    assert check(proof.json(), [Verifier.parse(vkey)]).ok
    consistent = table.get("anna", "/campaigns/bs/proof/consistency", **{"from": 2, "to": 4})
    assert consistent.status_code == 200 and check(consistent.json(), [Verifier.parse(vkey)]).ok
    assert table.get("carl", "/campaigns/bs/checkpoint/note").status_code == 403
    unknown = table.get("anna", "/campaigns/bs/proof/inclusion", roll="nope")
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "roll"
    assert table.get("anna", "/campaigns/bs/proof/consistency", **{"from": 9}).status_code == 422


def test_a_cosignature_is_kept_and_published_with_the_checkpoint(table):
    note = table.get("anna", "/campaigns/bs/checkpoint/note").text
    taken = submit(table, f"witness {WITNESS_VKEY}\n\n{cosigned(note)}")
    assert taken.status_code == 200, taken.text
    published = table.get("bo", "/campaigns/bs/checkpoint/note").text
    assert published == taken.text and len(parse_note(published).signatures) == 2
    assert parse_note(published).verified([Verifier.parse(WITNESS_VKEY)])
    # The log moves on: the new checkpoint waits for nobody; the co-signed one stays published at its size.
    assert table.post("gm1", {"type": "start_scene"}).status_code == 201
    assert len(parse_note(table.get("bo", "/campaigns/bs/checkpoint/note").text).signatures) == 1
    assert table.get("bo", "/campaigns/bs/checkpoint/note", cosigned="true").text == published
    assert table.get("bo", "/campaigns/bs/checkpoint/note", size=4).text == published


def test_cosignatures_the_log_does_not_take_are_refused_with_the_protocols_codes(table):
    note = table.get("anna", "/campaigns/bs/checkpoint/note").text
    body = cosigned(note)
    stranger = Ed25519PrivateKey.from_private_bytes(bytes(32))
    cases = {
        400: "no witness line\n\n" + body,
        403: f"witness {WITNESS_VKEY}\n\n{cosigned(note, key=stranger)}",  # another key under the witness's name
    }
    for status, submission in cases.items():
        assert submit(table, submission).status_code == status, submission
    # Not signed by the campaign's key: the log's line removed.
    unsigned = parse_note(body)
    lone = type(unsigned)(unsigned.text, unsigned.signatures[1:])
    assert submit(table, f"witness {WITNESS_VKEY}\n\n{lone}").status_code == 403
    # Another campaign's origin: not a log of this one.
    assert submit(table, f"witness {WITNESS_VKEY}\n\n{body.replace('rollbook/bs', 'rollbook/other')}").status_code in (403, 404)
    # A size the log never had, or another root at a size it had: signed by the campaign's key (a fork).
    keys = table.state.store.keys
    public = table.state.store.app.repository.get(campaign_id("bs")).public_key
    bigger = sign_tree_head(keys, public, "bs", 1, 9, "ab" * 32)
    forked = sign_tree_head(keys, public, "bs", 1, 3, "cd" * 32)
    assert submit(table, f"witness {WITNESS_VKEY}\n\n{cosigned(str(bigger.note))}").status_code == 422
    refused = submit(table, f"witness {WITNESS_VKEY}\n\n{cosigned(str(forked.note))}")
    assert refused.status_code == 409 and "rollbook/bs\n3\n" in refused.json()["error"]["reason"]
    assert len(parse_note(table.get("anna", "/campaigns/bs/checkpoint/note").text).signatures) == 1
    assert submit(table, f"witness {WITNESS_VKEY}\n\n{body}", user="carl").status_code == 403


def test_the_openapi_documents_the_log_routes(table):
    paths = table.client.get("/openapi.json").json()["paths"]
    for path in ("/campaigns/{campaign}/checkpoint/note", "/campaigns/{campaign}/checkpoint/vkey",
                 "/campaigns/{campaign}/checkpoint/cosignatures", "/campaigns/{campaign}/proof/inclusion",
                 "/campaigns/{campaign}/proof/consistency"):
        assert path in paths, path
    posted = paths["/campaigns/{campaign}/checkpoint/cosignatures"]["post"]
    assert {"400", "403", "404", "409", "422"} <= set(posted["responses"]) and "text/plain" in posted["requestBody"]["content"]
    assert {p["name"] for p in paths["/campaigns/{campaign}/proof/consistency"]["get"]["parameters"]} >= {"from", "to"}
