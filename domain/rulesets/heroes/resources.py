"""Resolve and Adversity (§4.1, §4.2): every gain and spend, with its limit (the Defining Moment, §4.3:
moment.py).

Resolve never goes below 0, Adversity neither (invariant 4); a spend the character cannot pay
is refused and writes nothing.
"""

from __future__ import annotations

from typing import Any

from ...errors import Count, PermissionDenied, RuleViolation, UnknownName
from ...table import Table
from ...timeline import Scope
from . import rules
from .combat import add_effect, defence_pool, settle_health
from .exchange import add_dice, campaign_of, current, open_roll_of, reroll, revise, throw
from .hero import Hero
from .turns import in_battle_page

# --- Resolve gained (L98-L103) ------------------------------------------------------------------


def gain_resolve(table: Table, character: str, reason: str) -> None:
    hero = table.get(Hero, character)
    if hero.is_minion:
        raise RuleViolation("minions have no Resolve (L26)", field="character")
    if reason == "desperation":
        desperation(table, hero)
        return
    hero.gain_resolve(amount=1, reason=f"{reason} ({rules.RESOLVE_GAINS[reason]})", resolve=hero.resolve + 1)


def desperation(table: Table, hero: Hero) -> None:
    """In trouble at 0 Resolve: +1, to be spent in this very page, then unconscious to the scene's end (L103)."""
    campaign = campaign_of(table)
    if hero.resolve != 0:
        raise RuleViolation(
            "{name} has {resolve}; the desperate effort is only at 0 Resolve (L103)",
            field="reason", name=hero.name, resolve=Count(hero.resolve, "{count} Resolve", "{count} Resolve"),
        )
    if hero.unconscious or hero.desperation_page is not None:
        raise RuleViolation(
            "{name} has already given his last strength this scene (L103)",
            field="reason", name=hero.name,
        )
    if not campaign.is_open(Scope.SCENE) or not campaign.page:
        raise RuleViolation("the desperate Resolve is spent in the same page (L103): a page must be under way",
                            field="reason")
    hero.desperate(page=campaign.page, resolve=1)


# --- Resolve spent (L105-L116, L136, L199, L203-L205, L265-L273) -----------------------------------


def spend_resolve(table: Table, character: str, purpose: str, **args: Any) -> None:
    hero = table.get(Hero, character)
    SPENDS[purpose](table, hero, **args)


def _dice(table: Table, hero: Hero, *, amount: int = 1, roll: str | None = None, **_: Any) -> None:
    """+1 die per Resolve, as many as he likes, after the roll too (L108); 3 dice in a Defining Moment (L77)."""
    exchange, entry = open_roll_of(table, hero.name, roll)
    hero.spend_resolve(amount, "dice", field="amount")
    per = rules.DEFINING_MOMENT_RESOLVE_DICE if entry["dm"] else rules.RESOLVE_DICE
    add_dice(table, entry, amount * per, purpose="resolve dice")
    entry["resolve"] += amount
    revise(table, exchange, f"{hero.name} spent {amount} Resolve for {amount * per} dice (L108)")


def _reroll(table: Table, hero: Hero, *, roll: str | None = None, **_: Any) -> None:
    """1 Resolve rerolls every die of the roll, Resolve dice included (L108)."""
    exchange, entry = open_roll_of(table, hero.name, roll)
    hero.spend_resolve(1, "reroll")
    reroll(table, entry)
    revise(table, exchange, f"{hero.name} spent 1 Resolve to reroll (L108)")


def _transfer(table: Table, hero: Hero, *, to: str | None = None, indirect: bool = False,
              narration: str | None = None, **_: Any) -> None:
    """Give 1 Resolve to help another (1, H-20), or 2 for 1 with a flashback when he cannot help directly (L107)."""
    if to is None:
        raise RuleViolation("a transfer names the character `to` receive the Resolve", field="to")
    other = table.get(Hero, to, field="to")
    if to == hero.name:
        raise RuleViolation("Resolve is transferred to another character (L107)", field="to")
    if other.is_minion:
        raise RuleViolation("minions have no Resolve (L26)", field="to")
    if not narration:
        what = "the flashback" if indirect else "how he helps"
        raise RuleViolation("the player describes {what} (L107)", field="narration", what=what)
    if not indirect and (hero.unconscious or hero.defeated):
        raise RuleViolation(
            "{name} cannot help directly while defeated or unconscious: an indirect transfer costs 2 (L107)",
            field="indirect", name=hero.name,
        )
    cost = rules.TRANSFER_COST["indirect" if indirect else "direct"]
    hero.spend_resolve(cost, "transfer (indirect)" if indirect else "transfer")
    other.gain_resolve(amount=1, reason=f"transfer from {hero.name} (L107)", resolve=other.resolve + 1)


def _act_first(table: Table, hero: Hero, **_: Any) -> None:
    """From now on he acts first every page of the combat (L136; H-23), or his Edge doubles (L137)."""
    if in_battle_page(table) is None:
        raise RuleViolation("acting first is bought in combat (L109-L110, L136)", field="purpose")
    if hero.acts_first or hero.edge_doubled:
        raise RuleViolation("{name} already bought acting first in this combat", field="purpose", name=hero.name)
    hero.spend_resolve(1, "act_first")
    hero.bought_act_first(double_edge=table.campaign.option("act_first") == "double_edge")


def _back_in_the_fight(table: Table, hero: Hero, **_: Any) -> None:
    """Defeated by damage: in the next page, 1 Resolve to come to with 3 Health (L203; H-7); once a scene (L205)."""
    campaign = campaign_of(table)
    if hero.health > 0 or hero.defeat_page is None:
        raise RuleViolation("{name} is not defeated by damage (L203)", field="purpose", name=hero.name)
    if campaign.page != hero.defeat_page + 1:
        raise RuleViolation(
            "{name} was defeated in page {defeat_page}; back in the fight is bought in the next page ({next_page}), "
            "and this is page {page} (L203)",
            field="purpose", name=hero.name, defeat_page=hero.defeat_page, next_page=hero.defeat_page + 1,
            page=campaign.page,
        )
    campaign.use_limit(rules.BACK_IN_THE_FIGHT, holder=hero.name)
    hero.spend_resolve(1, "back_in_the_fight")
    health = min(rules.BACK_IN_THE_FIGHT_HEALTH, hero.max_health)
    hero.healed(amount=health, health=health, reason="back in the fight (L203; H-7)")


def _shake_off(table: Table, hero: Hero, *, effect: str | None = None, **_: Any) -> None:
    """1 Resolve to be rid of a special effect in the next page (L204); shares the once a scene (L205; H-6)."""
    campaign = campaign_of(table)
    state = hero.effects.get(effect or "")
    if state is None:
        raise UnknownName("{name} is under no effect {effect!r}", field="effect", name=hero.name, effect=effect)
    if state["page"] >= campaign.page:
        raise RuleViolation(
            "{effect} came in this page; it is shaken off in the next one (L204)",
            field="effect", effect=effect,
        )
    campaign.use_limit(rules.BACK_IN_THE_FIGHT, holder=hero.name)
    hero.spend_resolve(1, "shake_off")
    hero.end_effect(effect=effect, reason="shaken off for 1 Resolve (L204)")


def _extend_effect(table: Table, hero: Hero, *, target: str | None = None, effect: str | None = None, **_: Any) -> None:
    """1 Resolve in this scene: the effect on a defeated foe lasts to the end of the next scene (L199)."""
    if target is None:
        raise RuleViolation("name the defeated `target` whose effect is extended", field="target")
    foe = table.get(Hero, target, field="target")
    state = foe.effects.get(effect or "")
    if state is None:
        raise UnknownName("{target} is under no effect {effect!r}", field="effect", target=target, effect=effect)
    if not foe.defeated:
        raise RuleViolation("{target} is not defeated; only an effect on a defeated foe is extended (L199)",
                            field="target", target=target)
    if not campaign_of(table).is_open(Scope.SCENE):
        raise RuleViolation("the extension is bought in the current scene (L199)", field="purpose")
    campaign_of(table).use_limit(rules.EXTEND_EFFECT, holder=f"{target}:{effect}")
    hero.spend_resolve(1, "extend_effect")
    foe.set_effect(effect=effect, state={**state, "until": "next_scene"},
                   reason=f"{hero.name} extended it to the end of the next scene (L199)")


def _knockback(table: Table, hero: Hero, *, target: str | None = None, into_object: bool = False, **_: Any) -> None:
    """After ≥ 6 damage: thrown as by Strength = the attack's rank, loses the next page, +half damage on impact (L265-L266)."""
    exchange = current(table)
    if exchange is None or exchange["kind"] != "attack" or exchange["attacker"] != hero.name or exchange["frozen"]:
        # Terms: Отбросить, Перенаправить атаку L265-L269; Командные атаки L271.
        raise RuleViolation(
            "knockback follows an attack of {name}'s, right after it (L265)",
            field="purpose", name=hero.name,
        )
    victim = target or exchange["target"]
    dealt = exchange["totals"].get(victim or "", {}).get("damage", 0)
    if dealt < rules.KNOCKBACK_DAMAGE:
        raise RuleViolation(
            "the attack dealt {dealt} damage to {victim}; knockback needs {knockback_damage} or more (L265; H-16)",
            field="purpose", dealt=dealt, victim=victim, knockback_damage=rules.KNOCKBACK_DAMAGE,
        )
    foe = table.get(Hero, victim, field="target")
    hero.spend_resolve(1, "knockback")
    page = campaign_of(table).page
    thrown = rules.thrown_range(exchange["rank"])
    foe.page_lost(page=page + 1, reason=f"knocked back by {hero.name} ({thrown} range): "
                                        "the knockback costs the next page (L266)")
    impact = 0
    if into_object:
        impact = rules.half(dealt)
        settle_health(table, foe, min(impact, foe.health), impact, "knockback into an object (L266)")
    exchange = {**exchange, "frozen": True, "knockback": {"target": victim, "range": thrown, "impact": impact}}
    campaign_of(table).revise_exchange(exchange=exchange, reason=f"{hero.name} knocked {victim} back (L265)")


def _redirect(table: Table, hero: Hero, *, redirect_at: str | None = None, **_: Any) -> None:
    """Active defence beating the attack by 3+: send it behind him, or at someone for his next page (L268-L269)."""
    exchange = current(table)
    if exchange is None or exchange["kind"] != "attack" or exchange["target"] != hero.name or exchange["frozen"]:
        raise RuleViolation(
            "a redirect follows an attack on {name}, right after it (L268)",
            field="purpose", name=hero.name,
        )
    if not exchange["redirect"]:
        raise RuleViolation("the redirect is declared before the defence roll (`redirect` on the attack, L268)",
                            field="purpose")
    rolls = {e["id"]: e for e in exchange["rolls"]}
    hit = exchange["hits"][0]
    guard = rolls.get(hit.get("defence") or hit.get("ward_roll") or "")
    if guard is None or guard["character"] != hero.name or not guard.get("active"):
        raise RuleViolation("only an active defence redirects an attack (L268)", field="purpose")
    margin = guard["successes"] - rolls[hit["attack"]]["successes"]
    if margin < rules.REDIRECT_MARGIN:
        raise RuleViolation("the defence beat the attack by {margin}; a redirect needs {redirect_margin} (L269)",
                            field="purpose", margin=margin, redirect_margin=rules.REDIRECT_MARGIN)
    hero.spend_resolve(1, "redirect")
    at = redirect_at
    exchange = {**exchange, "frozen": True, "redirected": at or "something behind him"}
    if at is not None:
        other = table.get(Hero, at, field="redirect_at")
        if at in (hero.name, exchange["attacker"]):
            raise RuleViolation("the attack is redirected at someone else (L269)", field="redirect_at")
        hero.page_lost(page=campaign_of(table).page + 1, reason=f"redirected the attack at {at} (L269)")
        guard_throw = throw(table, defence_pool(table, other, lethal=exchange["lethal"]))
        entry = guard_throw.entry
        table.record(guard_throw.draw, guard_throw.roll, purpose="attack:defence", character=at, outcome=None,
                     trait=entry["trait"], pool=entry["pool"], successes=entry["successes"])
        exchange["rolls"] = [*exchange["rolls"], entry]
        exchange["hits"] = [*exchange["hits"], {"type": "plain", "attack": hit["attack"], "defence": entry["id"],
                                                "target": at, "effect": hit.get("effect"),
                                                **({"minion": {at: "group"}} if other.is_minion else {})}]
        revise(table, exchange, f"{hero.name} redirected the attack at {at} (L269)")
    else:
        campaign_of(table).revise_exchange(exchange=exchange, reason=f"{hero.name} redirected the attack (L269)")


def _detail(table: Table, hero: Hero, *, narration: str | None = None, **_: Any) -> None:
    """A small lucky detail of the narrative, with the GM's approval (L115)."""
    if table.actor != "gm":
        raise PermissionDenied("a narrative detail for Resolve needs the GM's approval: the GM records it (L115)")
    if not narration:
        raise RuleViolation("say what the lucky detail is (L115)", field="narration")
    hero.spend_resolve(1, "detail")


def _power_stunt(table: Table, hero: Hero, *, trait: str | None = None, power: str | None = None,
                 uses: list[str] | None = None, lethal: bool = True, **_: Any) -> None:
    """1 Resolve: an Ability or Power imitates another Power, at the same rank, for a roll (L116)."""
    if trait is None or power is None:
        raise RuleViolation("a power stunt names the `trait` used and the `power` imitated (L116)", field="power")
    via = hero.trait(trait)
    if via["kind"] not in ("ability", "power"):
        raise RuleViolation("an Ability or a Power imitates a Power (L116)", field="trait")
    if any(power.casefold() == n.casefold() for n in [*hero.abilities, *hero.talents, *hero.powers]):
        raise RuleViolation("{name} already has {power}", field="power", name=hero.name, power=power)
    hero.spend_resolve(1, "power_stunt")
    hero.stunt_gained(power=power, via=via["name"], spec={
        "rank": via["rank"], "uses": list(uses or ["attack"]), "lethal": lethal,
        "passive": False, "effect": None, "area": False,
    })


SPENDS = {
    "dice": _dice, "reroll": _reroll, "transfer": _transfer, "act_first": _act_first,
    "back_in_the_fight": _back_in_the_fight, "shake_off": _shake_off, "extend_effect": _extend_effect,
    "knockback": _knockback, "redirect": _redirect, "detail": _detail, "power_stunt": _power_stunt,
}


# --- Adversity (§4.2) ----------------------------------------------------------------------------


def spend_adversity(table: Table, purpose: str, pool: str, villain: str | None) -> None:
    """1 Adversity (H-18): a villain's Flaw overcome, a problem, or once an issue the villain's atrocity (L120)."""
    campaign = campaign_of(table)
    if purpose in ("overcome_flaw", "villainous_act"):
        if villain is None:
            raise RuleViolation("{purpose} names the `villain`", field="villain", purpose=purpose)
        foe = table.get(Hero, villain, field="villain")
        if foe.is_hero:
            raise RuleViolation(
                "{villain} is a hero; Adversity serves villains and opponents (L120)",
                field="villain", villain=villain,
            )
    if pool == "scene" and campaign.scene_adversity is None:
        raise RuleViolation("this scene has no Adversity pool of its own (L119)", field="pool")
    left = campaign.scene_adversity if pool == "scene" else campaign.adversity
    assert left is not None
    if left < rules.ADVERSITY_COST:
        raise RuleViolation(
            "the GM has {left} Adversity in the {pool} pool; it never goes below 0",
            field="pool", left=left, pool=pool,
        )
    if purpose == "villainous_act":
        campaign.use_limit(rules.VILLAINOUS_ACT, holder="gm")
    campaign.spend_adversity(amount=rules.ADVERSITY_COST, purpose=purpose, pool=pool,
                             adversity=left - rules.ADVERSITY_COST, villain=villain)


def gain_adversity(table: Table, reason: str, character: str | None, pool: str) -> None:
    """+1 whenever a hero acts against his principles (L118); the GM may gain more (L85)."""
    campaign = campaign_of(table)
    if reason == "misbehaviour":
        if character is None or not table.get(Hero, character).is_hero:
            raise RuleViolation("name the hero who went against his principles (L118)", field="character")
    if pool == "scene" and campaign.scene_adversity is None:
        raise RuleViolation("this scene has no Adversity pool of its own (L119)", field="pool")
    now = campaign.scene_adversity if pool == "scene" else campaign.adversity
    assert now is not None
    why = f"{reason} of {character} (L118)" if character else f"{reason} (L85)"
    campaign.gain_adversity(amount=1, reason=why, pool=pool, adversity=now + 1)


def open_scene_pool(table: Table, amount: int) -> None:
    """A hard scene's own Adversity pool (L119); it ends with the scene (Note)."""
    campaign = campaign_of(table)
    if not campaign.is_open(Scope.SCENE):
        raise RuleViolation("a scene pool belongs to an open scene (L119)", field="amount")
    campaign.use_limit(rules.SCENE_POOL, holder="gm")
    campaign.open_scene_pool(amount=amount)


def apply_effect(table: Table, character: str, effect: str, pages: int, source: str | None) -> None:
    """A special effect the GM rules in, e.g. from a Power whose text is not in the source (L195)."""
    hero = table.get(Hero, character)
    add_effect(table, hero, effect, pages, source)
