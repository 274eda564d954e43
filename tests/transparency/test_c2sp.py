"""The C2SP formats (issue 34), byte for byte: signed notes, key ids and vkeys, checkpoints, cosignatures."""

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from rollbook.domain.transparency.note import (
    Checkpoint, NoteError, Verifier, cosign_with, cosigned_message, name_problem, parse_note, sign_with,
)

# golang.org/x/mod/sumdb/note's example, the reference implementation of c2sp.org/signed-note.
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_NOTE = GO_TEXT + "\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n"

# c2sp.org/tlog-cosignature's example: a checkpoint with the log's signature and a witness's cosignature,
# and the message that cosignature signs.
SPEC_COSIGNED = (
    "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n"
    "\u2014 example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    "\u2014 witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n"
)
SPEC_MESSAGE = ("cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\n"
                "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n")


def go_private_key():
    return Ed25519PrivateKey.from_private_bytes(base64.b64decode(GO_SKEY.split("+", 4)[4])[1:])


def test_the_reference_note_verifies_and_our_signature_of_it_is_the_same_bytes():
    verifier = Verifier.parse(GO_VKEY)
    assert (verifier.name, verifier.key_id.hex(), verifier.vkey) == ("PeterNeumann", "c74f20a3", GO_VKEY)
    note = parse_note(GO_NOTE)
    assert note.text == GO_TEXT and str(note) == GO_NOTE
    assert [v for v, _ in note.verified([verifier])] == [verifier]
    assert sign_with(go_private_key(), "PeterNeumann", GO_TEXT).line == GO_NOTE.split("\n\n")[1]
    with pytest.raises(NoteError, match="does not verify"):
        parse_note(GO_NOTE.replace("cryptography", "cryptographY")).verified([verifier])


def test_a_vkey_mangled_anywhere_is_refused():
    for mangled in (GO_VKEY[:-1], GO_VKEY.replace("c74f20a3", "c74f20a4"), "PeterNeumann+c74f20a3",
                    GO_VKEY.replace("ARpc", "BRpc"), GO_VKEY.replace("Peter", "Pater"), "+" + GO_VKEY):
        with pytest.raises(NoteError):
            Verifier.parse(mangled)


def test_the_spec_cosignature_example_parses_to_its_key_ids_and_time_and_signs_the_spec_message():
    note = parse_note(SPEC_COSIGNED)
    checkpoint = Checkpoint.parse(note.text)
    assert (checkpoint.origin, checkpoint.size, base64.b64encode(checkpoint.root).decode()) == (
        "example.com/behind-the-sofa", 20852163, "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    log, witness = note.signatures
    assert (log.name, len(log.signature), log.timestamp) == ("example.com/behind-the-sofa", 64, None)
    assert (witness.name, witness.key_id.hex(), witness.timestamp) == ("witness.example.com/w1", "8d66cf3f", 1679315147)
    assert cosigned_message(note.text, witness.timestamp) == SPEC_MESSAGE.encode()
    assert str(note) == SPEC_COSIGNED and checkpoint.text == note.text


def test_a_cosignature_is_type_4_over_the_spec_message_and_verifies_only_there():
    key = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    text = parse_note(SPEC_COSIGNED).text
    line = cosign_with(key, "witness.example.com/w1", text, 1679315147)
    witness = Verifier("witness.example.com/w1", 0x04, key.public_key().public_bytes_raw())
    assert line.key_id == witness.key_id and line.timestamp == 1679315147
    assert line.signature[8:] == key.sign(SPEC_MESSAGE.encode())  # Ed25519 over the spec's message, exactly
    assert witness.verifies(text, line.signature)
    assert not witness.verifies(text.replace("20852163", "20852164"), line.signature)
    # The same key as a log's (type 0x01) has another key id: a cosignature is never taken for a log signature.
    assert Verifier(witness.name, 0x01, witness.public_key).key_id != witness.key_id


def test_signatures_of_unknown_keys_are_ignored_and_a_known_one_that_fails_rejects_the_note():
    note = parse_note(SPEC_COSIGNED)
    stranger = Verifier("witness.example.com/w1", 0x04, bytes(32))  # same name, another key: another id
    assert note.verified([stranger, Verifier.parse(GO_VKEY)]) == []
    impostor = Verifier("witness.example.com/w1", 0x04, bytes(31) + b"\x01")
    forged = note.with_signatures([type(note.signatures[1])("witness.example.com/w1", impostor.key_id, bytes(72))])
    with pytest.raises(NoteError, match="does not verify"):
        forged.verified([impostor])


@pytest.mark.parametrize("text, why", [
    ("no blank line\n\u2014 a b\n", "blank line"),
    ("text\n\n", "at least one signature"),
    ("text\n\n\u2014 name notbase64!\n", "not base64"),
    ("text\n\n\u2014 name AAAA\n", "too short"),
    ("te\x07xt\n\n\u2014 name AAAAAAA=\n", "control characters"),
    ("text\n\n\u2014 na+me AAAAAAA=\n", "contains '[+]'"),
])
def test_malformed_notes_are_refused_naming_what(text, why):
    with pytest.raises(NoteError, match=why):
        parse_note(text)


def test_key_names_follow_the_spec():
    assert name_problem("rollbook/a%2Bb") is None
    assert name_problem("a+b") and name_problem("a b") and name_problem("") and name_problem("a\u3000b")


@pytest.mark.parametrize("text, why", [
    ("origin\n007\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "leading zeroes"),
    ("origin\n7\nAAAA\n", "32 bytes"),
    ("\n7\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n", "origin line is empty"),
    ("origin\n7\n", "at least three lines"),
])
def test_malformed_checkpoints_are_refused(text, why):
    with pytest.raises(NoteError, match=why):
        Checkpoint.parse(text)
