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
from .combat import hit_damage
from .exchange import Throws

NO_DAMAGE, DAMAGE = "no_damage", "damage"


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, Throws), f"no heroes odds for {type(plan).__name__}"
    return check_odds(plan) if plan.kind == "check" else attack_odds(plan)


def success_die(explode: bool) -> icepool.Die:
    """One d6 as the successes it shows; a 6 (two successes) explodes when the roll does."""
    die = icepool.Die([rules.SUCCESSES[face] for face in range(1, rules.SIDES + 1)])
    return die.explode([rules.SUCCESSES[rules.SIDES]], depth=EXPLODE_DEPTH) if explode else die


def successes(pool: dict[str, Any]) -> icepool.Die:
    if pool["count"] == 0:
        return icepool.Die([0])  # a pool of 0 or fewer dice rolls none (Note)
    return pool["count"] @ success_die(pool["explode"])


def check_odds(throws: Throws) -> Odds:
    """Net successes against the difficulty (L43-L52) or the opponent's roll, by the outcome table's bands."""
    mine = successes(throws.pools[0])
    against = successes(throws.pools[1]) if throws.difficulty is None else icepool.Die([throws.difficulty])
    net = chances(mine - against)
    table = throws.outcome_table
    outcomes = banded(net, lambda n: rules.outcome(n, table), rules.OUTCOME_TABLES[table])
    return Odds(outcomes, {"net": net, "successes": chances(mine)}, notes=_notes(throws))


def attack_odds(throws: Throws) -> Odds:
    """The damage of the attack's hits (each attack's net over its defence, never below 0, L186), as the
    rules' `hit_damage` reads the rolls; a charger's backlash (L252) is shown apart."""
    names = sorted({name for hit in throws.hits for name in _hurt(hit)})

    def damage(*rolled: int) -> tuple[int, ...]:
        rolls = {place: {"successes": count} for place, count in enumerate(rolled)}
        dealt: dict[str, int] = {}
        backlash = 0
        for hit in throws.hits:
            for name, amount in hit_damage(hit, rolls, dealt).items():
                if hit["type"] == "backlash":
                    backlash += amount
                else:
                    dealt[name] = dealt.get(name, 0) + amount
        return (sum(dealt.values()), backlash, *(dealt.get(name, 0) for name in names))

    if _independent_pairs(throws):  # one attack, or a team's: each pair apart, then added (no joint table)
        total = icepool.Die([0])
        for hit in throws.hits:
            net = successes(throws.pools[hit["attack"]]) - successes(throws.pools[hit["defence"]])
            total = total + net.map(lambda n: max(0, n))
        shown: dict[str, dict[Any, Fraction]] = {"damage": chances(total)}
    else:  # a protector, a charger's backlash: the rolls read together, as the rules read them
        joint = icepool.map(damage, *(successes(pool) for pool in throws.pools))
        shown = {"damage": _marginal(joint, 0)}
        if any(hit["type"] == "backlash" for hit in throws.hits):
            shown["backlash"] = _marginal(joint, 1)
        if len(names) > 1:
            shown |= {f"damage to {name}": _marginal(joint, 2 + place) for place, name in enumerate(names)}
    if len(throws.pools) == 2:
        shown["net"] = chances(successes(throws.pools[0]) - successes(throws.pools[1]))
    none = shown["damage"].get(0, Fraction(0))
    return Odds({NO_DAMAGE: none, DAMAGE: 1 - none}, shown, notes=_notes(throws))


def _hurt(hit: dict[str, Any]) -> list[str]:
    if hit["type"] == "backlash":
        return []
    return [name for name in (hit["target"], hit.get("protector"), hit.get("club")) if name is not None]


def _independent_pairs(throws: Throws) -> bool:
    """Plain hits on one target, each with an attack and a defence of its own (a team attack)."""
    used = [place for hit in throws.hits for place in (hit["attack"], hit.get("defence"))]
    return (all(hit["type"] == "plain" for hit in throws.hits) and len(set(used)) == len(used)
            and len({hit["target"] for hit in throws.hits}) == 1)


def _marginal(joint: icepool.Die, place: int) -> dict[int, Fraction]:
    values: dict[int, Fraction] = {}
    for outcome, p in chances(joint).items():
        values[outcome[place]] = values.get(outcome[place], Fraction(0)) + p
    return dict(sorted(values.items()))


def _notes(throws: Throws) -> dict[str, Any]:
    notes: dict[str, Any] = {
        "pools": [{k: pool[k] for k in ("character", "role", "pool", "count", "explode")} for pool in throws.pools],
        "outcome_table": throws.outcome_table,
    }
    if throws.difficulty is not None:
        notes["difficulty"] = throws.difficulty
    exploding = sum(pool["count"] for pool in throws.pools if pool["explode"])
    if exploding:
        notes |= {"explode_depth": EXPLODE_DEPTH, "beyond_depth": float(beyond_depth(exploding, rules.SIDES))}
    return notes
