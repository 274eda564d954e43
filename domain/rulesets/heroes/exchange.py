"""The success pool and the exchange: the rolls of one command, which Resolve may still change.

A check rolls one d6 per rank plus or minus dice (L33, §3.1); 2 and 4 are a success, 6 two
(L34). Resolve bought after the roll adds dice to it or rerolls it whole (L108), so the rolls of
the last command stay open as the campaign's *exchange*: each kind of exchange (a check, an
attack, a contest roll...) says how to `judge` its rolls (net successes, outcomes, damage) and how
to `apply` the judgement to the sheets. Applying is idempotent: a revision applies only the
difference from what was applied before (Health lost, effect pages added), so a Resolve die on a
defence roll gives back the Health the first judgement took.

Faces are consumed in the one documented order: the dice of a pool, then its explosions round by
round; the rolls of a command in the order its rules roll them (attacker before defender).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ...dice import Die, Roll, roll_pool
from ...errors import RuleViolation
from ...table import Draw, Table
from . import rules
from .campaign import HeroesCampaign
from .hero import Hero


def successes(dice: list[Die]) -> int:
    """Invariant 1: every face of every die, explosions included, by the table of L34."""
    return sum(rules.SUCCESSES[face] for die in dice for face in die.faces)


def count_faces(faces: list[list[int]]) -> int:
    return sum(rules.SUCCESSES[face] for die in faces for face in die)


def campaign_of(table: Table) -> HeroesCampaign:
    campaign = table.campaign
    assert isinstance(campaign, HeroesCampaign)
    return campaign


@dataclass
class Throw:
    draw: Draw
    roll: Roll
    entry: dict[str, Any]


class Kind(Protocol):
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        """Fill in what the rolls mean (net, outcome per roll, damage...) from their successes."""

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        """Bring the sheets in line with the judgement, applying only what changed."""


KINDS: dict[str, Kind] = {}


def kind(name: str) -> Callable[[type], type]:
    def register(cls: type) -> type:
        KINDS[name] = cls()
        return cls

    return register


# --- building a pool (§3.1) --------------------------------------------------------------


def moment_applies(table: Table, hero: Hero, role: str) -> bool:
    """Does this roll of his explode in his Defining Moment? (L77-L78; H-25)."""
    moment = hero.moment
    if moment is None:
        return False
    if not moment["lasting"] or table.campaign.option("defining_moment_rolls") == "all_rolls":
        return True
    return role != "defence"


def build_pool(
    table: Table,
    hero: Hero,
    trait: dict[str, Any],
    *,
    role: str,
    action: bool = False,
    rank: int | None = None,
    rank_source: str | None = None,
    extra: Sequence[tuple[str, int]] = (),
    resolve: int = 0,
    explode: bool = False,
) -> dict[str, Any]:
    """The pool of one roll: rank (or a halved rank), bonuses and penalties, Resolve before the roll."""
    campaign = campaign_of(table)
    dm = moment_applies(table, hero, role)
    parts: list[list[Any]] = [[rank_source or trait["name"], trait["rank"] if rank is None else rank]]
    help_given = campaign.help.get(hero.name) if role != "defence" else None
    if help_given and max(help_given.values()):
        best = max(help_given.values())
        helper = next(h for h, d in help_given.items() if d == best)
        parts.append([f"help from {helper}", best])
    parts += [[source, dice] for source, dice in extra if dice]
    if hero.penalty():
        parts.append(["manoeuvre effects", -hero.penalty()])
    if action:
        declared = hero.declared_actions(campaign.page)
        if declared > 1:
            parts.append([f"{declared} actions", rules.EXTRA_ACTION_PENALTY * (declared - 1)])
    if resolve:
        hero.spend_resolve(resolve, "dice", field="resolve")
        per = rules.DEFINING_MOMENT_RESOLVE_DICE if dm else rules.RESOLVE_DICE
        parts.append(["resolve", resolve * per])
    if help_given:
        campaign.use_help(character=hero.name, dice=max(help_given.values()), roll=table.command_id)
    if trait["kind"] == "stunt":
        hero.stunt_used(power=trait["name"])
    return {
        "character": hero.name,
        "trait": trait["name"],
        "role": role,
        "pool": parts,
        "count": max(0, sum(p[1] for p in parts)),  # Note: a pool of 0 or fewer dice rolls none
        "explode": bool(dm or explode),
        "dm": dm,
        "resolve": resolve,
    }


@dataclass(frozen=True)
class Throws:
    """What a command will throw, decided before any die is cast, and how its rolls are read.

    `pools` are `build_pool`'s (`count`, `explode`), in the order they will be thrown. A check
    ("check") is its first pool's successes less the difficulty or the second pool's (L34), read by
    the outcome table; an attack ("attack") is its `hits`, as `hit_damage` reads them, naming the
    pools by their place in `pools` (L186, L252, L258-L259).
    """

    kind: str
    pools: tuple[dict[str, Any], ...]
    outcome_table: str
    difficulty: int | None = None
    hits: tuple[dict[str, Any], ...] = ()


def foresee(table: Table, kind_name: str, pools: Sequence[dict[str, Any]], *, difficulty: int | None = None,
            hits: Sequence[dict[str, Any]] = ()) -> None:
    if table.foresight:  # only the odds read the plan: a command played for real does not build it
        table.foresee(Throws(kind_name, tuple(pools), table.campaign.option("outcome_table"), difficulty, tuple(hits)))


def throw_all(table: Table, pools: Sequence[dict[str, Any]], hits: Sequence[dict[str, Any]] = ()) -> list[Throw]:
    """Throw the pools in order; hits naming pools by their place now name the rolls by their ids."""
    throws = [throw(table, pool) for pool in pools]
    for hit in hits:
        for key in ("attack", "defence", "protector_roll", "ward_roll", "club_roll"):
            if isinstance(hit.get(key), int):
                hit[key] = throws[hit[key]].entry["id"]
    return throws


def throw(table: Table, pool: dict[str, Any]) -> Throw:
    draw = table.draw()
    dice = roll_pool(draw, pool["count"], rules.SIDES, explode=pool["explode"])
    count = successes(dice)
    entry = {**pool, "id": draw.roll_id, "faces": [list(d.faces) for d in dice], "successes": count}
    return Throw(draw, Roll(pool_notation(pool["count"], pool["explode"]), tuple(dice), count), entry)


def pool_notation(count: int, explode: bool) -> str:
    """A success pool as the roll log writes it: `5d6`, or `5d6!` when its sixes explode."""
    return f"{count}d6{'!' if explode else ''}"


# --- opening and revising an exchange -----------------------------------------------------


def open_exchange(table: Table, kind_name: str, throws: list[Throw], **data: Any) -> dict[str, Any]:
    """Judge the rolls, record them with their outcomes, apply the judgement, keep it open."""
    campaign = campaign_of(table)
    exchange = {
        "kind": kind_name, "id": table.command_id, "page": campaign.page,
        "rolls": [t.entry for t in throws], "frozen": False, **data,
    }
    KINDS[kind_name].judge(table, exchange)
    for t in throws:
        entry = t.entry
        table.record(
            t.draw, t.roll, purpose=f"{kind_name}:{entry['role']}", character=entry["character"],
            outcome=entry.get("outcome"), **details(entry),
        )
    _moments(table, throws)
    KINDS[kind_name].apply(table, exchange)
    campaign.open_exchange(exchange=exchange)
    return exchange


def details(entry: dict[str, Any]) -> dict[str, Any]:
    keys = ("trait", "role", "pool", "successes", "net", "difficulty", "against", "dm", "explode")
    return {k: entry[k] for k in keys if k in entry}


#: What Resolve after the roll may change in a roll's record (L108): its dice, successes and net (L34).
REVISED = ("pool", "successes", "net")


def revised(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: entry[k] for k in REVISED if k in entry}


def _moments(table: Table, throws: list[Throw]) -> None:
    """A Defining Moment's rolls are noted; a moment for one action ends with its roll (L78)."""
    for t in throws:
        if not t.entry["dm"]:
            continue
        hero = table.get(Hero, t.entry["character"])
        assert hero.moment is not None
        hero.moment_rolled(roll=t.entry["id"])
        if not hero.moment["lasting"]:
            hero.moment_ended(effort=hero.moment["effort"], reason="its action is rolled (L78)")


def revise(table: Table, exchange: dict[str, Any], reason: str) -> None:
    """Judge again after Resolve changed a roll; amend the roll log and the sheets.

    The log is compared with the exchange as last recorded, before this change touched its
    copy: a die bought after the roll changes the roll's successes even when its outcome stays.
    """
    recorded = {e["id"]: e for e in (campaign_of(table).exchange or {"rolls": []})["rolls"]}
    before = {e["id"]: (revised(recorded.get(e["id"], e)), recorded.get(e["id"], e).get("outcome"))
              for e in exchange["rolls"]}
    KINDS[exchange["kind"]].judge(table, exchange)
    for entry in exchange["rolls"]:
        if before[entry["id"]] != (revised(entry), entry.get("outcome")):
            # The log's roll follows every derived value, not only its total (L34: net = successes − ...).
            table.campaign.modify_roll(entry["id"], entry["successes"], entry.get("outcome"), reason,
                                       fields=revised(entry))
    KINDS[exchange["kind"]].apply(table, exchange)
    campaign_of(table).revise_exchange(exchange=exchange, reason=reason)


def current(table: Table) -> dict[str, Any] | None:
    """A copy of the open exchange to revise (the campaign's state changes only by its events)."""
    return copied(campaign_of(table).exchange)


def copied(value: Any) -> Any:
    """A deep copy of JSON (an exchange is stored in its events): its dicts and lists anew, the rest
    (strings, numbers) immutable; a third of what `copy.deepcopy`, which keeps a memo of every object, costs."""
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    return value


def open_roll_of(
    table: Table, character: str, roll: str | None, *, field: str = "roll"
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The open exchange (a copy) and the character's roll in it: Resolve after the roll changes the last rolls."""
    exchange = current(table)
    if exchange is None:
        raise RuleViolation(
            "there is no roll open to change; {character} must roll first (L108)",
            field=field, character=character,
        )
    if exchange["frozen"]:
        raise RuleViolation(
            "the rolls of {exchange} are settled (a knockback or redirect was bought on them)",
            field=field, exchange=exchange["id"],
        )
    mine = [e for e in exchange["rolls"] if e["character"] == character and (roll is None or e["id"] == roll)]
    if not mine:
        ids = ", ".join(f"{e['id']} ({e['character']})" for e in exchange["rolls"])
        raise RuleViolation(
            "{character} has no roll {named}among the open rolls ({ids}); Resolve dice go to one's own roll, right "
            "after it (L108)",
            field=field, character=character, named="named " + repr(roll) + " " if roll else "", ids=ids,
        )
    if len(mine) > 1:
        raise RuleViolation(
            "{character} has {open_rolls} open rolls ({ids}); name the `roll`",
            field=field, character=character, open_rolls=len(mine), ids=", ".join(e["id"] for e in mine),
        )
    return exchange, mine[0]


def add_dice(table: Table, entry: dict[str, Any], count: int, purpose: str) -> None:
    """Roll `count` more dice into an open roll (exploding if the roll explodes)."""
    draw = table.draw()
    dice = roll_pool(draw, count, rules.SIDES, explode=entry["explode"])
    roll = Roll(pool_notation(count, entry["explode"]), tuple(dice), successes(dice))
    table.record(draw, roll, purpose=purpose, character=entry["character"], outcome=None, adds_to=entry["id"])
    entry["faces"] = entry["faces"] + [list(d.faces) for d in dice]
    entry["count"] += count
    entry["pool"] = entry["pool"] + [["resolve after the roll", count]]
    entry["successes"] = count_faces(entry["faces"])


def reroll(table: Table, entry: dict[str, Any]) -> None:
    """Every die of the roll again, Resolve dice included; the new result replaces the old (L108; Note)."""
    draw = table.draw()
    dice = roll_pool(draw, entry["count"], rules.SIDES, explode=entry["explode"])
    roll = Roll(pool_notation(entry["count"], entry["explode"]), tuple(dice), successes(dice))
    table.record(draw, roll, purpose="reroll", character=entry["character"], outcome=None, rerolls=entry["id"])
    entry["faces"] = [list(d.faces) for d in dice]
    entry["successes"] = successes(dice)
    entry["rerolled"] = entry.get("rerolled", 0) + 1


def roll_by_role(exchange: dict[str, Any], role: str, character: str | None = None) -> dict[str, Any] | None:
    return next(
        (e for e in exchange["rolls"] if e["role"] == role and (character is None or e["character"] == character)),
        None,
    )
