"""«Имплант» (Implant), a solo cyberpunk campaign on a cut-down Savage Worlds."""

from __future__ import annotations

from ...table import Table
from ...timeline import Scope
from .. import Ruleset
from . import bennies, play, rules
from .campaign import ImplantCampaign
from .character import Character


def _on_start(table: Table, scope: Scope) -> None:
    if scope is Scope.SCENE:
        bennies.renew_bennies(table)


def _on_end(table: Table, scope: Scope) -> None:
    if scope is Scope.BATTLE:
        play.end_combat(table)


RULESET = Ruleset(
    name="implant",
    campaign_class=ImplantCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "scene"),
    commands=("rollbook.commands.implant",),
    narration="rollbook.projections.narration.implant",
    odds="rollbook.domain.rulesets.implant.odds",
    options=rules.OPTIONS,
    on_start=_on_start,
    on_end=_on_end,
)

__all__ = ["RULESET", "ImplantCampaign", "Character"]
