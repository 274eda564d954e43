"""The campaign's revisions as the aggregate reads them: which campaign a revision belongs to, where
the seeded rolls of a revision may start so that no nonce struck by a ruling rolls again, and which
command of any revision used a salt under the current seed.

Plain functions over the Campaign aggregate's values (its stored key, `nonce`, `nonces_spent`, `salts`); the
stored keys' names themselves are `revisions.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .revisions import REVISION_MARK, revision_key, revision_of


class Revision(Protocol):
    """What these read of a revision of a campaign (the Campaign aggregate)."""

    campaign: str
    nonce: int
    nonces_spent: int | None
    commitment: str | None
    salts: dict[str, str] | None


def root_of(key: str) -> str:
    """The campaign's name as players know it, of any of its revisions' keys (`NAME@rN`)."""
    return key.split(REVISION_MARK, 1)[0]


def first_unrolled_nonce(revision: Revision, named: Callable[[str], Revision | None]) -> int:
    """The first nonce no revision of the campaign before `revision` has rolled at (kept by its first
    revision, which records the rulings; `named` finds a revision by its key); the first revision itself
    goes on from its own last roll."""
    root = root_of(revision.campaign)
    if revision.campaign == root:
        return 0
    first = named(root)
    if first is None:
        return 0
    if first.nonces_spent is not None:
        return first.nonces_spent
    # Rulings made before it was kept: the revisions before this one say how far each rolled.
    earlier = (named(revision_key(root, n)) for n in range(1, revision_of(revision.campaign)))
    return max((r.nonce for r in earlier if r is not None), default=0)


def salt_used(revision: Revision, named: Callable[[str], Revision | None], salt: str) -> str | None:
    """The command that rolled with `salt` under the revision's current seed, in it or in a revision before it
    (a struck roll's salt stays used: rolled again, it would show the struck faces); None if none did."""
    root = root_of(revision.campaign)
    earlier = (named(revision_key(root, n)) for n in range(1, revision_of(revision.campaign)))
    for holder in (revision, *earlier):
        if holder is not None and holder.commitment == revision.commitment and salt in (holder.salts or {}):
            return (holder.salts or {})[salt]
    return None
