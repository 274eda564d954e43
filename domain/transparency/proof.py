"""Rollbook's log in the standard forms, and the check of its proofs with nothing but vkeys.

The log of a campaign revision is an RFC 9162 tree whose leaf N-1 is its N-th recorded
command:

    leaf data = seq as 8 bytes big-endian || the command's chain hash (32 bytes)

The chain hash is SHA-256(previous chain hash, in hex ASCII || the command as recorded,
canonical JSON || what it wrote, canonical JSON), so the leaf pins the command, every event
it stored and, through the previous hash, everything before it. The first command of revision N >= 2 chains
to the hash of the ruling that made it (`chain.revision_start`: who ruled, why, what was decided, and the
replaced revision's final size and head) in place of zeros; a revision made before rulings named what they
replace chains from zeros.

Its checkpoints are C2SP checkpoints signed by the campaign's Ed25519 key:

    origin      [HOST/]rollbook/CAMPAIGN           revision 1
                [HOST/]rollbook/CAMPAIGN/rN        revision N >= 2 (a ruling's corrected history: a log of its own)
    key name    the origin (tlog-checkpoint: it SHOULD be); one key per campaign, so the vkey of revision 1's
                name vouches for every revision's (`verifiers_for`); revision N's own vkey is the same key
                under its origin (`rollbook checkpoint --vkey --revision N`), for verifiers that know no more.
                Checkpoints of revision N signed before, under revision 1's name, still verify.
    extension   revision N (kept: the cosignatures witnesses made are over the text with it)

where CAMPAIGN is the campaign's id percent-encoded as a URL path segment (RFC 3986: every byte
of its UTF-8 but letters, digits and `-._~` as %XX), so an id such as `a+b` or `my game` gives a
valid key name (`rollbook/a%2Bb`, `rollbook/my%20game`).

A proof is a JSON object (`check` below verifies one):

    inclusion:   type, campaign, revision, roll, leaf_index, tree_size, leaf_hash, path, root,
                 record {seq, chain, previous_chain, command, writes}, roll_event {topic, state},
                 checkpoint (the signed note)
    consistency: type, campaign, revision, old_size, new_size, old_root, new_root, path,
                 old_checkpoint, new_checkpoint

Hashes are hex, `path` in RFC 9162 order (from the leaf up); `record.command` and
`record.writes` are the canonical JSON texts the chain hash was computed over;
`roll_event.state` is the stored bytes (base64) of the event that recorded the roll, whose
fingerprint (SHA-256(topic || 0x00 || state), first 32 hex digits) is among `writes`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from .merkle import leaf_hash, verify_consistency, verify_inclusion
from .note import Checkpoint, Note, NoteError, Verifier, parse_note

LOG = "rollbook"


def key_name(campaign: str, host: str | None = None) -> str:
    """The campaign's key name: `[HOST/]rollbook/CAMPAIGN`, the id percent-encoded."""
    name = f"{LOG}/{quote(campaign, safe='')}"
    return f"{host.strip('/')}/{name}" if host else name


def origin(campaign: str, revision: int, host: str | None = None) -> str:
    """The origin of a revision's log: the key name, and `/rN` for a corrected revision."""
    name = key_name(campaign, host)
    return name if revision == 1 else f"{name}/r{revision}"


def parse_origin(text: str) -> tuple[str | None, str, int] | None:
    """(host, campaign, revision) of a Rollbook origin, or None if it is not one."""
    parts = text.split("/")
    revision = 1
    if len(parts) >= 3 and parts[-1][:1] == "r" and parts[-1][1:].isdigit() and parts[-1][1:2] != "0":
        revision = int(parts[-1][1:])
        if revision < 2:
            return None
        parts = parts[:-1]
    if len(parts) < 2 or parts[-2] != LOG or not parts[-1]:
        return None
    campaign = unquote(parts[-1])
    if quote(campaign, safe="") != parts[-1]:
        return None  # not as Rollbook writes it: one campaign, one spelling
    return ("/".join(parts[:-2]) or None), campaign, revision


def name_of_origin(text: str) -> str | None:
    """The key name that signs a Rollbook origin (the origin less its revision)."""
    parsed = parse_origin(text)
    return None if parsed is None else key_name(parsed[1], parsed[0])


def command_leaf(seq: int, chain: str) -> bytes:
    """The leaf hash of the `seq`-th recorded command, whose chain hash (hex) is `chain`."""
    return leaf_hash(seq.to_bytes(8, "big") + bytes.fromhex(chain))


def chain_of(previous: str, command: str, writes: str) -> str:
    """The chain hash over the previous one and the canonical JSON texts of a command and its writes."""
    return hashlib.sha256(previous.encode() + command.encode() + writes.encode()).hexdigest()


def event_fingerprint(topic: str, state: bytes) -> str:
    return hashlib.sha256(topic.encode() + b"\0" + state).hexdigest()[:32]


@dataclass
class Checked:
    """What a proof shows (`facts`), or why it does not (`problems`)."""

    kind: str
    facts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    command: dict[str, Any] | None = None
    roll: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "ok": self.ok, "facts": self.facts, "problems": self.problems,
                "command": self.command, "roll": self.roll}


def verifiers_for(origin: str, logs: Sequence[Verifier]) -> list[Verifier]:
    """The keys among `logs` that may sign a checkpoint of `origin`: one named as the origin and, for a Rollbook
    revision N >= 2, the campaign's key (named as revision 1's origin) under the revision's origin, and under
    its own name, as checkpoints signed before revision N's key name was its origin."""
    found = [v for v in logs if v.name == origin]
    campaign = name_of_origin(origin)
    if campaign is not None and campaign != origin:
        for log in (v for v in logs if v.name == campaign):
            found += [Verifier(origin, log.kind, log.public_key), log]
    return found


def open_checkpoint(text: str, logs: Sequence[Verifier], witnesses: Sequence[Verifier] = ()) -> tuple[Checkpoint, Note]:
    """A checkpoint note signed by one of `logs` under its origin's key name, and co-signed by every
    one of `witnesses`; NoteError says what is missing."""
    note = parse_note(text)
    checkpoint = Checkpoint.parse(note.text)
    known = verifiers_for(checkpoint.origin, logs)
    if not known:
        raise NoteError(f"checkpoint of {checkpoint.origin}: no vkey given for its key name "
                        f"{name_of_origin(checkpoint.origin) or checkpoint.origin!r}")
    if not any(v.kind == 0x01 for v, _ in note.verified(known)):
        raise NoteError(f"checkpoint of {checkpoint.origin}: not signed by the key {known[0].vkey}")
    cosigned = {v.vkey for v, _ in note.verified(list(witnesses))}
    missing = [w.name for w in witnesses if w.vkey not in cosigned]
    if missing:
        raise NoteError(f"checkpoint of {checkpoint.origin} at {checkpoint.size}: not co-signed by "
                        f"{', '.join(missing)}")
    return checkpoint, note


def _hex(value: Any, what: str) -> bytes:
    try:
        raw = bytes.fromhex(str(value))
    except ValueError:
        raise NoteError(f"{what} is not hex") from None
    if len(raw) != 32:
        raise NoteError(f"{what} is not a 32-byte hash")
    return raw


def check(document: dict[str, Any], logs: Sequence[Verifier], witnesses: Sequence[Verifier] = ()) -> Checked:
    """Check a proof (an inclusion or a consistency proof, as `rollbook prove` prints it)."""
    kind = str(document.get("type"))
    checked = Checked(kind)
    try:
        if kind == "inclusion":
            _check_inclusion(document, logs, witnesses, checked)
        elif kind == "consistency":
            _check_consistency(document, logs, witnesses, checked)
        else:
            checked.problems.append(f"not a proof: its type is {kind!r}, not inclusion or consistency")
    except (NoteError, KeyError, TypeError, ValueError) as error:
        what = f"the proof lacks {error}" if isinstance(error, KeyError) else str(error)
        checked.problems.append(what)
    return checked


def _check_inclusion(doc: dict[str, Any], logs: Sequence[Verifier], witnesses: Sequence[Verifier], checked: Checked) -> None:
    checkpoint, _ = open_checkpoint(doc["checkpoint"], logs, witnesses)
    checked.facts.append(f"the checkpoint of {checkpoint.origin} at {checkpoint.size} commands is signed by the log's key"
                         + (f" and co-signed by {', '.join(w.name for w in witnesses)}" if witnesses else ""))
    index, size = int(doc["leaf_index"]), int(doc["tree_size"])
    root, leaf = _hex(doc["root"], "root"), _hex(doc["leaf_hash"], "leaf_hash")
    path = [_hex(p, "a path hash") for p in doc["path"]]
    if (size, root) != (checkpoint.size, checkpoint.root):
        checked.problems.append(f"the proof is for a tree of {size} with root {root.hex()[:16]}…, the checkpoint's is "
                                f"{checkpoint.size} with root {checkpoint.root.hex()[:16]}…")
        return
    if not verify_inclusion(index, size, leaf, path, root):
        checked.problems.append(f"the path does not lead from leaf {index} to the checkpoint's root: not in the log")
        return
    checked.facts.append(f"leaf {index} is in the tree of {size} (RFC 9162 inclusion proof, {len(path)} hashes)")
    record = doc["record"]
    seq, chain = int(record["seq"]), str(record["chain"])
    if seq != index + 1 or command_leaf(seq, chain) != leaf:
        checked.problems.append("the leaf is not the hash of the command record given")
        return
    if chain_of(str(record["previous_chain"]), str(record["command"]), str(record["writes"])) != chain:
        checked.problems.append("the command record given is not the one its chain hash was made of")
        return
    checked.command = json.loads(record["command"])
    checked.facts.append(f"it is command {seq}, {checked.command.get('id')!r} ({checked.command.get('type')}) "
                         f"by {checked.command.get('actor')} at {checked.command.get('at')}, as recorded")
    event = doc.get("roll_event")
    if event is None:
        return
    state = base64.b64decode(event["state"], validate=True)
    fingerprints = {w[2] for w in json.loads(record["writes"])}
    if event_fingerprint(str(event["topic"]), state) not in fingerprints:
        checked.problems.append("the roll's event given is not one the command wrote")
        return
    checked.roll = json.loads(state)["roll"]
    if doc.get("roll") is not None and checked.roll.get("id") != doc["roll"]:
        checked.problems.append(f"the event given records roll {checked.roll.get('id')!r}, not {doc['roll']!r}")
        return
    checked.facts.append(f"roll {checked.roll.get('id')!r} ({checked.roll.get('notation')}) came out "
                         f"{checked.roll.get('faces')}, as the command recorded it")


def _check_consistency(doc: dict[str, Any], logs: Sequence[Verifier], witnesses: Sequence[Verifier], checked: Checked) -> None:
    old, _ = open_checkpoint(doc["old_checkpoint"], logs)
    new, _ = open_checkpoint(doc["new_checkpoint"], logs, witnesses)
    if old.origin != new.origin:
        checked.problems.append(f"the checkpoints are of two logs: {old.origin} and {new.origin}")
        return
    checked.facts.append(f"both checkpoints of {old.origin} (at {old.size} and {new.size} commands) are signed by "
                         "the log's key" + (f", the later co-signed by {', '.join(w.name for w in witnesses)}"
                                            if witnesses else ""))
    path = [_hex(p, "a path hash") for p in doc["path"]]
    if (int(doc["old_size"]), int(doc["new_size"])) != (old.size, new.size):
        checked.problems.append("the proof's sizes are not the checkpoints'")
        return
    if not verify_consistency(old.size, new.size, old.root, new.root, path):
        checked.problems.append(f"the log at {new.size} commands does not extend the one at {old.size}: the history "
                                "was rewritten between them (or they are two different histories)")
        return
    checked.facts.append(f"the log at {new.size} commands extends the one at {old.size} (RFC 9162 consistency proof, "
                         f"{len(path)} hashes): nothing before {old.size} was changed")
