"""A new pirate (§14): his sheet, and the fates already struck for his player (L87)."""

from __future__ import annotations

from ...table import Table
from . import rules
from .pirate import Pirate


def create_pirate(
    table: Table, name: str, *, player: str | None, stats: dict[str, int], luck: int,
    background: str | None, position: str | None, purse_piastres: int,
) -> None:
    """Enrol the pirate; a player's new pirate starts with every fate struck for that player (L87)."""
    table.campaign.enrol(name, Pirate.kind, player)
    holder = f"player:{player}" if player else f"pirate:{name}"
    table.add(
        Pirate(
            campaign=table.campaign.campaign, name=name, player=player, stats=stats, luck=luck,
            background=background, position=position, purse_piastres=purse_piastres,
            fate_struck=fate_struck_for(table, holder),
        )
    )


def fate_struck_for(table: Table, holder: str) -> list[str]:
    """The fates already struck for a player (L87): what a new pirate of his starts with."""
    return [o for o in rules.FATE_OPTIONS if table.campaign.uses(rules.FATE_OPTION, holder, instance=o)]
