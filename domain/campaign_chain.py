"""The campaign's command log as the aggregate keeps it: the order of its commands in time, and the
Merkle tree (RFC 9162) over them as its compact range (the roots of its complete subtrees, largest first,
in hex), enough to append a command and to give the root a checkpoint signs.

Plain functions over the Campaign aggregate's `last_at` and `tree`, which it keeps as plain values so
its snapshots read the same; the hash chain itself is `chain.py`'s.
"""

from __future__ import annotations

from datetime import datetime

from .errors import RuleViolation
from .transparency.merkle import append_hex, peaks_root
from .transparency.proof import command_leaf


def check_in_order(last_at: str | None, at: datetime) -> None:
    """Refuse a command dated before the campaign's last one (`last_at`): time travel (`--at TIME`)
    reads the record in order, so a backdated command would show the wrong state."""
    if last_at is not None and at < datetime.fromisoformat(last_at):
        raise RuleViolation(
            "{at} is earlier than the campaign's last command ({last_at}); commands are recorded in the order "
            "they happened", field="at", at=at.isoformat(), last_at=last_at,
        )


def extend_tree(tree: list[str] | None, last_seq: int, seq: int, chain: str) -> None:
    """Append command `seq` (chained as `chain`) to the tree after command `last_seq`; an unknown tree (None)
    stays unknown. A `seq` that does not follow (an edited record) cannot extend it: refused, in one line."""
    if seq != last_seq + 1:
        raise ValueError(f"command {seq} is recorded after command {last_seq}: its seq was edited")
    if tree is not None:
        append_hex(tree, seq - 1, command_leaf(seq, chain))


def tree_root(tree: list[str] | None) -> str | None:
    """The root (hex) of the tree over the commands appended so far; None while it is unknown."""
    return None if tree is None else peaks_root([bytes.fromhex(p) for p in tree]).hex()
