"""«Имплант» (Implant), a solo cyberpunk campaign on a cut-down Savage Worlds."""

from __future__ import annotations

from ...timeline import Scope
from .. import Ruleset
from . import bennies, play, rules
from .campaign import ImplantCampaign
from .character import Character


RULESET = Ruleset(
    name="implant",
    campaign_class=ImplantCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "scene"),
    commands=("rollbook.domain.rulesets.implant.commands",),
    narration="rollbook.domain.rulesets.implant.narration",
    odds="rollbook.domain.rulesets.implant.odds",
    sheets="rollbook.domain.rulesets.implant.sheet",
    options=rules.OPTIONS,
    on_start={Scope.SCENE: bennies.renew_bennies},
    on_end={Scope.BATTLE: play.end_combat},
    listed=3,
    generator="rollbook.domain.rulesets.implant.generator",
    common_moves=(("check", "trait_check"), ("attack", "attack"), ("benny", "spend_benny")),
)

__all__ = ["RULESET", "ImplantCampaign", "Character"]
