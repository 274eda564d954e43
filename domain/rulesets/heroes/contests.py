"""Contests, races and chases (§5, §7.3): checks rolled side against side, turn after turn, until one side
wins; each opens an exchange (exchange.py) of its kind, declared here and judged as checks.py judges a check.
The game's commands name these verbs as `contests.…`, and importing this module is what declares the kinds.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation, UnknownName
from ...table import Table
from ...timeline import Scope
from . import rules
from .checks import judge_opposed
from .exchange import build_pool, campaign_of, kind, open_exchange, throw
from .hero import Hero


# --- contests (§5) ---------------------------------------------------------------------------


@kind("contest")
class Contest:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        first, second = judge_opposed(table, exchange)
        # From the first side's view: net 0 or less, the opponent narrates (L38-L39).
        exchange["winner"] = first["character"] if first["net"] >= 1 else second["character"]

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        campaign = campaign_of(table)
        state = dict(campaign.contests[exchange["contest"]])
        results = list(state["results"])
        result = {"roll": exchange["id"], "winner": exchange["winner"], "net": exchange["rolls"][0]["net"]}
        index = exchange["check"]
        results[index:index + 1] = [result]
        state["results"] = results
        state["bonus_to"] = exchange["winner"]
        if len(results) == state["checks"]:
            state["winner"] = exchange["winner"]  # the final check decides the contest (L73)
        if campaign.contests[exchange["contest"]] != state:
            campaign.set_contest(contest=exchange["contest"], state=state)


def start_contest(table: Table, contest: str, sides: list[str], checks: int) -> None:
    """A contest of several checks, usually 3, epic ones 6 or more (L72)."""
    campaign = campaign_of(table)
    if contest in campaign.contests and campaign.contests[contest]["winner"] is None:
        raise RuleViolation("contest {contest!r} is still under way", field="contest", contest=contest)
    for name in sides:
        table.get(Hero, name, field="sides")
    if len(set(sides)) != 2:
        raise RuleViolation("a contest is between two different characters", field="sides")
    campaign.set_contest(contest=contest, state={
        "sides": sides, "checks": checks, "results": [], "bonus_to": None, "winner": None,
    })


def contest_roll(table: Table, contest: str, traits: dict[str, str], resolve: dict[str, int]) -> None:
    """One check of the contest; the winner of a roll has +2 dice on the next (L73)."""
    campaign = campaign_of(table)
    state = campaign.contests.get(contest)
    if state is None:
        raise UnknownName("no contest {contest!r} (start_contest first)", field="contest", contest=contest)
    if state["winner"] is not None:
        raise RuleViolation(
            "contest {contest!r} is over; {winner} won it (L73)",
            field="contest", contest=contest, winner=state["winner"],
        )
    if set(traits) != set(state["sides"]):
        raise RuleViolation("each of {sides} names a trait", field="traits", sides=", ".join(state["sides"]))
    throws = []
    for name in state["sides"]:
        hero = table.get(Hero, name, field="traits")
        bonus = [("won the last roll", rules.CONTEST_BONUS)] if state["bonus_to"] == name else []
        pool = build_pool(table, hero, hero.trait(traits[name], field="traits"), role="contest",
                          extra=bonus, resolve=resolve.get(name, 0))
        throws.append(throw(table, pool))
    open_exchange(table, "contest", throws, contest=contest, check=len(state["results"]))


# --- races and chases (§7.3) -----------------------------------------------------------------


def movement_pool(table: Table, hero: Hero, trait: str, against_powers: bool, field: str, **kw: Any) -> dict[str, Any]:
    """On foot with Agility against movement Powers only half the trait is rolled (L163, L167)."""
    spec = hero.trait(trait, field=field)
    if spec["kind"] == "ability" and against_powers:
        return build_pool(table, hero, spec, rank=rules.half(spec["rank"]),
                          rank_source=f"half {spec['name']} on foot (L163)", **kw)
    return build_pool(table, hero, spec, **kw)


def uses_movement_power(hero: Hero, trait: str) -> bool:
    return "movement" in hero.trait(trait).get("uses", [])


@kind("race")
class Race:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        best = max(e["successes"] for e in exchange["rolls"])
        exchange["winners"] = [e["character"] for e in exchange["rolls"] if e["successes"] == best]
        for entry in exchange["rolls"]:
            entry["outcome"] = "first" if entry["character"] in exchange["winners"] else "behind"

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        pass


def race(table: Table, racers: list[tuple[str, str]]) -> None:
    """Who gets there first: Agility or movement Power checks between the racers (L163)."""
    heroes = [(table.get(Hero, name, field="racers"), trait) for name, trait in racers]
    if len({h.name for h, _ in heroes}) != len(heroes) or len(heroes) < 2:
        raise RuleViolation("a race is between two or more different characters", field="racers")
    powered = any(uses_movement_power(h, t) for h, t in heroes)
    throws = [throw(table, movement_pool(table, h, t, powered, "racers", role="race")) for h, t in heroes]
    open_exchange(table, "race", throws)


@kind("chase")
class Chase:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        pursuer, quarry = judge_opposed(table, exchange)
        winner = pursuer if pursuer["net"] >= 1 else quarry
        exchange["winner"] = winner["character"]
        ladder = rules.CHASE_LADDER
        at = ladder.index(exchange["distance_before"])
        shift = 0
        if winner["net"] >= rules.CHASE_SHIFT_NET:
            wanted = exchange["shift"] or ("closer" if winner is pursuer else "farther")
            shift = {"closer": -1, "farther": 1, "none": 0}[wanted]
        exchange["distance"] = ladder[min(max(at + shift, 0), len(ladder) - 1)]

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        campaign = campaign_of(table)
        state = dict(campaign.chases[exchange["chase"]])
        state["bonus_to"] = exchange["winner"]
        state["distance"] = exchange["distance"]
        state["over"] = exchange["distance"] in ("cornered", "escaped")  # L170
        state["checks"] = exchange["check"] + 1
        if state != campaign.chases[exchange["chase"]]:
            campaign.set_chase(chase=exchange["chase"], state=state)


def start_chase(table: Table, chase: str, pursuer: str, quarry: str, distance: str) -> None:
    campaign = campaign_of(table)
    if chase in campaign.chases and not campaign.chases[chase]["over"]:
        raise RuleViolation("chase {chase!r} is still on", field="chase", chase=chase)
    table.get(Hero, pursuer, field="pursuer")
    table.get(Hero, quarry, field="quarry")
    if pursuer == quarry:
        raise RuleViolation("one does not chase oneself", field="quarry")
    campaign.set_chase(chase=chase, state={
        "pursuer": pursuer, "quarry": quarry, "distance": distance, "bonus_to": None, "over": False, "checks": 0,
    })


def chase_check(
    table: Table, chase: str, pursuer_trait: str, quarry_trait: str, shift: str | None, resolve: dict[str, int]
) -> None:
    """One chase check a page, not an action (L167); +2 dice to the last winner (L169; H-4)."""
    campaign = campaign_of(table)
    state = campaign.chases.get(chase)
    if state is None:
        raise UnknownName("no chase {chase!r} (start_chase first)", field="chase", chase=chase)
    if state["over"]:
        raise RuleViolation(
            "chase {chase!r} is over: the quarry was {distance} (L170)",
            field="chase", chase=chase, distance=state["distance"],
        )
    if not campaign.is_open(Scope.MOVE) or not campaign.page:
        raise RuleViolation("a chase check takes one page (L167): next_page first", field="chase")
    campaign.use_limit(rules.CHASE_CHECK, holder=chase)
    sides = [(table.get(Hero, state["pursuer"]), pursuer_trait, "pursuer_trait"),
             (table.get(Hero, state["quarry"]), quarry_trait, "quarry_trait")]
    powered = any(uses_movement_power(h, t) for h, t, _ in sides)
    throws = []
    for hero, trait, field in sides:
        bonus = [("won the last chase check", rules.CHASE_BONUS)] if state["bonus_to"] == hero.name else []
        throws.append(throw(table, movement_pool(
            table, hero, trait, powered, field, role="chase", extra=bonus, resolve=resolve.get(hero.name, 0)
        )))
    open_exchange(table, "chase", throws, chase=chase, check=state["checks"],
                  distance_before=state["distance"], shift=shift)
