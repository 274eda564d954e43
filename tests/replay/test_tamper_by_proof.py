"""`testing/transparency.py`: whether a proof from a kept checkpoint, or a witness, catches a tamper (issue 34's
column "caught by a witness / a proof" of the tamper table)."""

import json

from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.testing.transparency import caught_by_proof_or_witness



def rollbook(*args):
    return CliRunner().invoke(app, ["-q", *args])


def cut_to_15(url, tamper):
    """The last two commands (of 17) cut, and the projections rebuilt: the store consistent in itself."""
    position = tamper.position()
    cut = tamper.sql(f"SELECT {position} FROM {{events}} WHERE topic LIKE '%CommandApplied' "
                     f"ORDER BY {position} LIMIT 1 OFFSET 14")[0][0]
    tamper.sql(f"DELETE FROM {{events}} WHERE {position} > ?", cut)
    assert rollbook("rebuild", "--store", url).exit_code == 0


def kept(url, tmp_path):
    """What a player keeps (the checkpoint, the vkey) and a witness that co-signed it."""
    checkpoint = rollbook("checkpoint", "-c", "audit", "--store", url).stdout
    vkey = rollbook("checkpoint", "-c", "audit", "--vkey", "--store", url).stdout.strip()
    state = tmp_path / "witness.db"
    assert rollbook("witness", "add", url, "-c", "audit", "--name", "anna.example/w", "--state", str(state)).exit_code == 0
    assert rollbook("witness", "check", "--state", str(state)).exit_code == 0
    return checkpoint, vkey, state


def test_an_untouched_store_is_caught_by_neither(tampered, tmp_path):
    url, _ = tampered
    checkpoint, vkey, state = kept(url, tmp_path)
    caught = caught_by_proof_or_witness(url, "audit", checkpoint, vkey, state)
    assert (caught.proof, caught.witness) == (False, False), caught


def kept_then_cut(tampered, tmp_path):
    """What an auditor kept of the store, then the store cut back to its 15th command: (url, what was kept)."""
    url, tamper = tampered
    checkpoint, vkey, state = kept(url, tmp_path)
    cut_to_15(url, tamper)
    return url, (checkpoint, vkey, state)


def test_a_cut_and_rebuild_is_caught_by_both(tampered, tmp_path):
    url, kept_before = kept_then_cut(tampered, tmp_path)
    caught = caught_by_proof_or_witness(url, "audit", *kept_before)
    assert caught.proof and caught.witness, caught
    assert "15" in caught.proof_reason and "cut" in caught.witness_reason


def test_a_history_cut_and_played_on_differently_is_caught_by_both(tampered, tmp_path):
    url, kept_before = kept_then_cut(tampered, tmp_path)
    # The GM plays on from there, to more commands than the checkpoint had: longer, but another history.
    lines = [{"campaign": "audit", "id": f"other-{n}", "type": "take_damage", "character": "Bo", "harm": 1,
              "at": f"2026-03-05T19:{n:02d}:00Z"} for n in range(4)]
    path = tmp_path / "more.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert rollbook("run", str(path), "--store", url).exit_code == 0
    caught = caught_by_proof_or_witness(url, "audit", *kept_before)
    assert caught.proof and caught.witness, caught
    assert "fork" in caught.witness_reason or "rewritten" in caught.witness_reason


def test_a_store_that_signs_with_another_key_than_the_one_kept_is_caught_by_the_proof(tampered, tmp_path):
    """A key swapped in the store and everything re-signed: the proof's checkpoints are not the kept key's."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rollbook.domain.transparency.note import Verifier

    url, _ = tampered
    checkpoint, vkey, _ = kept(url, tmp_path)
    kept_key = Verifier(Verifier.parse(vkey).name, 0x01, Ed25519PrivateKey.generate().public_key().public_bytes_raw())
    caught = caught_by_proof_or_witness(url, "audit", checkpoint, kept_key.vkey)
    assert caught.proof and "not signed by the key" in caught.proof_reason, caught
