"""«Поднять паруса!» (Raise the Sails!), a Powered-by-the-Apocalypse pirate game with ships."""

from __future__ import annotations

from typing import Any

from ...campaign import Campaign
from ...table import Table
from ...timeline import Scope
from .. import Ruleset
from . import play, rules
from .pirate import Pirate
from .ship import Ship


class PiratesCampaign(Campaign):
    scope_labels = {Scope.MOVE: "move", Scope.CHAPTER: "chapter"}

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)


def _on_end(table: Table, scope: Scope) -> None:
    if scope is Scope.CHAPTER:
        play.end_of_chapter(table)


RULESET = Ruleset(
    name="pirates",
    title="Raise the Sails! (PbtA)",
    campaign_class=PiratesCampaign,
    member_classes=(Pirate, Ship),
    limits=rules.LIMITS,
    on_end=_on_end,
)
