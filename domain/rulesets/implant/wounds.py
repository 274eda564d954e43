"""Where new wounds leave a character (§5.2-§5.5): wound count, Dying, out, unconscious.

Pure arithmetic on a wound state (`Character.wound_state()`), shared by damage, soak,
healing and natural healing, so a soak or a damage reroll can restate the victim from the
state the attack found instead of undoing steps.
"""

from __future__ import annotations

from typing import Any

from ...dice import sum_roll
from ...table import Table
from . import rules
from .character import Character


def with_new_wounds(character: Character, before: dict[str, Any], new_wounds: int, nonlethal: bool) -> dict[str, Any]:
    """The state after `new_wounds` on top of `before` (Shaken is the caller's business).

    An Extra is out at his first wound (L112); a wild card whose wounds would pass his
    maximum keeps the maximum and is Dying (L113; I-5) — or, after a nonlethal attack,
    unconscious for d6 hours instead (L93). `knocked_out` says the d6 hours are due.
    """
    state = {**before, "knocked_out": False}
    if new_wounds <= 0:
        return state
    if not character.wild_card:
        state.update(wounds=min(before["wounds"] + new_wounds, 1), out=True, knocked_out=nonlethal)
        return state
    total = before["wounds"] + new_wounds
    if total <= character.max_wounds:
        state["wounds"] = total
        return state
    state["wounds"] = character.max_wounds
    if nonlethal:
        state["knocked_out"] = True
    else:
        state["dying"] = True
    return state


def unconscious_hours(table: Table, character: Character, state: dict[str, Any]) -> int | None:
    """The hours of a nonlethal knock-out: kept if already rolled, else d6 now (L93)."""
    if not state["knocked_out"]:
        return state["unconscious_hours"]
    if state["unconscious_hours"] is not None:
        return int(state["unconscious_hours"])
    draw = table.draw()
    roll = sum_roll(draw, 1, rules.UNCONSCIOUS_HOURS_DIE)
    table.record(
        draw, roll, purpose="unconscious_hours", character=character.name, outcome=f"{roll.total} hours",
        tn=None, success=None, raises=None, critical_failure=False,
    )
    return roll.total


def healed(before: dict[str, Any], raises: int) -> dict[str, Any]:
    """A success removes one wound, each raise one more (L117-L118)."""
    return {**before, "wounds": max(0, before["wounds"] - (1 + raises))}
