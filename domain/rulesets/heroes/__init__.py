"""We Can Be Heroes: a superhero game of d6 success pools, pages, issues and Defining Moments.

Modules: `rules` (every number, table and limit), `hero` (the character sheet), `campaign` (the
GM's Adversity and the table's state), `exchange` (the success pool and rolls Resolve may still
change), `page` (time, initiative, actions), `checks`, `combat`, `tactics` (what is rolled) and
`resources` (Resolve, Adversity, the Defining Moment).
"""

from __future__ import annotations

from ...table import Table
from ...timeline import Scope
from .. import Ruleset
from . import checks, combat, page, rules, tactics  # noqa: F401  (they declare the exchange kinds)
from .campaign import HeroesCampaign
from .hero import Hero


def _on_start(table: Table, scope: Scope) -> None:
    # An issue's start renews Resolve for those it names: `start_issue` calls page.start_of_issue itself.
    if scope is Scope.BATTLE:
        page.start_of_battle(table)


def _on_end(table: Table, scope: Scope) -> None:
    if scope is Scope.BATTLE:
        page.end_of_battle(table)
    elif scope is Scope.SCENE:
        page.end_of_scene(table)


RULESET = Ruleset(
    name="heroes",
    campaign_class=HeroesCampaign,
    limits=rules.LIMITS,
    boundaries=("story", "issue", "scene", "battle"),
    commands=("rollbook.commands.heroes", "rollbook.commands.heroes_combat"),
    narration="rollbook.projections.narration.heroes",
    odds="rollbook.domain.rulesets.heroes.odds",
    options=rules.OPTIONS,
    on_start=_on_start,
    on_end=_on_end,
)

__all__ = ["RULESET", "HeroesCampaign", "Hero"]
