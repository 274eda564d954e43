"""We Can Be Heroes: a superhero game of d6 success pools, pages, issues and Defining Moments.

Modules: `rules` (every number, table and limit), `hero` (the character sheet), `campaign` (the
GM's Adversity and the table's state), `exchange` (the success pool and rolls Resolve may still
change), `page` (time, initiative, actions), `checks`, `combat`, `tactics` (what is rolled) and
`resources` (Resolve, Adversity, the Defining Moment).
"""

from __future__ import annotations

from ...timeline import Scope
from .. import Ruleset
from . import checks, combat, page, rules, tactics  # noqa: F401  (they declare the exchange kinds)
from .campaign import HeroesCampaign
from .hero import Hero


RULESET = Ruleset(
    name="heroes",
    campaign_class=HeroesCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "issue", "scene", "battle"),
    commands=("rollbook.domain.rulesets.heroes.commands", "rollbook.domain.rulesets.heroes.combat_commands"),
    narration="rollbook.domain.rulesets.heroes.narration",
    odds="rollbook.domain.rulesets.heroes.odds",
    sheets="rollbook.domain.rulesets.heroes.sheet",
    options=rules.OPTIONS,
    # An issue's start renews Resolve for those it names: page.start_issue calls start_of_issue itself.
    on_start={Scope.BATTLE: page.start_of_battle},
    on_end={Scope.BATTLE: page.end_of_battle, Scope.SCENE: page.end_of_scene},
    listed=2,
    generator="rollbook.domain.rulesets.heroes.generator",
    common_moves=(("check", "roll_check"), ("attack", "attack"), ("resolve", "spend_resolve")),
)

__all__ = ["RULESET", "HeroesCampaign", "Hero"]
