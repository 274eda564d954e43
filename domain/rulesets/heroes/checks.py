"""The check and its relatives: help, group checks, contests, races, chases, recovery, escapes (§3, §5, §6, §7.3).

Every roll opens an exchange (exchange.py) whose kind, declared here, judges net successes into
outcomes and applies them to the sheets.

Each kind sits beside the verb that rolls it, and all of them judge net successes with the same few
helpers (`judge_net`, `situational`, `able`), which contests, races and chases (contests.py) take too.
The game's commands name these verbs as `checks.…`, and importing this module is what declares the kinds.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation, UnknownName
from ...table import Table
from ...timeline import Scope
from . import rules
from .exchange import (
    build_pool, campaign_of, current, foresee, kind, open_exchange, revise, roll_by_role, throw,
    throw_all,
)
from .hero import Hero
from .turns import begin_action


def judge_net(table: Table, entry: dict[str, Any], net: int) -> None:
    """Net successes and the outcome of one roll (L34-L41, L58-L62)."""
    entry["net"] = net
    entry["outcome"] = rules.outcome(net, table.campaign.option("outcome_table"))
    entry["embellishment"] = rules.embellishment(net)


class AgainstDifficulty:
    """A kind whose lone roll is judged against the exchange's difficulty (recovery, escape): its net successes."""

    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        entry = exchange["rolls"][0]
        judge_net(table, entry, entry["successes"] - exchange["difficulty"])

    @staticmethod
    def roller(table: Table, exchange: dict[str, Any]) -> Hero:
        """Who rolled the lone roll."""
        return table.get(Hero, exchange["rolls"][0]["character"])


def judge_opposed(table: Table, exchange: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two rolls against each other (a contest, a chase, a grapple, a manoeuvre): the first one's net successes
    over the second's, the second's the same turned round (L38-L39); the two rolls."""
    first, second = exchange["rolls"]
    judge_net(table, first, first["successes"] - second["successes"])
    judge_net(table, second, -first["net"])
    return first, second


def situational(modifier: int) -> list[tuple[str, int]]:
    return [("situation", modifier)] if modifier else []


def able(hero: Hero, field: str) -> None:
    """Helping and group checks are no actions of the page, but the defeated and unconscious do nothing."""
    if hero.defeated:
        # Terms: Решимость L77-L84; Характеристики, Таланты, Суперспособности, Трейты L23; Миньоны, ранг опасности
        # L26; ход (страница) L11, L126; Решающий Момент L77-L80; Несчастья L118-L120; погоня L165-L170.
        raise RuleViolation("{name} is defeated (L186, L103, L195)", field=field, name=hero.name)


# --- the check (§3) -----------------------------------------------------------------------


@kind("check")
class Check:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        mine = roll_by_role(exchange, "check")
        assert mine is not None
        theirs = roll_by_role(exchange, "opposition")
        if theirs is None:
            judge_net(table, mine, mine["successes"] - exchange["difficulty"])
        else:
            judge_net(table, mine, mine["successes"] - theirs["successes"])
            judge_net(table, theirs, -mine["net"])

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        pass


def roll_check(
    table: Table,
    character: str,
    trait: str,
    *,
    difficulty: int | None = None,
    opponent: str | None = None,
    opponent_trait: str | None = None,
    resolve: int = 0,
    modifier: int = 0,
    action: bool = False,
) -> None:
    """A check against a difficulty (L33-L52) or another character's roll (L34, "opposed")."""
    hero = table.get(Hero, character)
    if action:
        begin_action(table, hero, "check")
    elif hero.unconscious:
        raise RuleViolation(
            "{character} is unconscious until the end of the scene (L103)",
            field="character", character=character,
        )
    if opponent is not None and difficulty is not None:
        raise RuleViolation("a check is against a difficulty or an opponent, not both (L34)", field="difficulty")
    mine = build_pool(
        table, hero, hero.trait(trait), role="check", action=action, resolve=resolve, extra=situational(modifier)
    )
    pools = [mine]
    if opponent is not None:
        other = table.get(Hero, opponent, field="opponent")
        if opponent == character:
            raise RuleViolation("a character does not oppose himself", field="opponent")
        if opponent_trait is None:
            raise RuleViolation("an opposed check names the opponent's trait", field="opponent_trait")
        pools.append(build_pool(table, other, other.trait(opponent_trait, field="opponent_trait"), role="opposition"))
    # Note: without a difficulty or an opponent a check is Easy (0), the lowest of L43-L52.
    foresee(table, "check", pools, difficulty=None if opponent is not None else difficulty or 0)
    throws = throw_all(table, pools)
    open_exchange(table, "check", throws, difficulty=difficulty or 0,
                  difficulty_name=rules.difficulty_name(difficulty or 0))


# --- help and group checks (§5) -----------------------------------------------------------


@kind("help")
class Help:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        entry = exchange["rolls"][0]
        judge_net(table, entry, entry["successes"] - rules.HELP_DIFFICULTY)
        exchange["bonus"] = rules.help_dice(entry["net"])

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        if exchange.get("offered", 0) != exchange["bonus"]:
            campaign_of(table).offer_help(
                character=exchange["helped"], helper=exchange["rolls"][0]["character"], dice=exchange["bonus"]
            )
            exchange["offered"] = exchange["bonus"]


def help_check(table: Table, helper: str, character: str, trait: str, *, resolve: int = 0) -> None:
    """The helper rolls at difficulty 2; +1 die per 2 net successes, best helper only (L66-L67)."""
    hero = table.get(Hero, helper, field="helper")
    table.get(Hero, character)
    if helper == character:
        raise RuleViolation("a character does not help himself", field="helper")
    able(hero, "helper")
    pool = build_pool(table, hero, hero.trait(trait), role="help", resolve=resolve)
    open_exchange(table, "help", [throw(table, pool)], helped=character, difficulty=rules.HELP_DIFFICULTY)


@kind("group")
class GroupCheck:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        """More than 3 net successes may be shared with the group (L68; H-3)."""
        raw = {e["character"]: e["successes"] - exchange["difficulty"] for e in exchange["rolls"]}
        given: dict[str, int] = {}
        kept = []
        for share in exchange["shares"]:
            excess = max(0, raw[share["from"]] - rules.GROUP_FULL_SUCCESS) - given.get(share["from"], 0)
            amount = min(share["amount"], excess)
            if amount > 0:
                given[share["from"]] = given.get(share["from"], 0) + amount
                kept.append({**share, "amount": amount})
        exchange["shares"] = kept
        for entry in exchange["rolls"]:
            name = entry["character"]
            received = sum(s["amount"] for s in kept if s["to"] == name)
            judge_net(table, entry, raw[name] - given.get(name, 0) + received)
            entry["excess"] = max(0, raw[name] - rules.GROUP_FULL_SUCCESS) - given.get(name, 0)

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        pass


def group_check(table: Table, members: list[tuple[str, str]], difficulty: int) -> None:
    names = [m for m, _ in members]
    if len(set(names)) != len(names):
        raise RuleViolation("each character rolls once in a group check (L68)", field="members")
    throws = []
    for name, trait in members:
        hero = table.get(Hero, name, field="members")
        able(hero, "members")
        throws.append(throw(table, build_pool(table, hero, hero.trait(trait, field="members"), role="group")))
    open_exchange(table, "group", throws, difficulty=difficulty, shares=[])


def share_successes(table: Table, giver: str, receiver: str, amount: int) -> None:
    exchange = current(table)
    if exchange is None or exchange["kind"] != "group":
        raise RuleViolation("successes are shared right after a group check (L68)", field="from_character")
    entry = roll_by_role(exchange, "group", giver)
    if entry is None or roll_by_role(exchange, "group", receiver) is None or giver == receiver:
        raise UnknownName(
            "{giver} and {receiver} must be two members of the group check {exchange}",
            field="to_character", giver=giver, receiver=receiver, exchange=exchange["id"],
        )
    if amount > entry["excess"]:
        raise RuleViolation(
            "{giver} has {excess} successes above 3 left to share, not {amount} (L68; H-3)",
            field="amount", giver=giver, excess=entry["excess"], amount=amount,
        )
    exchange["shares"] = [*exchange["shares"], {"from": giver, "to": receiver, "amount": amount}]
    revise(table, exchange, f"{giver} shares {amount} with {receiver} (L68)")


# --- recovery and escaping effects (§6) -------------------------------------------------------


@kind("recovery")
class Recovery(AgainstDifficulty):
    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        """+1 Health per net success, never above MaxHealth (L193; H-8)."""
        hero = self.roller(table, exchange)
        before = exchange["health_before"]
        health = min(hero.max_health, before + max(0, exchange["rolls"][0]["net"]))
        if health != hero.health:
            hero.healed(amount=health - hero.health, health=health, reason=f"recovery ({exchange['rest']})")


def recover(table: Table, character: str, rest: str, *, resolve: int = 0) -> None:
    """A Hard (2) Stamina check after a battle or a day's rest; Average (1) after a whole day of rest (L193)."""
    hero = table.get(Hero, character)
    campaign = campaign_of(table)
    if hero.is_minion:
        raise RuleViolation("minions do not recover: one net success defeats one (L191)", field="character")
    if rest == "battle":
        if campaign.is_open(Scope.BATTLE) or not campaign.number(Scope.BATTLE):
            raise RuleViolation("the recovery check comes after a battle has ended (L193)", field="rest")
        campaign.use_limit(rules.RECOVERY, holder=character, instance=f"battle {campaign.number(Scope.BATTLE)}")
    else:
        if not campaign.day:
            raise RuleViolation("no day has passed yet (next_day); the check follows a day's rest (L193)", field="rest")
        campaign.use_limit(rules.REST_RECOVERY, holder=character, instance=f"day {campaign.day}")
    difficulty = rules.RECOVERY_DIFFICULTY[rest]
    pool = build_pool(table, hero, hero.trait("stamina"), role="recovery", resolve=resolve)
    open_exchange(table, "recovery", [throw(table, pool)], difficulty=difficulty, rest=rest,
                  health_before=hero.health)


@kind("escape")
class Escape(AgainstDifficulty):
    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        """Success shortens the effect by half the net successes, rounded up; at 0 he is free (L197; H-10)."""
        hero = self.roller(table, exchange)
        name = exchange["effect"]
        pages = exchange["pages_before"] - rules.effect_pages(exchange["rolls"][0]["net"])
        current = hero.effects.get(name)
        if pages <= 0:
            if current is not None:
                hero.end_effect(effect=name, reason="escaped: he is free and may act this page (L197)")
        elif current is None or current["pages"] != pages:
            state = current or exchange["state_before"]
            hero.set_effect(effect=name, state={**state, "pages": pages}, reason="escape attempt (L197)")


def escape_effect(table: Table, character: str, effect: str, trait: str, difficulty: int, *, resolve: int = 0) -> None:
    hero = table.get(Hero, character)
    state = hero.effects.get(effect)
    if state is None:
        raise UnknownName(
            "{character} is under no effect {effect!r}",
            field="effect", character=character, effect=effect,
        )
    if state["until"] != "pages":
        raise RuleViolation(
            "{effect} lasts until the end of the scene (it defeated {character}, L195); only Resolve shakes it off "
            "(L204)", field="effect", effect=effect, character=character
        )
    pool = build_pool(table, hero, hero.trait(trait), role="escape", resolve=resolve)
    open_exchange(table, "escape", [throw(table, pool)], difficulty=difficulty, effect=effect,
                  pages_before=state["pages"], state_before=state)
