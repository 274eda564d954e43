"""The gladiator game: a PDQ-like combat system, 3d6 split between attack and defence each turn."""

from __future__ import annotations

from typing import Any

from ...campaign import Campaign
from ...table import Table
from ...timeline import Scope
from .. import Ruleset
from . import play, rules
from .enemy import Enemy
from .gladiator import Gladiator


class GladiatorsCampaign(Campaign):
    #: One exchange of a fight is a turn (ход, L17); the once-per-turn limits count in it.
    scope_labels = {Scope.MOVE: "turn"}

    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)


def _on_end(table: Table, scope: Scope) -> None:
    if scope is Scope.BATTLE:
        play.end_of_battle(table)


RULESET = Ruleset(
    name="gladiators",
    title="Gladiators (PDQ-like 3d6 split)",
    campaign_class=GladiatorsCampaign,
    member_classes=(Gladiator, Enemy),
    limits=rules.LIMITS,
    default_options=rules.DEFAULT_OPTIONS,
    check_options=rules.check_options,
    on_end=_on_end,
)
