"""The rest of the battlefield: grappling and manoeuvres (§7.5), ambush (§7.6), distance and movement
(§7.3), protecting others and all-out defence (§7.6), and the passing of days (§6).
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...table import Table
from ...timeline import Scope
from . import rules
from .campaign import pair
from .checks import judge_net, judge_opposed, situational
from .combat import add_effect, begin_against, defence_pool
from .exchange import build_pool, campaign_of, kind, open_exchange, throw
from .hero import Hero
from .turns import can_act, turn_passed

# --- grappling (L209-L220) --------------------------------------------------------------------


@kind("grapple")
class Grapple:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        mine, _ = judge_opposed(table, exchange)
        exchange["result"] = rules.grapple_result(mine["net"])
        mine["outcome"] = exchange["result"]

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        campaign = campaign_of(table)
        key = exchange["grapple"]
        state = None if exchange["result"] == "failed" else {
            "result": exchange["result"], "page": exchange["page"], "purpose": exchange["purpose"],
        }
        if campaign.grapples.get(key) != state:
            campaign.set_grapple(grapple=key, state=state)


def grapple(table: Table, attacker: str, target: str, purpose: str, *, resolve: int = 0) -> None:
    """Strength against any active defence; a partial grab goes on with Strength against Strength next page (L209-L218)."""
    hero, foe = begin_against(table, attacker, target, "grapple",
                              RuleViolation("a character does not grapple himself", field="target"))
    key = f"{attacker}>{target}"
    before = campaign_of(table).grapples.get(key)
    page = campaign_of(table).page
    throws = [throw(table, build_pool(table, hero, hero.trait("strength"), role="grapple", action=True, resolve=resolve))]
    if before is not None and before["result"] == "partial" and before["page"] == page - 1:
        throws.append(throw(table, build_pool(table, foe, foe.trait("strength"), role="defence")))
    else:
        throws.append(throw(table, defence_pool(table, foe, lethal=False, forced="active")))
    open_exchange(table, "grapple", throws, grapple=key, purpose=purpose)


# --- manoeuvres (L224-L238) --------------------------------------------------------------------


@kind("manoeuvre")
class Manoeuvre:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        mine, _ = judge_opposed(table, exchange)
        exchange["result"] = rules.manoeuvre_result(mine["net"])
        # Note (not in the source): a manoeuvre's effect lasts like a special effect, a page per 2 net (L195).
        exchange["pages"] = rules.effect_pages(mine["net"])

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        target = table.get(Hero, exchange["target"])
        result = exchange["result"] or {"penalty": 0, "effects": []}
        delta = exchange["pages"] - exchange.get("applied_pages", 0)
        if delta:
            # Roll penalties and lost movement, weapon or page (L229-L231): no defeat, which is
            # the rule of Powers' special effects (L195).
            add_effect(table, target, exchange["manoeuvre"], delta, exchange["attacker"],
                       penalty=result["penalty"], effects=result["effects"], defeats=False)
        exchange["applied_pages"] = exchange["pages"]
        loses = "loses the page" in result["effects"]
        if loses != exchange.get("page_taken", False):
            page = exchange["lost_page"]
            if loses:
                target.page_lost(page=page, reason=f"{exchange['manoeuvre']} by {exchange['attacker']} (L231)")
            else:
                target.page_regained(page=page, reason="the manoeuvre was revised by Resolve")
        exchange["page_taken"] = loses


def manoeuvre(
    table: Table, attacker: str, target: str, manoeuvre_name: str, trait: str, defence_trait: str | None,
    *, resolve: int = 0, modifier: int = 0,
) -> None:
    """Resolved like an attack, for the upper hand instead of damage; the GM has the last word (L224)."""
    hero, foe = begin_against(table, attacker, target, manoeuvre_name,
                              RuleViolation("a manoeuvre is against someone else", field="target"))
    throws = [throw(table, build_pool(table, hero, hero.trait(trait), role="attack", action=True,
                                      resolve=resolve, extra=situational(modifier)))]
    if defence_trait is not None:
        throws.append(throw(table, build_pool(table, foe, foe.trait(defence_trait, field="defence_trait"),
                                              role="defence")))
    elif manoeuvre_name == "overpower":  # Strength or active defence (L237)
        throws.append(throw(table, defence_pool(table, foe, lethal=False, defence_trait="strength", forced="active")))
    else:
        default = {"confuse": "agility", "taunt": "will"}.get(manoeuvre_name)
        if default is None:
            raise RuleViolation(
                "for {manoeuvre_name} the GM names the opposing trait (L236)",
                field="defence_trait", manoeuvre_name=manoeuvre_name,
            )
        throws.append(throw(table, build_pool(table, foe, foe.trait(default), role="defence")))
    page = campaign_of(table).page
    lost_page = page + 1 if turn_passed(table, foe, attacker) else page
    open_exchange(table, "manoeuvre", throws, manoeuvre=manoeuvre_name, attacker=attacker, target=target,
                  lost_page=lost_page)


# --- ambush (L244-L246) ------------------------------------------------------------------------


@kind("ambush")
class Ambush:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        leader = exchange["rolls"][0]
        results = {}
        for target in exchange["targets"]:
            roll = next((e for e in exchange["rolls"][1:] if e["character"] == target), None)
            net = leader["successes"] - (roll["successes"] if roll else 0)  # minions roll nothing (L246)
            if roll is not None:
                judge_net(table, roll, -net)
            # The target's view: a full win for the ambusher surprises it; with an embellishment
            # (net 1-2) it may still defend actively in the first page, nothing more (L244-L245).
            results[target] = "surprised" if net >= 3 else "caught" if net >= 1 else "noticed"
        exchange["results"] = results
        leader["outcome"] = ", ".join(f"{t}: {r}" for t, r in results.items())

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        page = exchange["first_page"]
        applied = exchange.setdefault("applied", {})
        for target, result in exchange["results"].items():
            if applied.get(target) == result:
                continue
            hero = table.get(Hero, target)
            was = applied.get(target, "noticed")
            if (result == "noticed") != (was == "noticed"):
                if result == "noticed":
                    hero.page_regained(page=page, reason="the ambush was revised by Resolve")
                else:
                    hero.page_lost(page=page, reason="ambushed: cannot act in the first page (L244)")
            if (result == "surprised") != (was == "surprised"):
                hero.surprised(page=page if result == "surprised" else None)
            applied[target] = result


def ambush(table: Table, ambusher: str, trait: str, targets: list[str], *, resolve: int = 0) -> None:
    """Stealth (or Charisma to deceive) against each target's Perception before the battle's first page (L244-L246).

    Several ambushers roll as a group by the help rules (L246): the others `help` the ambusher first.
    """
    campaign = campaign_of(table)
    if campaign.battle_page is None or campaign.page >= campaign.battle_page:
        raise RuleViolation("an ambush opens a battle, before its first page (L244)", field="type")
    hero = table.get(Hero, ambusher, field="ambusher")
    if ambusher in targets or len(set(targets)) != len(targets) or not targets:
        raise RuleViolation("name each target of the ambush once, not the ambusher", field="targets")
    foes = [table.get(Hero, t, field="targets") for t in targets]
    throws = [throw(table, build_pool(table, hero, hero.trait(trait), role="ambush", resolve=resolve))]
    for foe in foes:
        if not foe.is_minion:
            throws.append(throw(table, build_pool(table, foe, foe.trait("perception"), role="perception")))
    open_exchange(table, "ambush", throws, targets=targets, first_page=campaign.battle_page)


# --- distance and movement (L147-L170) -------------------------------------------------------------


def set_distance(table: Table, character: str, other: str, distance: str) -> None:
    table.get(Hero, character)
    table.get(Hero, other, field="other")
    if character == other:
        raise RuleViolation("a distance is between two characters", field="other")
    campaign_of(table).set_distance(between=pair(character, other), distance=distance, reason="the GM sets the scene")


def move(table: Table, character: str, other: str, to: str, *, power: str | None, open_terrain: bool) -> None:
    """One movement a page (L143): within close range 1 page; a range class 2 pages, or 1 with a movement
    Power of rank 6+; in open terrain Powers cross up to 3 classes a page (L160-L161)."""
    hero = table.get(Hero, character)
    table.get(Hero, other, field="other")
    campaign = campaign_of(table)
    page = can_act(table, hero, moving=True)
    if page is not None:
        campaign.use_limit(rules.MOVEMENT, holder=character)
    key = pair(character, other)
    now = campaign.distances.get(key)
    if now is None:
        raise RuleViolation(
            "no distance between {character} and {other} is set (set_distance)",
            field="other", character=character, other=other,
        )
    steps = abs(rules.DISTANCES.index(to) - rules.DISTANCES.index(now))
    if steps == 0:
        if now != "close":
            raise RuleViolation(
                "{character} is already at {now} range from {other}",
                field="to", character=character, now=now, other=other,
            )
        campaign.set_distance(between=key, distance=to, reason=f"{character} moved within close range (L160)")
        return
    rank = 0
    if power is not None:
        spec = hero.trait(power, field="power")
        if "movement" not in spec["uses"]:
            raise RuleViolation("{name} is not a movement Power", field="power", name=spec["name"])
        rank = spec["rank"]
    if power is not None and open_terrain:
        reach = rules.OPEN_TERRAIN_CLASSES
    else:
        reach = 1
    if steps > reach:
        raise RuleViolation("{steps} range classes is more than a page's movement allows ({reach}, L160-L161)",
                            field="to", steps=steps, reach=reach)
    fast = power is not None and (open_terrain or rank >= rules.FAST_MOVEMENT_RANK)
    journey = campaign.journeys.get(key)
    if fast or (journey is not None and journey == {"mover": character, "to": to, "page": campaign.page - 1}):
        campaign.set_distance(between=key, distance=to, reason=f"{character} moved (L160)")
    else:
        campaign.begin_journey(between=key, mover=character, to=to, page=campaign.page)


# --- protecting others and all-out defence (L257-L263) ---------------------------------------------


def protect(table: Table, character: str, ward: str) -> None:
    """Instead of the action of his next page he defends someone at close range in it (L257-L259)."""
    hero = table.get(Hero, character)
    table.get(Hero, ward, field="ward")
    if character == ward:
        raise RuleViolation("one protects someone else (L257)", field="ward")
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("protecting others happens in a page of a battle (L257)", field="type")
    distance = campaign_of(table).distance(character, ward)
    if distance not in (None, "close"):
        raise RuleViolation(
            "{ward} is at {distance} range; one protects someone at close range (L257)",
            field="ward", ward=ward, distance=distance,
        )
    # «Вместо действия в следующем ходу … Это позволяет делать бросок защиты за них» (L257): the protection is
    # of the next page, whose action it costs, not the page; he still moves in it (L141).
    campaign_of(table).protect(ward=ward, protector=character, page=page + 1)
    hero.action_given_up(page=page + 1, reason=f"he protects {ward} instead of acting (L257)")


def all_out_defence(table: Table, character: str) -> None:
    """+2 dice to defence; no attacks or other actions this page, movement allowed (L262-L263)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("all-out defence is taken in a page of a battle (L262)", field="type")
    if hero.acted_page == page:
        raise RuleViolation("{character} has already acted in page {page}; all-out defence allows no action (L262)",
                            field="character", character=character, page=page)
    hero.stance_taken(page=page, stance="all_out_defence")


def next_day(table: Table) -> None:
    """A day of game time passes: a recovery check may follow a day's rest (L193)."""
    campaign = campaign_of(table)
    if campaign.is_open(Scope.BATTLE):
        raise RuleViolation("a day does not pass in the middle of a battle", field="type")
    campaign.pass_day(day=campaign.day + 1)
