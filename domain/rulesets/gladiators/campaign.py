"""The gladiator game's table-wide state: which foes each battle has engaged (L17, L24), and whose fall
in it has earned its role-play award (L26, L30).

Kept apart from the package so that `play.py` can name it; the package re-exports it under
its old name, which older histories' topics resolve to.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...campaign import Campaign
from ...timeline import Scope


class GladiatorsCampaign(Campaign):
    #: One exchange of a fight is a turn (ход, L17); the once-per-turn limits count in it.
    scope_labels = {Scope.MOVE: "turn"}
    #: A battle's end restores the health and motivation of those who lost any since the last (play.end_of_battle).
    roster_visits = ("end:battle",)

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)
        #: The foes fought in battle `engaged_battle`, in the order first engaged: the battle's
        #: first turn is the one before any (L17), and their losses come back when it ends (L24).
        self.engaged_battle = 0
        self.engaged: list[str] = []

    #: Foes whose standing the GM reported in battle `reported_battle` (defaults for older snapshots).
    reported_battle = 0
    reported: tuple[str, ...] = ()

    #: Foes whose fall in battle `awarded_battle` has been awarded (L26 «За каждое такое действие»: once).
    #: Read from the recorded `award_roleplay` commands (`indexed`), so an award is recorded by the same
    #: events as before; class defaults, for a campaign restored from an older snapshot.
    awarded_battle = 0
    awarded: tuple[str, ...] = ()

    def indexed(self, command_id: str, command: dict[str, Any], writes: list[list[Any]]) -> None:
        enemy = command.get("enemy")
        if command.get("type") == "award_roleplay" and enemy is not None:
            battle = self.number(Scope.BATTLE)
            self.awarded = (*self.foes_awarded(battle), enemy)
            self.awarded_battle = battle

    def foes_awarded(self, battle: int) -> tuple[str, ...]:
        return self.awarded if battle == self.awarded_battle else ()

    @staticmethod
    def snapshot_agrees(kept: dict[str, Any], folded: dict[str, Any]) -> bool:
        """As `Campaign.snapshot_agrees`; a snapshot older than the awards' record may lack them (none
        known, it refuses no award the fold would take twice), never tell others."""
        kept, folded = dict(kept), dict(folded)
        if "awarded" not in kept:
            folded.pop("awarded", None)
            folded.pop("awarded_battle", None)
        return Campaign.snapshot_agrees(kept, folded)

    def foes_engaged(self, battle: int) -> list[str]:
        return list(self.engaged) if battle == self.engaged_battle else []

    def foes_reported(self, battle: int) -> list[str]:
        return list(self.reported) if battle == self.reported_battle else []

    def foes_to_restore(self, battle: int) -> list[str]:
        """Every foe that may have lost something in the battle: fought, or its standing reported (L24)."""
        engaged = self.foes_engaged(battle)
        return [*engaged, *(name for name in self.foes_reported(battle) if name not in engaged)]

    @event("StandingNoted")
    def note_standing(self, enemy: str, battle: int) -> None:
        """A squad's standing reported by the GM in a battle: it comes back when the battle ends (L24)."""
        self.reported = (*self.foes_reported(battle), enemy)
        self.reported_battle = battle

    @event("Engaged")
    def engage(self, enemy: str, battle: int) -> None:
        """A foe's first turn in a battle."""
        self.engaged = [*self.foes_engaged(battle), enemy]
        self.engaged_battle = battle
