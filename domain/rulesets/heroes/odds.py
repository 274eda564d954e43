"""The odds of a heroes roll (§3, §7.4): success pools against a difficulty or the opposing pool.

Each die counts its successes by L34 (2 and 4 one, 6 two, odd faces none); in a Defining Moment or
an exploding team attack a 6 is rolled again and counted too (L77, L273), enumerated to
`EXPLODE_DEPTH` re-rolls per die. A check's net successes are read by the campaign's outcome table
(L37-L41 or L58-L62); an attack's damage is each attack's net over its defence, never below 0 (L186).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from ...odds import EXPLODE_DEPTH, Odds, banded, beyond_depth, chances
from . import rules
from .exchange import Contest

NO_DAMAGE, DAMAGE = "no_damage", "damage"


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, Contest), f"no heroes odds for {type(plan).__name__}"
    return check_odds(plan) if plan.kind == "check" else attack_odds(plan)


def success_die(explode: bool) -> icepool.Die:
    """One d6 as the successes it shows; a 6 (two successes) explodes when the roll does."""
    die = icepool.Die([rules.SUCCESSES[face] for face in range(1, rules.SIDES + 1)])
    return die.explode([rules.SUCCESSES[rules.SIDES]], depth=EXPLODE_DEPTH) if explode else die


def successes(pool: dict[str, Any] | int) -> icepool.Die:
    """A pool's successes; a difficulty is a fixed number of them (L43-L52)."""
    if isinstance(pool, int):
        return icepool.Die([pool])
    if pool["count"] == 0:
        return icepool.Die([0])  # a pool of 0 or fewer dice rolls none (Note)
    return pool["count"] @ success_die(pool["explode"])


def check_odds(contest: Contest) -> Odds:
    """Net successes against the difficulty or the opponent's roll, by the outcome table's bands."""
    ((mine, against),) = contest.pairs
    net = chances(successes(mine) - successes(against))
    outcomes = banded(net, lambda n: rules.outcome(n, contest.outcome_table), rules.OUTCOME_TABLES[contest.outcome_table])
    shown = {"net": net, "successes": chances(successes(mine))}
    return Odds(outcomes, shown, notes=_notes(contest))


def attack_odds(contest: Contest) -> Odds:
    """The damage the attack (or a team's attacks) deals: each attack's net over its defence, at least 0."""
    total = icepool.Die([0])
    for attack, defence in contest.pairs:
        total = total + (successes(attack) - successes(defence)).map(lambda net: max(0, net))
    damage = chances(total)
    outcomes = {NO_DAMAGE: damage.get(0, Fraction(0)), DAMAGE: 1 - damage.get(0, Fraction(0))}
    shown = {"damage": damage}
    if len(contest.pairs) == 1:
        ((attack, defence),) = contest.pairs
        shown["net"] = chances(successes(attack) - successes(defence))
    return Odds(outcomes, shown, notes=_notes(contest))


def _notes(contest: Contest) -> dict[str, Any]:
    pools = [pool for pair in contest.pairs for pool in pair if isinstance(pool, dict)]
    notes: dict[str, Any] = {
        "pools": [{k: pool[k] for k in ("character", "role", "pool", "count", "explode")} for pool in pools],
        "outcome_table": contest.outcome_table,
    }
    difficulty = contest.pairs[0][1]
    if isinstance(difficulty, int):
        notes["difficulty"] = difficulty
    exploding = sum(pool["count"] for pool in pools if pool["explode"])
    if exploding:
        notes |= {"explode_depth": EXPLODE_DEPTH, "beyond_depth": float(beyond_depth(exploding, rules.SIDES))}
    return notes
