"""The rolls a ruling struck, shown beside a revision's own rolls with who struck them and why (issue 44).

A ruling (an undo, a dispute) makes the campaign's next revision without the command it drops, or with the
roll's faces ruled or rolled again; the revision it replaces keeps the roll as it was. So a roll of revision
N-1 that revision N lacks, or shows with other faces, is one the ruling that made revision N struck: the roll
log, `rollbook rolls` and a struck command's forum lines show it, marked, never as if it had not been.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..domain.revisions import revision_key, revision_of
from ..projections.queries import Reader


def struck_rolls(rulings: Iterable[dict[str, Any]], rolls_of: Callable[[int], list[dict[str, Any]]],
                 revision: int) -> list[dict[str, Any]]:
    """Every roll struck by the rulings that made revisions 2..`revision`, each with `struck` (who, why, which
    ruling, the revision it made). `rulings` as `rollbook revisions` lists them; `rolls_of(N)`: revision N's."""
    made = {ruling["revision"]: ruling for ruling in rulings if ruling.get("dispute")}
    if not any(2 <= number <= revision for number in made):
        return []
    struck: list[dict[str, Any]] = []
    before = {roll["id"]: roll for roll in rolls_of(1)}
    for number in range(2, revision + 1):
        after = {roll["id"]: roll for roll in rolls_of(number)}
        ruling = made.get(number)
        if ruling is not None:
            struck += [{**roll, "struck": struck_by(ruling)} for roll_id, roll in before.items()
                       if roll_id not in after or after[roll_id].get("faces") != roll.get("faces")]
        before = after
    return struck


def struck_by(ruling: dict[str, Any]) -> dict[str, Any]:
    """What a struck roll says of the ruling that struck it."""
    return {"by": ruling["actor"], "reason": ruling["reason"], "dispute": ruling["dispute"],
            "revision": ruling["revision"]}


def with_struck(rolls: list[dict[str, Any]], struck: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A revision's rolls and the rolls struck before it, in the order they were made."""
    return sorted([*rolls, *struck], key=lambda roll: str(roll.get("at") or ""))


def struck_since(reader: Reader, campaign: str, key: str, command_id: str) -> dict[str, Any] | None:
    """The ruling that struck command `command_id` of revision `key` since (it made the first revision without
    it), as `rollbook revisions` lists it; None if the current revision still has it."""
    from .revisions import revisions

    current = int(reader.campaign(campaign)["revision"])
    for number in range(revision_of(key) + 1, current + 1):
        if reader.views.get(revision_key(campaign, number), "command", command_id) is None:
            return revisions(reader.store, campaign)[number - 1]
    return None
