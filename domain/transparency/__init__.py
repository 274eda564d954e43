"""Rollbook's record as a transparency log, in standard forms: the verifier a player needs, and nothing else.

This package depends on the standard library (hashlib, base64, json) and `cryptography` (Ed25519)
only: it reads no store and asks no server. Another program checks Rollbook's proofs by
reimplementing what its three modules say:

- `merkle`: the RFC 6962 / RFC 9162 Merkle tree — leaf and node hashes, roots, the compact range,
  inclusion and consistency proofs, and their verification (RFC 9162 2.1.3.2 and 2.1.4.2).
- `note`: C2SP signed notes, vkeys (`NAME+KEYID+BASE64(type || key)`), checkpoints
  (c2sp.org/tlog-checkpoint) and Ed25519 cosignatures (c2sp.org/tlog-cosignature, type 0x04).
- `proof`: what Rollbook puts in them — the leaf of a command (its number and chain hash), the
  origin and key name of a campaign's log — and `check(document, vkeys)`, the whole check of a
  proof as `rollbook prove --json` prints it.

    from rollbook.domain.transparency.note import Verifier
    from rollbook.domain.transparency.proof import check

    checked = check(json.load(open("proof.json")), [Verifier.parse(vkey)])
    checked.ok, checked.facts, checked.roll["faces"]
"""
