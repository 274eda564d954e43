"""The gladiator game: a PDQ-like combat system, 3d6 split between attack and defence each turn."""

from __future__ import annotations

from ...table import Table
from ...timeline import Scope
from .. import Ruleset
from . import play, rules
from .campaign import GladiatorsCampaign
from .enemy import Enemy
from .gladiator import Gladiator


def _on_end(table: Table, scope: Scope) -> None:
    if scope is Scope.BATTLE:
        play.end_of_battle(table)


RULESET = Ruleset(
    name="gladiators",
    campaign_class=GladiatorsCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "scene", "battle"),
    commands=("rollbook.commands.gladiators",),
    narration="rollbook.projections.narration.gladiators",
    odds="rollbook.domain.rulesets.gladiators.odds",
    options=rules.OPTIONS,
    on_end=_on_end,
)

__all__ = ["RULESET", "GladiatorsCampaign", "Gladiator", "Enemy"]
