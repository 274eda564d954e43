"""Coin, the smallest rule system Rollbook can have: a d6 check against a target, a coin staked
once per scene for +1, and scenes (the rules are in `rules.py`).

This object is the whole registration: the entry point `coin = "rollbook_coin:RULESET"` in this
package's pyproject.toml is how Rollbook finds it.
"""

from __future__ import annotations

from rollbook.domain.campaign import Campaign
from rollbook.domain.rulesets import Ruleset

from . import rules

RULESET = Ruleset(
    name="coin",
    campaign_class=Campaign,  # no table-wide state of its own
    limits=rules.LIMITS,
    boundaries=rules.BOUNDARIES,
    commands=("rollbook_coin.commands",),
    odds="rollbook_coin.odds",  # narration: none, so its lines are told plainly
    sheets="rollbook_coin.sheet",
)
