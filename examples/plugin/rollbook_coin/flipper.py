"""A Coin character's sheet: whose it is and the coins left (C1, C4)."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from rollbook.domain.errors import RuleViolation
from rollbook.domain.members import Character


class Flipper(Character):
    @event("Created")
    def __init__(self, campaign: str, name: str, player: str | None, coins: int) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.coins = coins

    def stake(self) -> None:
        """C4: a staked coin is spent; with none left there is nothing to stake."""
        if self.coins < 1:
            raise RuleViolation(f"{self.name} has no coin left to stake (C4)", field="stake")
        self._coin_staked()

    @event("CoinStaked")
    def _coin_staked(self) -> None:
        self.coins -= 1

    def sheet(self) -> dict[str, Any]:
        return {"name": self.name, "player": self.player, "coins": self.coins}
