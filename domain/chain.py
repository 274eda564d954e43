"""The hash chain of a campaign's commands: the audit core, pure and free of I/O.

Every recorded command carries a hash over the previous command's hash, the command as
recorded and the fingerprint of every event it stored. The service computes it when it
records a command; `verify`, `import` and checkpoints recompute it from what is stored.
They all import it from here, so neither layer needs the other for it.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Protocol

#: The hash the first command chains to.
GENESIS_CHAIN = "0" * 64


class StoredBytes(Protocol):
    """What a fingerprint reads of a stored event: its topic and its bytes."""

    topic: str
    state: bytes


#: Made once (`json.dumps` with options builds an encoder per call); it keeps no state between calls.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical(data: Any) -> bytes:
    """JSON with sorted keys and no spaces: the same data always gives the same bytes."""
    return _CANONICAL.encode(data).encode()


def event_digest(stored: StoredBytes) -> str:
    """The fingerprint of one stored event: its topic and its bytes (payload and time)."""
    return hashlib.sha256(stored.topic.encode() + b"\0" + stored.state).hexdigest()[:32]


def chain_hash(previous: str, command: dict[str, Any], writes: list[list[Any]]) -> str:
    """The hash of a command chained to the previous one: over the command and what it wrote.

    `writes` names every event the command stored (aggregate, version, fingerprint), so
    an edited event, a removed one, or an edited command record breaks the chain here.
    """
    return hashlib.sha256(previous.encode() + canonical(command) + canonical(writes)).hexdigest()


#: What a ruling's hash covers: who ruled, why, on what, what was decided, which revision it made, and the
#: revision it replaced (`replaces`: its number, final size and head).
RULING_FIELDS = ("dispute", "roll", "actor", "reason", "decision", "revision", "replaces")


def revision_start(ruling: dict[str, Any]) -> str:
    """The hash a corrected revision's first command chains to, in place of `GENESIS_CHAIN`: the ruling that
    made it and the head of the revision it replaced. A checkpoint of the new revision (or a witness of it)
    then covers the ruling and the old revision's history; rewriting either breaks the new revision's chain."""
    return hashlib.sha256(b"rollbook ruling\0" + canonical({k: ruling[k] for k in RULING_FIELDS})).hexdigest()
