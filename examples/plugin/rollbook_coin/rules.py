"""The rules of Coin, every number in one place, each citing its line of the rules text below.

    C1. Each character starts with 3 coins.
    C2. To do something risky, flip: roll 1d6; meet or beat the target number (2 to 6, 4 unless
        the GM says otherwise) and you succeed, else you fail.
    C3. Before you flip you may stake one of your coins for +1 to the roll, once per scene.
    C4. A staked coin is spent. With no coin left there is nothing to stake.
    C5. Play is cut into scenes; the GM starts and ends them.
"""

from __future__ import annotations

from rollbook.domain.dice import Judged, Modifier, SumDice
from rollbook.domain.timeline import Limit, Scope

STARTING_COINS = 3  # C1
DIE = 6  # C2
TARGET_LOWEST, TARGET_DEFAULT, TARGET_HIGHEST = 2, 4, 6  # C2
STAKE_BONUS = 1  # C3
SUCCESS, FAILURE = "success", "failure"  # C2

#: C3: one staked coin per character per scene.
STAKE = Limit(name="stake", scope=Scope.SCENE, count=1, rule="C3", description="staking a coin")
LIMITS = (STAKE,)
#: C5: the only boundary of the timeline.
BOUNDARIES = ("scene",)


def flip(target: int, staked: bool) -> Judged:
    """C2-C3: what a flip rolls and how its total is read, decided before the die is cast."""
    modifiers = (Modifier("staked coin", STAKE_BONUS),) if staked else ()
    return Judged(
        SumDice(1, DIE, modifiers),
        lambda total: SUCCESS if total >= target else FAILURE,
        (SUCCESS, FAILURE),
    )
