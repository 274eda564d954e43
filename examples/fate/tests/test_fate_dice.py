"""4dF, the game's own dice kind: a roll plan Rollbook's core has never heard of, rolled from drawn d3
faces and enumerated exactly for the odds."""

from __future__ import annotations

from fractions import Fraction

from rollbook.domain.dice import Modifier, RollPlan, TypedFaces
from rollbook.domain.odds import chances
from rollbook_fate.dice import FateDice


def test_a_fate_die_reads_its_drawn_d3_as_minus_blank_plus():
    roll = FateDice(4, (Modifier("fight", 3),)).roll(TypedFaces([1, 2, 3, 3]))
    assert [die.faces for die in roll.dice] == [(-1,), (0,), (1,), (1,)]
    assert (roll.total, str(roll)) == (4, "4dF = [-1, 0, 1, 1] + 3 = 4")


def test_4df_totals_are_the_known_bell_from_minus_four_to_four():
    totals = chances(FateDice(4).totals())
    assert {value: p * 81 for value, p in totals.items()} == {
        -4: 1, -3: 4, -2: 10, -1: 16, 0: 19, 1: 16, 2: 10, 3: 4, 4: 1}
    assert sum(totals.values()) == Fraction(1)


def test_fate_dice_are_a_roll_plan():
    plan: RollPlan = FateDice(4)
    assert plan.notation == "4dF" and plan.modifiers == ()
