"""The Implant campaign: the GM's bennies, the game day and the combat in progress."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...campaign import Campaign
from ...timeline import Scope

#: The members written since the last game day ended (`stirred`): whoever the hours still keep unconscious
#: (L93) is among them, for the last day's end woke everyone (healing.pass_time).
DAY = "end:day"
#: The members written since the day before the last ended: among them is everyone a day's end has to
#: check (L118; healing.end_day). Each of those is written every day: by his last Vigor check, or by the
#: treatment that spared him it (I-27), which leaves him unwritten by that day's end and owing his check
#: the next; so "written since the last day" would miss him, the day before covers him.
TWO_DAYS = "end:day:two"


class ImplantCampaign(Campaign):
    """The table-wide state: the GM's bennies, the game day, and the combat in progress.

    `attack` is the latest attack roll (a hit waits here for its damage roll), `damage` the
    latest damage applied (open to the victim's soak and the attacker's damage reroll, until
    the next attack roll: a soak answers the attack just taken, L114),
    `withdrawal` the character now leaving melee and who may take a free attack at him.
    """

    scope_labels = {Scope.MOVE: "round"}
    #: A battle's end ends the combat statuses of those who took any since the last (play.end_combat).
    roster_visits = ("end:battle", DAY, TWO_DAYS)

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)
        self.gm_bennies = 0
        self.game_day = 1
        self.enemies: list[str] = []
        self.attack: dict[str, Any] | None = None
        self.damage: dict[str, Any] | None = None
        self.withdrawal: dict[str, Any] | None = None

    @event("GmBenniesGained")
    def gm_bennies_gained(self, count: int, enemies: list[str]) -> None:
        """One benny per enemy when combat starts or an enemy joins it (L63)."""
        self.gm_bennies += count
        self.enemies.extend(enemies)

    @event("GmBennySpent")
    def gm_benny_spent(self, character: str, purpose: str) -> None:
        self.gm_bennies -= 1

    @event("AttackRolled")
    def attack_rolled(self, attack: dict[str, Any]) -> None:
        self.attack = dict(attack)
        self.damage = None

    @event("DamageDealt")
    def damage_dealt(self, damage: dict[str, Any]) -> None:
        self.damage = dict(damage)
        if self.attack is not None and self.attack["check"] == damage.get("attack"):
            self.attack["damage_rolled"] = True

    @event("DamageSoaked")
    def damage_soaked(self, roll: str) -> None:
        assert self.damage is not None
        self.damage["soaked"] = roll

    @event("WithdrawalDeclared")
    def withdrawal_declared(self, character: str, round: int, opponents: list[str]) -> None:
        self.withdrawal = {"character": character, "round": round, "opponents": list(opponents)}

    @event("CombatCleared")
    def combat_cleared(self) -> None:
        self.enemies, self.attack, self.damage, self.withdrawal = [], None, None, None

    @event("DayEnded")
    def day_ended(self, day: int) -> None:
        self.game_day = day + 1
        self.stirred[TWO_DAYS] = dict(self.stirred[DAY])
        self.visited(DAY)

    def sheet(self) -> dict[str, Any]:
        return {
            **super().sheet(),
            "gm_bennies": self.gm_bennies,
            "game_day": self.game_day,
            "combat": {
                "enemies": list(self.enemies),
                "attack": self.attack,
                "damage": self.damage,
                "withdrawal": self.withdrawal,
            },
        }
