"""The decisions of Coin, taken at a Table: creating a character and flipping (C1-C4)."""

from __future__ import annotations

from rollbook.domain.table import Table

from . import rules
from .flipper import Flipper


def create_character(table: Table, name: str, player: str | None) -> None:
    """C1: a new character with the starting coins."""
    table.campaign.enrol(name, Flipper.kind, player)
    table.add(Flipper(campaign=table.campaign.campaign, name=name, player=player, coins=rules.STARTING_COINS))


def flip(table: Table, character: str, target: int, stake: bool) -> str:
    """C2-C3: roll 1d6 (+1 for a coin staked, once per scene) against the target; returns the roll's id."""
    flipper = table.get(Flipper, character)
    if stake:
        table.campaign.use_limit(rules.STAKE, holder=flipper.name)
        flipper.stake()
    check = rules.flip(target, stake)
    table.foresee(check)
    draw = table.draw()
    roll = check.dice.roll(draw)
    return table.record(
        draw, roll, purpose="flip", character=flipper.name, outcome=check.judge(roll.total), target=target
    )
