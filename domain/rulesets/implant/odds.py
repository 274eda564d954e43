"""The odds of a Savage Worlds check and of a damage roll (L9-L19, L99-L107), from the rules' own description.

A check (`TraitRoll`): the trait die and the wild d6 ace (an exploded die is enumerated to
`EXPLODE_DEPTH` re-rolls); the better plus the modifiers meets the TN or not; a natural 1 on
both is a critical failure (a 1 never aces, so "natural 1" is "a total of 1"). Raises follow the
campaign's reading (I-2). A damage roll (`DamageRoll`): every die aces, no wild die; the total
against Toughness gives nothing, Shaken, or wounds, counted by the rules' `new_wounds`.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

import icepool

from ...odds import EXPLODE_DEPTH, Odds, beyond_depth, chances, exploding
from . import rules
from .checks import TraitRoll, outcome_of
from .damage import DamageRoll

SUCCESS, FAILURE, CRITICAL_FAILURE = "success", "failure", "critical_failure"
NO_EFFECT, SHAKEN, WOUNDED = "no_effect", "shaken", "wounded"


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    if isinstance(plan, TraitRoll):
        return check_odds(plan)
    assert isinstance(plan, DamageRoll), f"no implant odds for {type(plan).__name__}"
    return damage_odds(plan)


def acing(sides: int) -> icepool.Die:
    return exploding(range(1, sides + 1), sides)


def check_odds(check: TraitRoll) -> Odds:
    """Success, failure and critical failure, the result and the raises of one check."""
    bonus = sum(m.value for m in check.modifiers)
    if check.wild_card:
        rolled = icepool.map(lambda trait, wild: (max(trait, wild), trait == 1 and wild == 1),
                             acing(check.sides), acing(rules.WILD_DIE))
    else:
        rolled = acing(check.sides).map(lambda trait: (trait, False))  # an extra rolls no wild die (I-9)
    outcomes = {SUCCESS: Fraction(0), FAILURE: Fraction(0), CRITICAL_FAILURE: Fraction(0)}
    results: dict[int, Fraction] = defaultdict(Fraction)
    raises: dict[int, Fraction] = defaultdict(Fraction)
    for (best, critical), p in chances(rolled).items():
        outcome = outcome_of(best + bonus, critical, check.tn, check.reading)
        outcomes[CRITICAL_FAILURE if critical else SUCCESS if outcome.success else FAILURE] += p
        results[outcome.result] += p
        if outcome.success:
            raises[outcome.raises] += p
    dice = 2 if check.wild_card else 1
    return Odds(outcomes, {"result": dict(sorted(results.items())), "raises": dict(sorted(raises.items()))},
                notes=_notes(check.modifiers, dice, min(check.sides, rules.WILD_DIE), tn=check.tn,
                             reading=check.reading))


def damage_odds(roll: DamageRoll) -> Odds:
    """No effect, Shaken or wounded against Toughness; the damage total and the new wounds."""
    dice = [acing(sides) for count, sides in roll.dice for _ in range(count)]
    total = icepool.Die([0]) if not dice else sum(dice[1:], dice[0])
    bonus = sum(m.value for m in roll.modifiers)
    outcomes = {NO_EFFECT: Fraction(0), SHAKEN: Fraction(0), WOUNDED: Fraction(0)}
    damage: dict[int, Fraction] = {}
    wounds: dict[int, Fraction] = defaultdict(Fraction)
    for rolled, p in chances(total).items():
        value = rolled + bonus
        damage[value] = p
        if value < roll.toughness:
            outcomes[NO_EFFECT] += p
            continue
        new = rules.new_wounds(value, roll.toughness, roll.reading, roll.shaken_hit, roll.shaken)
        outcomes[WOUNDED if new else SHAKEN] += p
        wounds[new] += p
    smallest = min((sides for _, sides in roll.dice), default=rules.WILD_DIE)
    return Odds(outcomes, {"damage": damage, "wounds": dict(sorted(wounds.items()))},
                notes=_notes(roll.modifiers, len(dice), smallest, toughness=roll.toughness, reading=roll.reading))


def _notes(modifiers: tuple[Any, ...], dice: int, sides: int, **judged: Any) -> dict[str, Any]:
    return {
        "modifiers": [m.as_dict() for m in modifiers], **judged,
        "explode_depth": EXPLODE_DEPTH, "beyond_depth": float(beyond_depth(dice, sides)),
    }
