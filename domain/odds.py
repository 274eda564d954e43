"""The odds of a roll before it is made: what the rules would roll, turned into exact chances.

The rules describe the coming roll (`Table.foresee`: dice, modifiers, what judges the result)
and each ruleset's `odds.py` turns that description into an icepool distribution here. Icepool
enumerates exactly with fractions (keep-highest pools, explosions), so nothing here convolves
dice by hand. Exploding dice are enumerated to `EXPLODE_DEPTH` re-rolls per die; the chance of
going deeper is stated with the result (`beyond_depth`). Every roll of the four games enumerates
in milliseconds (icepool convolves a pool's sum die by die), so none is sampled: `exact` (part of
the JSON contract, false for a sampled answer) is true for all of them.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import icepool

from .dice import Judged

#: Re-rolls enumerated per exploding die; a die of 6 sides goes deeper once in 6^9 ≈ 10 million.
EXPLODE_DEPTH = 8


@dataclass(frozen=True)
class Odds:
    """The chance of each named outcome of one command, and the distributions behind them."""

    outcomes: dict[str, Fraction]
    #: name -> value -> chance (the total of a roll, net successes, damage dealt...).
    distribution: dict[str, dict[Any, Fraction]] = field(default_factory=dict)
    exact: bool = True
    #: What else the reader needs: the dice and modifiers, the explosion depth, per-tactic tables.
    notes: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The `--json` shape: floats under the game's outcome names, exact fractions beside them."""
        return {
            "outcomes": {name: float(p) for name, p in self.outcomes.items()},
            "fractions": {name: fraction_text(p) for name, p in self.outcomes.items()},
            "exact": self.exact,
            "distribution": {
                name: {str(value): float(p) for value, p in values.items()}
                for name, values in self.distribution.items()
            },
            **self.notes,
        }


def fraction_text(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def chances(die: icepool.Die) -> dict[Any, Fraction]:
    """A die's outcomes with their exact chances, in the die's order."""
    denominator = die.denominator()
    return {outcome: Fraction(quantity, denominator) for outcome, quantity in die.items()}


def exploding(faces: Iterable[int], sides: int) -> icepool.Die:
    """One die whose top face is rolled again and added, to `EXPLODE_DEPTH` re-rolls."""
    return icepool.Die(list(faces)).explode([sides], depth=EXPLODE_DEPTH)


def beyond_depth(dice: int, sides: int) -> Fraction:
    """A bound on the chance that any of `dice` exploding dice re-rolls more than EXPLODE_DEPTH times."""
    return min(Fraction(1), dice * Fraction(1, sides) ** (EXPLODE_DEPTH + 1))


def banded(values: Mapping[Any, Fraction], judge: Callable[[Any], str], names: Iterable[str]) -> dict[str, Fraction]:
    """The chance of each outcome name, every name listed (an impossible one at 0)."""
    outcomes = {name: Fraction(0) for name in names}
    for value, p in values.items():
        outcomes[judge(value)] += p
    return outcomes


def judged(check: Judged, *, name: str = "total") -> Odds:
    """A roll of any kind (`RollPlan`) read by its outcome bands: the chance of each band and of each total."""
    totals = chances(check.dice.totals())
    notes = {"dice": check.dice.notation, "modifiers": [m.as_dict() for m in check.dice.modifiers]}
    return Odds(banded(totals, check.judge, check.outcomes), {name: totals}, notes=notes)


def expectation(values: Mapping[Any, Fraction]) -> Fraction:
    return sum((Fraction(value) * p for value, p in values.items()), Fraction(0))
