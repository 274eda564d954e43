"""«Поднять паруса!» in numbers: every constant and limit of the pirate game, in one place.

Line references (`L45`) are to shared/seeds/pirates-pbta.ru.txt; section references (§5)
to the English digest shared/rules/pirates-pbta.md; P-n are its ambiguity rulings.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

from ...timeline import Limit, Scope

STATS = ("audacity", "guile", "foresight", "reputation")
STAT_MIN, STAT_MAX, STAT_MAX_AT_CREATION = -2, 3, 2  # L10

FULL_SUCCESS, PARTIAL_SUCCESS, MISS = "full_success", "partial_success", "miss"


def band(total: int) -> str:
    """The outcome of a check (L12-L17; P-1 reads "10 –" as 10+)."""
    if total >= 10:
        return FULL_SUCCESS
    if total >= 7:
        return PARTIAL_SUCCESS
    return MISS


WOUND_SLOTS = 3  # L60
LIGHT, SERIOUS, TERRIBLE = "light", "serious", "terrible"
WOUND_LEVELS = (LIGHT, SERIOUS, TERRIBLE)
SERIOUS_PENALTY = -1  # L66, regardless of their number
TERRIBLE_PENALTY = -2  # L68; P-4: once for any number, adding to the serious -1

#: The Cartographer's swap of a success for a miss (L50-L51).
SWAP_LUCK = {PARTIAL_SUCCESS: 1, FULL_SUCCESS: 2}

PIASTRES_PER_DOUBLOON = 5  # L95
DOUBLOONS_PER_CHEST = 10  # L95
PIASTRES_PER_CHEST = PIASTRES_PER_DOUBLOON * DOUBLOONS_PER_CHEST

SHIP_STATS = ("navigation", "firepower", "displacement")
SHIP_STAT_MAX = 3  # L105-L107
HULL_MAX = 6  # L109

OWN_BONUS = Limit(
    "luck_roll_bonus", Scope.MOVE, 1, "L45",
    "a pirate may spend luck for +1 to his own roll",
)
HELP_OR_HINDER = Limit(
    "luck_help_or_hinder", Scope.MOVE, 1, "L46; P-7",
    "a pirate may spend luck to help or hinder a crewmate's roll",
)
BREAKDOWN_PER_BATTLE = Limit(
    "breakdown_instead_of_hole", Scope.BATTLE, 1, "L140",
    "a ship may take a breakdown instead of a hole",
)

LIMITS = (OWN_BONUS, HELP_OR_HINDER, BREAKDOWN_PER_BATTLE)


@cache
def move_book() -> dict[str, dict[str, dict[str, str]]]:
    """The moves the source names (without their text), by kind: data, not code."""
    text = resources.files(__package__).joinpath("data/moves.json").read_text(encoding="utf-8")
    return {kind: moves for kind, moves in json.loads(text).items() if not kind.startswith("_")}


def find_move(name: str) -> str | None:
    """A move's key from its key, English or Russian name; None if the book lacks it."""
    wanted = name.strip().casefold()
    for moves in move_book().values():
        for key, move in moves.items():
            if wanted in (key, move["en"].casefold(), move["ru"].casefold()):
                return key
    return None
