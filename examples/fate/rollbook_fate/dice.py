"""Fate dice (F2), a dice kind Rollbook's core does not have: a roll plan (`rollbook.domain.dice.RollPlan`)
of this game's own, which the rules roll, the odds enumerate and `rollbook verify` recomputes.

A Fate die shows -1, 0 or +1 with even chances: it is drawn from the campaign's face source as a d3,
read as 1 → -1, 2 → 0, 3 → +1. So the roll's draws (`faces`, `sides`) are what replay re-executes and
verify recomputes from the revealed seed, as for any die. Faces typed from a forum's 4dF roller are given
as its symbols, `+`, `0` (or a blank) and `-`, or as they are drawn: 1 for a minus, 2 for a blank, 3 for a plus;
either way the command records the draws.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rollbook.domain.dice import Die, FaceSource, Modifier, Roll

if TYPE_CHECKING:
    import icepool

#: A Fate die is drawn as a die of this many sides; `BLANK` is the drawn face that reads 0.
DRAWN_SIDES, BLANK = 3, 2
#: A Fate die as a forum's roller shows it (a minus sign may be typed as a hyphen or as U+2212), and its draw.
SYMBOLS = {"-": 1, "\u2212": 1, "0": 2, "": 2, "+": 3}


def drawn(face: object) -> object:
    """The draw a typed face stands for: a symbol read, a number left for the field's bounds to check."""
    if not isinstance(face, str):
        return face
    if face.strip() not in SYMBOLS:
        raise ValueError(f"{face!r} is no Fate die's face: type +, 0 or - (or the draw 3, 2 or 1)")
    return SYMBOLS[face.strip()]


@dataclass(frozen=True)
class FateDice:
    """`count`dF plus modifiers: the sum of the dice's -1/0/+1 and the modifiers."""

    count: int
    modifiers: tuple[Modifier, ...] = ()

    @property
    def notation(self) -> str:
        return f"{self.count}dF"

    def roll(self, source: FaceSource) -> Roll:
        dice = tuple(Die(DRAWN_SIDES, (source.face(DRAWN_SIDES) - BLANK,)) for _ in range(self.count))
        return Roll(self.notation, dice, sum(die.total for die in dice), self.modifiers)

    def totals(self) -> icepool.Die:
        import icepool  # only the odds enumerate: an action that rolls does not load it

        fate_die = icepool.Die([face - BLANK for face in range(1, DRAWN_SIDES + 1)])
        return fate_die.pool(self.count).sum() + sum(m.value for m in self.modifiers)
