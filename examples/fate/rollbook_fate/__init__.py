"""Fate, a small Fate-like rule system that declares all of itself in this package: 4dF + skill against
a difficulty on the ladder (its own dice kind, `dice.py`), a conflict (its own timeline scope, inside a
scene), stress and consequences, its sheet layout and its odds (the rules are in `rules.py`).

This object is the whole registration: the entry point `fate = "rollbook_fate:RULESET"` in this
package's pyproject.toml is how Rollbook finds it.
"""

from __future__ import annotations

from rollbook.domain.rulesets import Ruleset
from rollbook.domain.timeline import Scope

from . import play, rules
from .campaign import FateCampaign

RULESET = Ruleset(
    name="fate",
    campaign_class=FateCampaign,
    limits=rules.LIMITS,
    boundaries=rules.BOUNDARIES,
    scopes=(rules.CONFLICT,),
    commands=("rollbook_fate.commands",),
    odds="rollbook_fate.odds",
    narration="rollbook_fate.narration",  # its events told plainly, but for what a roll was for and a severity
    sheets="rollbook_fate.sheet",
    catalog="rollbook_fate",  # its words in Russian: locale/ru/LC_MESSAGES/rollbook_fate.po in this package
    on_end={rules.CONFLICT: play.end_of_conflict, Scope.SCENE: play.end_of_scene},
)
