"""The gladiator game: a PDQ-like combat system, 3d6 split between attack and defence each turn."""

from __future__ import annotations

from ...timeline import Scope
from .. import Ruleset
from . import play, rules
from .campaign import GladiatorsCampaign
from .enemy import Enemy
from .gladiator import Gladiator


RULESET = Ruleset(
    name="gladiators",
    campaign_class=GladiatorsCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "scene", "battle"),
    commands=("rollbook.domain.rulesets.gladiators.commands",),
    narration="rollbook.domain.rulesets.gladiators.narration",
    odds="rollbook.domain.rulesets.gladiators.odds",
    sheets="rollbook.domain.rulesets.gladiators.sheet",
    options=rules.OPTIONS,
    on_end={Scope.BATTLE: play.end_of_battle},
    listed=4,
    generator="rollbook.domain.rulesets.gladiators.generator",
    common_moves=(("turn", "combat_turn"), ("award", "award_roleplay")),
)

__all__ = ["RULESET", "GladiatorsCampaign", "Gladiator", "Enemy"]
