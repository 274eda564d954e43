"""Checkpoints in the C2SP form (issue 34): origins and key names, the vkey, the checks of key name and
key id, old checkpoints still held, and a revision's log of its own."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.checkpoint import Checkpoint, TreeHead, key_id, log_verifier, parse_all, root_at, sign_tree_head
from rollbook.domain.errors import CommandRejected
from rollbook.domain.ids import id_problem
from rollbook.domain.transparency.note import Signature, Verifier, name_problem, parse_note
from rollbook.domain.transparency.proof import key_name, origin, parse_origin
from rollbook.store.keys import MemorySigningKeys

CHAIN = [f"{n:064x}" for n in range(1, 31)]


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


def signed(campaign="a+b", revision=1, size=30, host=None):
    keys = MemorySigningKeys("deterministic")
    public = keys.public_key(campaign)
    return sign_tree_head(keys, public, campaign, revision, size, root_at(CHAIN, size), host), public


@pytest.mark.parametrize("campaign, name", [
    ("tortuga", "rollbook/tortuga"), ("a+b", "rollbook/a%2Bb"), ("my game", "rollbook/my%20game"),
    ("Тортуга", "rollbook/%D0%A2%D0%BE%D1%80%D1%82%D1%83%D0%B3%D0%B0"), ("x@r2", "rollbook/x%40r2"),
])
def test_a_campaign_id_that_is_no_key_name_is_mapped_to_one(campaign, name):
    assert key_name(campaign) == name and name_problem(name) is None
    assert key_name(campaign, "dice.example.org") == f"dice.example.org/{name}"
    assert parse_origin(origin(campaign, 1)) == (None, campaign, 1)
    assert parse_origin(origin(campaign, 3, "dice.example.org")) == ("dice.example.org", campaign, 3)


@given(st.text(min_size=1, max_size=30).filter(lambda c: id_problem(c) is None), st.integers(1, 50))
def test_every_campaign_id_gives_a_valid_origin_that_reads_back(campaign, revision):
    assert name_problem(origin(campaign, revision, "h.example")) is None
    assert parse_origin(origin(campaign, revision, "h.example")) == ("h.example", campaign, revision)


def test_the_checkpoint_is_a_c2sp_note_with_the_revision_on_its_extension_line():
    head, public = signed()
    assert head.body() == f"rollbook/a%2Bb\n30\n{__import__('base64').b64encode(bytes.fromhex(head.root)).decode()}\nrevision 1\n"
    (line,) = head.signatures
    assert line.name == "rollbook/a%2Bb" and line.key_id == key_id("rollbook/a%2Bb", public)
    assert parse_note(str(head.note)).verified([log_verifier("a+b", public)])
    assert head.signed_by(public)
    again, _ = signed()
    assert str(again.note) == str(head.note)  # one body, one signature: the same checkpoint, byte for byte
    corrected, _ = signed(revision=2)
    assert corrected.origin == "rollbook/a%2Bb/r2" and corrected.key_name == head.key_name
    assert corrected.body().endswith("revision 2\n")


def test_a_revisions_checkpoint_is_signed_under_its_origin_and_one_signed_before_still_holds():
    """Issue 51: tlog-checkpoint's key name SHOULD be the origin. Revision 2's checkpoint is signed by the campaign's
    key named `…/r2`: its own vkey (the standard alone) and the campaign's (Rollbook's rule) both verify it; a
    checkpoint of revision 2 signed before, under the campaign's name, still holds."""
    corrected, public = signed(revision=2)
    (line,) = corrected.signatures
    assert line.name == corrected.origin == "rollbook/a%2Bb/r2" and corrected.as_dict()["key_name"] == line.name
    own = log_verifier("a+b", public, revision=2)
    assert own.name == "rollbook/a%2Bb/r2" and parse_note(str(corrected.note)).verified([own])
    assert not parse_note(str(corrected.note)).verified([log_verifier("a+b", public)])  # the standard: names differ
    assert check_open(str(corrected.note), [log_verifier("a+b", public)]) and corrected.signed_by(public)
    keys = MemorySigningKeys("deterministic")
    assert keys.public_key("a+b") == public
    before = Signature("rollbook/a%2Bb", key_id("rollbook/a%2Bb", public),
                       bytes.fromhex(keys.sign("a+b", corrected.body().encode(), public)))
    legacy = TreeHead.from_note(parse_note(corrected.body() + "\n" + before.line))
    assert legacy.signed_by(public) and check_open(str(legacy.note), [log_verifier("a+b", public)])
    forged = before.line.replace("A", "B", 1)
    assert not TreeHead.from_note(parse_note(corrected.body() + "\n" + forged)).signed_by(public)


def check_open(text, logs):
    from rollbook.domain.transparency.proof import open_checkpoint

    return open_checkpoint(text, logs)[0]


def test_the_parser_checks_the_key_name_and_key_id_and_ignores_unknown_keys():
    head, public = signed()
    other = MemorySigningKeys()
    # A line by another key under the campaign's name: its key id is not the campaign's: ignored, and with
    # no line of the campaign's key left the checkpoint is not signed.
    impostor = sign_tree_head(other, other.public_key("a+b"), "a+b", 1, 30, head.root)
    assert impostor is not None and not impostor.signed_by(public)
    # Unknown keys' lines beside the campaign's are ignored.
    stranger = Signature("witness.example/w", b"\x01\x02\x03\x04", bytes(72))
    assert head.with_signatures([stranger]).signed_by(public)
    # The campaign's key id under another name is not the campaign's signature.
    renamed = TreeHead("a+b", 1, 30, head.root, "rollbook/a%2Bc", head.signatures)
    assert not renamed.signed_by(public)
    # A known key's signature over another body fails: the checkpoint is refused.
    assert not TreeHead("a+b", 1, 29, head.root, head.key_name, head.signatures).signed_by(public)


def test_a_text_holds_every_checkpoint_of_either_form_and_json():
    head, public = signed()
    keys = MemorySigningKeys("deterministic")
    assert keys.public_key("a+b") == public
    old = Checkpoint("a+b", 1, 30, CHAIN[-1], "2026-03-01T20:00:00+00:00",
                     keys.sign("a+b", Checkpoint("a+b", 1, 30, CHAIN[-1], "2026-03-01T20:00:00+00:00", "").body().encode(),
                               public))
    text = f"Chapter 1:\n{old.text(public)}\nchat\n\r\n{head.text()}   \n-- the GM\n"
    found = parse_all(text, where="thread")
    assert [type(c) for c in found] == [Checkpoint, TreeHead]
    assert found[0].signed_by(public) and found[1].signed_by(public)
    assert found[0].key_name == "rollbook:a+b"  # the old form's name, as it was signed: still held
    both = parse_all(json.dumps({**old.as_dict(), **head.as_dict()}), where="json")
    assert [type(c) for c in both] == [Checkpoint, TreeHead]
    with pytest.raises(CommandRejected, match="no checkpoint in it"):
        parse_all("nothing here\n", where="thread")
    with pytest.raises(CommandRejected, match="its extension line"):
        parse_all(head.text().replace("revision 1", "revision 2"), where="thread")


def test_an_old_checkpoint_under_another_name_or_key_id_is_not_the_campaigns():
    keys = MemorySigningKeys("deterministic")
    public = keys.public_key("a+b")
    unsigned = Checkpoint("a+b", 1, 30, CHAIN[-1], "t", "")
    good = Checkpoint("a+b", 1, 30, CHAIN[-1], "t", keys.sign("a+b", unsigned.body().encode(), public))
    (pasted,) = parse_all(good.text(public), where="thread")
    assert pasted.signed_by(public)
    (renamed,) = parse_all(good.text(public).replace("\u2014 rollbook:a+b", "\u2014 rollbook:a-b"), where="thread")
    assert not renamed.signed_by(public)


def test_checkpoint_vkey_prints_the_key_that_verifies_its_checkpoints(tmp_path):
    url = f"sqlite:///{tmp_path / 'v.db'}"
    lines = [{"type": "create_campaign", "campaign": "a+b", "ruleset": "pirates", "id": "c0"},
             {"type": "create_ship", "campaign": "a+b", "name": "Chaika", "navigation": 2, "firepower": 1,
              "displacement": 1, "hull": 4, "id": "c1"}]
    assert rollbook("run", "-", "--store", url, input="".join(json.dumps(c) + "\n" for c in lines)).exit_code == 0
    vkey = rollbook("checkpoint", "-c", "a+b", "--vkey", "--store", url).stdout.strip()
    verifier = Verifier.parse(vkey)
    assert verifier.name == "rollbook/a%2Bb" and verifier.kind == 0x01
    note = parse_note(rollbook("checkpoint", "-c", "a+b", "--store", url).stdout)
    assert note.verified([verifier]) and note.text.startswith("rollbook/a%2Bb\n2\n")
    as_json = json.loads(rollbook("checkpoint", "-c", "a+b", "--json", "--store", url).stdout)
    assert as_json["vkey"] == vkey and as_json["size"] == as_json["commands"] == 2
    assert {"campaign", "revision", "commands", "head", "time", "signature", "origin", "root", "note"} <= set(as_json)


def test_a_host_names_the_log_under_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ROLLBOOK_PUBLIC_HOST", "dice.example.org")
    url = f"sqlite:///{tmp_path / 'h.db'}"
    lines = [{"type": "create_campaign", "campaign": "tortuga", "ruleset": "pirates", "id": "c0"},
             {"type": "start_chapter", "campaign": "tortuga", "id": "c1"},
             {"type": "end_chapter", "campaign": "tortuga", "id": "c2"}]
    ran = rollbook("run", "-", "--store", url, input="".join(json.dumps(line) + "\n" for line in lines))
    assert ran.exit_code == 0 and "dice.example.org/rollbook/tortuga\n2\n" in ran.stdout  # the chapter's end too
    shown = rollbook("checkpoint", "-c", "tortuga", "--store", url).stdout
    assert shown.startswith("dice.example.org/rollbook/tortuga\n3\n")
    pasted = tmp_path / "cp.txt"
    pasted.write_text(shown)
    assert rollbook("verify", "-c", "tortuga", "--store", url, "--checkpoint", str(pasted)).exit_code == 0
    monkeypatch.setenv("ROLLBOOK_PUBLIC_HOST", "bad host")
    assert "cannot begin a key name" in rollbook("checkpoint", "-c", "tortuga", "--store", url).output
