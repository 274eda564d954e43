"""The rules of Fate (a small Fate-like game), every number in one place, each citing its line below.

    F1. A character has skills rated on the ladder, from Mediocre (+0) to Great (+4) when he is made;
        a skill he lacks is Mediocre. He starts with 3 fate points.
    F2. To act, roll four Fate dice (4dF: each shows -1, 0 or +1) and add the skill: the result, read
        on the ladder, from Terrible (-2) to Legendary (+8).
    F3. The GM sets the difficulty on the ladder, Fair (+2) unless he says otherwise. A result below it
        fails, equal to it ties, above it succeeds; three shifts or more above it (result minus
        difficulty) succeeds with style.
    F4. Once per conflict a character may invoke an aspect before he rolls: he spends a fate point for
        +2. With no fate point left there is nothing to spend.
    F5. Play is cut into scenes; a conflict is fought inside a scene, and ending the scene ends it.
    F6. A character has a stress track of three boxes, worth 1, 2 and 3. A hit of N shifts checks the
        smallest empty box worth N or more.
    F7. Instead, he may take a consequence, each held once: mild absorbs 2 shifts, moderate 4, severe
        6. A hit that neither an empty box nor the consequence he names can absorb takes him out of
        the conflict: he acts no more in it.
    F8. When a conflict ends, every stress box empties and no one is taken out any longer; a mild
        consequence clears when its scene ends; moderate and severe ones stay.
"""

from __future__ import annotations

from rollbook.domain.dice import Judged, Modifier
from rollbook.domain.timeline import Limit, Scope

from .dice import FateDice

SKILL_LOWEST, SKILL_HIGHEST_AT_CREATION = 0, 4  # F1: Mediocre to Great
STARTING_FATE_POINTS = 3  # F1
FATE_DICE = 4  # F2
#: F2: the ladder, from its lowest rung up (the names of -2 .. +8).
LADDER = {-2: "Terrible", -1: "Poor", 0: "Mediocre", 1: "Average", 2: "Fair", 3: "Good", 4: "Great",
          5: "Superb", 6: "Fantastic", 7: "Epic", 8: "Legendary"}
DIFFICULTY_LOWEST, DIFFICULTY_DEFAULT, DIFFICULTY_HIGHEST = min(LADDER), 2, max(LADDER)  # F3
STYLE_SHIFTS = 3  # F3
FAILURE, TIE, SUCCESS, SUCCESS_WITH_STYLE = "failure", "tie", "success", "success_with_style"  # F3
INVOKE_BONUS = 2  # F4
STRESS_BOXES = (1, 2, 3)  # F6
CONSEQUENCES = {"mild": 2, "moderate": 4, "severe": 6}  # F7
HIT_LARGEST = 20  # no hit in this game comes near it: a typo's bound, not a rule

#: F5: the game's own scope, fought inside a scene (ending the scene ends it).
CONFLICT = Scope.inside(Scope.SCENE, "conflict")
#: F4: one invocation per character per conflict.
INVOKE = Limit(name="invoke", scope=CONFLICT, count=1, rule="F4", description="invoking an aspect")
LIMITS = (INVOKE,)
#: F5: the boundaries of the timeline, the conflict among them.
BOUNDARIES = ("scene", CONFLICT.value)


def ladder(value: int) -> str:
    """A number in the ladder's words: `Good (+3)`; past either end, the number alone (F2)."""
    name = LADDER.get(value)
    return f"{name} ({value:+d})" if name else f"{value:+d}"


def outcome(shifts: int) -> str:
    """F3: a roll read by its shifts over the difficulty."""
    if shifts >= STYLE_SHIFTS:
        return SUCCESS_WITH_STYLE
    if shifts > 0:
        return SUCCESS
    return TIE if shifts == 0 else FAILURE


def action(skill: str, rating: int, difficulty: int, invoked: bool) -> Judged:
    """F2-F4: what an action rolls and how its result is read, decided before a die is cast."""
    modifiers = (Modifier(skill, rating), *((Modifier("invoked aspect", INVOKE_BONUS),) if invoked else ()))
    return Judged(
        FateDice(FATE_DICE, modifiers),
        lambda result: outcome(result - difficulty),
        (FAILURE, TIE, SUCCESS, SUCCESS_WITH_STYLE),
    )


def box_for(shifts: int, checked: list[bool]) -> int | None:
    """F6: the index of the smallest empty box that absorbs a hit of `shifts`; None if none does."""
    return next((i for i, worth in enumerate(STRESS_BOXES) if worth >= shifts and not checked[i]), None)
