"""The odds of a combat turn (§3): for every tactic, the damage dealt and taken against the GM's totals.

The GM declares his attack and defence before the roll (L22; G-7), so the only chance is the
gladiator's 3d6, split by the tactic (L17-L21). Each split is enumerated with the modifiers the
rules would roll (`TurnRoll.dice`), the one-time ones spent after the dice added to both totals,
and read by the rules' own `losses` (the PC's blow first in the first turn, G-9). The tactic with
the best expected net damage (dealt − taken) is named; the command's own tactic gives the outcomes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from ...odds import Odds, chances, expectation, fraction_text
from .play import TurnRoll
from .rules import ATTACK, DEFENCE, TACTICS

HIT, BLOCKED, BREACHED, HELD = "hit", "blocked", "breached", "held"


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, TurnRoll), f"no gladiator odds for {type(plan).__name__}"
    tactics = {tactic: _tactic(plan, tactic) for tactic in TACTICS}
    best = max(TACTICS, key=lambda tactic: tactics[tactic]["net"])  # the first of equals, in the book's order
    chosen = tactics[plan.tactic]
    outcomes = {HIT: chosen["hit"], BLOCKED: 1 - chosen["hit"], BREACHED: chosen["breached"], HELD: 1 - chosen["breached"]}
    notes = {
        "tactic": plan.tactic, "best_tactic": best,
        "gm_attack": plan.gm_attack, "gm_defence": plan.gm_defence,
        "modifiers": {side: [m.as_dict() for m in plan.modifiers[side] + plan.after_roll] for side in (ATTACK, DEFENCE)},
        "tactics": {tactic: _shown(values) for tactic, values in tactics.items()},
    }
    return Odds(outcomes, {"dealt": chosen["dealt"], "taken": chosen["taken"]}, notes=notes)


def _tactic(plan: TurnRoll, tactic: str) -> dict[str, Any]:
    bonus = sum(m.value for m in plan.after_roll)
    attack = plan.dice(ATTACK, tactic).totals() + bonus
    defence = plan.dice(DEFENCE, tactic).totals() + bonus
    losses = chances(icepool.map(plan.losses, attack, defence))
    dealt: dict[int, Fraction] = {}
    taken: dict[int, Fraction] = {}
    for (foe_loss, own_loss), p in losses.items():
        dealt[foe_loss] = dealt.get(foe_loss, Fraction(0)) + p
        taken[own_loss] = taken.get(own_loss, Fraction(0)) + p
    dealt, taken = dict(sorted(dealt.items())), dict(sorted(taken.items()))
    return {
        "dealt": dealt, "taken": taken,
        "hit": 1 - dealt.get(0, Fraction(0)), "breached": 1 - taken.get(0, Fraction(0)),
        "net": expectation(dealt) - expectation(taken),
    }


def _shown(values: dict[str, Any]) -> dict[str, Any]:
    dealt, taken = expectation(values["dealt"]), expectation(values["taken"])
    return {
        HIT: float(values["hit"]), BREACHED: float(values["breached"]),
        "expected_dealt": float(dealt), "expected_taken": float(taken), "expected_net": float(values["net"]),
        "expected_net_fraction": fraction_text(values["net"]),
        "dealt": {str(k): float(p) for k, p in values["dealt"].items()},
        "taken": {str(k): float(p) for k, p in values["taken"].items()},
    }
