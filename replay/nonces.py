"""`verify`'s nonce check: a nonce is rolled at once per seed, across every revision of a campaign.

The faces of a seeded roll are HMAC(seed, campaign:nonce:cursor): a nonce rolled at twice
shows the same faces twice, so whoever knows one roll knows the other. In the first revision
the seeded rolls take strictly consecutive nonces from 0 (none made and left out). A revision
made by a ruling re-executes the rolls it keeps at their own nonces and leaves out the ones it
strikes or rolls again: a nonce it skips must be one an earlier revision rolled at, and a nonce
it rolls at must be new or the very roll an earlier revision made there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..domain.revisions import REVISION_MARK, revision_key, revision_of
from ..store import EventStore
from .history import campaign_events

#: (the roll, its position, the command that made it), as verify gathers them.
Seeded = tuple[dict[str, Any], int | None, str]


def nonce_problems(store: EventStore, key: str, seeded: Iterable[Seeded]) -> list[tuple[int | None, str, str]]:
    """Each nonce out of its place in revision `key`: (position, command, problem)."""
    earlier = _rolled_before(store, key)
    problems = []
    expected = 0
    for roll, here, command in seeded:
        nonce = roll.get("nonce")
        if not isinstance(nonce, int):
            problems.append((here, command, f"roll {roll.get('id')} of the campaign's seed records no nonce"))
            continue
        before = earlier.get(nonce)
        if before is not None and before[0] != roll.get("id"):
            problems.append((here, command, f"roll {roll.get('id')} has nonce {nonce}, which roll {before[0]} rolled "
                                            f"at in revision {before[1]}: a nonce is rolled at once, in every revision"))
        elif nonce < expected or any(skipped not in earlier for skipped in range(expected, nonce)):
            problems.append((here, command, f"roll {roll.get('id')} has nonce {nonce}, expected {expected}"))
        expected = max(expected, nonce + 1)
    return problems


def _rolled_before(store: EventStore, key: str) -> dict[int, tuple[str, int]]:
    """Every nonce the revisions before `key` rolled at: the roll's id and the first revision it is in."""
    root = key.split(REVISION_MARK, 1)[0]
    rolled: dict[int, tuple[str, int]] = {}
    for revision in range(1, revision_of(key)):
        # An event of an earlier revision that does not decode is that revision's own finding.
        for _, event in campaign_events(store, revision_key(root, revision), names=("DiceRolled",),
                                        unreadable=lambda stored, error: None):
            roll = event.get("roll") or {}
            if roll.get("source") == "hmac" and isinstance(roll.get("nonce"), int):
                rolled.setdefault(roll["nonce"], (str(roll.get("id")), revision))
    return rolled
