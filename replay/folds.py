"""`verify`'s fold check: every aggregate of the campaign folds from its events, snapshot or not.

The chain holds each event's bytes to the command that wrote it, but a store can hold bytes no
one can read (not JSON), a gap, or a command's events copied again under a new id with a valid
claim and chain: events that each check out and yet do not follow from the ones before them
(a move modified that is not open any more). Every read of such an aggregate fails; `verify`
folds each one from its first event, as nothing else does, and says where it cannot.
"""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

from ..store import FOLD_FAILURES, EventStore, why_unfolded
from ..store.port import position_of
from ..store.reads import decoded, stored_pages

PAGE = 2000


def fold_problems(store: EventStore, originators: Iterable[UUID]) -> list[tuple[int | None, str, UUID]]:
    """Each aggregate that does not fold: (the position of the event it stops at, why, the aggregate)."""
    problems = []
    for originator in sorted(originators):
        stuck = _stuck_at(store, originator)
        if stuck is not None:
            version, name, why = stuck
            problems.append((position_of(store, originator, version), f"its events cannot be folded at v{version} "
                                                                   f"({name}): {why}", originator))
    return problems


def _stuck_at(store: EventStore, originator: UUID) -> tuple[int, str, str] | None:
    """Fold one aggregate from its events alone, a page at a time: where it stops (its version and
    event), and why; None if it folds."""
    aggregate = None
    for page in stored_pages(store, originator, PAGE):
        for stored in page:
            try:
                aggregate = decoded(store, stored).mutate(aggregate)
            except FOLD_FAILURES as error:
                return stored.originator_version, stored.topic.rsplit(":", 1)[-1], why_unfolded(error)
    return None
