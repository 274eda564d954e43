"""Attack and defence (§7.4) and the special cases of §7.6 that are attacks: charge, all-out attack,
protecting others, redirect, area attacks, hitting one foe with another, team attacks.

Every attack opens an exchange of kind "attack": its rolls (attack rolls, defence rolls) and its
*hits*, each saying how damage follows from the rolls. Judging computes the net damage of each hit
(attack successes − defence successes, L186); applying brings Health, minions and special effects
in line with it, so Resolve dice bought after the roll by either side settle the damage again.
"""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...table import Table
from . import rules
from .exchange import build_pool, campaign_of, foresee, kind, open_exchange, throw, throw_all
from .hero import Hero
from .page import effect_state
from .turns import begin_action, felled_by_his_group, turn_passed


# --- defence (§7.4) -------------------------------------------------------------------------


def defence_pool(
    table: Table,
    target: Hero,
    *,
    lethal: bool,
    defence_trait: str | None = None,
    forced: str | None = None,
    area: str | None = None,
) -> dict[str, Any]:
    """The defence with the highest value is always used (L175; H-12), after halvings; a tie goes to active.

    Lethal attacks face only half Stamina as passive defence (L178-L179). A charger's active defence
    is halved for the page (L251); all-out attack halves both (L261); all-out defence adds 2 dice (L262).
    Area attacks halve an active defence, unless the target skips its next page instead (L249).
    The ambushed have only passive defence in the first page (L244-L245).
    """
    page = campaign_of(table).page
    stances = target.stance_in(page)
    if target.passive_only_page == page:
        forced = "passive"
    options = [{**target.trait("agility"), "defence": "active"}]
    stamina = target.trait("stamina")
    options.append({**stamina, "defence": "passive",
                    "rank": rules.half(stamina["rank"]) if lethal else stamina["rank"],
                    "source": "half stamina vs a lethal attack (L178)" if lethal else "stamina (L179)"})
    for name, power in target.powers.items():
        if "defence" in power["uses"] and power["rank"] is not None:
            options.append({**target.trait(name), "defence": "passive" if power["passive"] else "active"})
    if defence_trait is not None:
        spec = target.trait(defence_trait, field="defence_trait")
        if not any(o["name"] == spec["name"] for o in options):
            options.append({**spec, "defence": "passive" if spec["passive"] else "active"})
    for o in options:
        o.setdefault("source", o["name"])
        halve = ("all_out_attack" in stances) or (o["defence"] == "active" and (
            "charge" in stances or area == "half"))
        if halve:
            o["rank"], o["source"] = rules.half(o["rank"]), f"half {o['source']} (L251, L249, L261)"
    if forced is not None:
        options = [o for o in options if o["defence"] == forced]
    best = sorted(options, key=lambda o: (-o["rank"], o["defence"] != "active"))[0]
    extra = [("all-out defence", rules.ALL_OUT_BONUS)] if "all_out_defence" in stances else []
    pool = build_pool(table, target, best, role="defence", rank=best["rank"], rank_source=best["source"], extra=extra)
    pool["active"] = best["defence"] == "active"
    return pool


def attack_spec(hero: Hero, trait: str, lethal: bool | None) -> tuple[dict[str, Any], bool]:
    spec = hero.trait(trait)
    return spec, spec.get("lethal", True) if lethal is None else lethal


def check_target(target: Hero, field: str = "target") -> None:
    if target.health == 0:
        what = "all its minions are defeated" if target.is_minion else "Health 0"
        raise RuleViolation("{name} is already defeated ({what}, L186, L191)", field=field, name=target.name, what=what)


def begin_against(table: Table, attacker: str, target: str, action: str, himself: RuleViolation) -> tuple[Hero, Hero]:
    """An action against another (an attack, a grapple, a manoeuvre) begun: the attacker and his target, who
    is not himself (refused with `himself`, said in the action's own words) and not defeated yet."""
    hero = table.get(Hero, attacker, field="attacker")
    foe = table.get(Hero, target, field="target")
    if attacker == target:
        raise himself
    check_target(foe)
    begin_action(table, hero, action, target=target, field="attacker")
    return hero, foe


# --- judging and applying hits ------------------------------------------------------------


def hit_damage(hit: dict[str, Any], rolls: dict[str, dict[str, Any]], dealt: dict[str, int]) -> dict[str, int]:
    """Net damage of one hit for each character it hurts (L186, L252, L255, L258-L259)."""
    a = rolls[hit["attack"]]["successes"]
    kind_ = hit["type"]
    if kind_ == "plain":
        return {hit["target"]: max(0, a - rolls[hit["defence"]]["successes"])}
    if kind_ == "protected":
        p = rolls[hit["protector_roll"]]["successes"]
        if p >= a:
            return {hit["target"]: 0}
        if hit["active"]:  # the attack hurts the protected, who may defend too (L258)
            return {hit["target"]: max(0, a - rolls[hit["ward_roll"]]["successes"])}
        return {hit["protector"]: a - p, hit["target"]: 0}  # passive: the protector takes it (L259)
    if kind_ == "club":
        club = max(0, a - rolls[hit["club_roll"]]["successes"])
        if hit["club_active"] and club == 0:  # the club dodged: the attack fails (L255)
            return {hit["club"]: 0, hit["target"]: 0}
        return {hit["club"]: club, hit["target"]: max(0, a - rolls[hit["defence"]]["successes"])}
    if kind_ == "backlash":  # the charger against his own attack, less what he dealt (L252)
        own = max(0, a - rolls[hit["defence"]]["successes"])
        return {hit["target"]: max(0, own - dealt.get(hit["of"], 0))}
    raise AssertionError(kind_)


@kind("attack")
class Attack:
    def judge(self, table: Table, exchange: dict[str, Any]) -> None:
        rolls = {e["id"]: e for e in exchange["rolls"]}
        # H-24's reading matters only where a group of minions is hit: read it only then.
        per_minion = (any(hit.get("minion") for hit in exchange["hits"])
                      and table.campaign.option("minions") == "per_net_success")
        totals: dict[str, dict[str, Any]] = {}
        dealt: dict[str, int] = {}
        for hit in exchange["hits"]:
            hit["damage"] = hit_damage(hit, rolls, dealt)
            for name, damage in hit["damage"].items():
                if hit["type"] != "backlash":
                    dealt[name] = dealt.get(name, 0) + damage
                total = totals.setdefault(name, {"damage": 0, "units": 0, "effects": {}})
                total["damage"] += damage
                minion = hit.get("minion", {}).get(name)
                if minion == "one":  # one of a group caught in an area: one net success defeats it (L191)
                    total["units"] += 1 if damage > 0 else 0
                elif minion == "group":  # one attack defeats one minion (H-24), or one per net success
                    total["units"] += (damage if per_minion else 1) if damage > 0 else 0
                else:
                    total["units"] += damage
                effect = hit.get("effect")
                if effect and damage > 0 and name == hit.get("target") and hit["type"] != "backlash":
                    total["effects"][effect] = total["effects"].get(effect, 0) + rules.effect_pages(damage)
        exchange["totals"] = totals
        judge_rolls(exchange, rolls)

    def apply(self, table: Table, exchange: dict[str, Any]) -> None:
        applied = exchange.setdefault("applied", {})
        for name, total in exchange["totals"].items():
            before = applied.setdefault(name, {"units": 0, "effects": {}})
            target = table.get(Hero, name)
            wanted = min(total["units"], target.health + before["units"])
            settle_health(table, target, wanted - before["units"], total["damage"], exchange["source"])
            before["units"] = wanted
            for effect, pages in total["effects"].items():
                delta = pages - before["effects"].get(effect, 0)
                if delta:
                    add_effect(table, target, effect, delta, exchange["attacker"])
                before["effects"][effect] = pages
            felled_by_his_group(table, target, exchange.get("team") or [exchange["attacker"]], exchange["page"])


def judge_rolls(exchange: dict[str, Any], rolls: dict[str, dict[str, Any]]) -> None:
    """Each roll's own result: an attack roll the damage it did, a defence roll whether it held."""
    dealt: dict[str, int] = {}
    for hit in exchange["hits"]:
        a = rolls[hit["attack"]]["successes"]
        for key in ("defence", "protector_roll", "ward_roll", "club_roll"):
            if hit.get(key):
                entry = rolls[hit[key]]
                entry["net"] = entry["successes"] - a
                entry["outcome"] = "held" if entry["net"] >= 0 else f"{-entry['net']} through"
        if hit["type"] != "backlash":
            dealt[hit["attack"]] = dealt.get(hit["attack"], 0) + sum(hit["damage"].values())
    for roll_id, damage in dealt.items():
        rolls[roll_id]["outcome"] = f"{damage} damage" if damage else "no damage"


def settle_health(table: Table, target: Hero, delta: int, damage: int, source: str) -> None:
    page = campaign_of(table).page
    if delta > 0:
        target.lose_health(damage=damage, loss=delta, page=page, source=source)
    elif delta < 0:
        target.healed(amount=-delta, health=target.health - delta, reason=f"damage of {source} revised by Resolve")


def add_effect(table: Table, target: Hero, effect: str, pages: int, actor: str | None, **extra: Any) -> None:
    """Durations of the same effect add up (L195); if they reach his Health he is defeated by it for the scene
    (a Power's effect; a manoeuvre's passes `defeats=False`, L224-L231)."""
    page = campaign_of(table).page
    current = target.effects.get(effect)
    if current is None:
        if pages <= 0:
            return
        state = effect_state(pages, page, turn_passed(table, target, actor), source=actor, **extra)
    else:
        state = {**current, **extra, "pages": current["pages"] + pages}
        if "penalty" in extra:
            state["penalty"] = max(current.get("penalty", 0), extra["penalty"])
    if state["pages"] <= 0 and state["until"] == "pages":
        target.end_effect(effect=effect, reason="its pages were revised away")
        return
    if target.defeated_by(state):
        state = {**state, "until": "scene", "defeating": True}
        reason = f"{state['pages']} pages ≥ Health {target.health}: defeated by it to the end of the scene (L195)"
    else:
        reason = f"{'+' if pages >= 0 else ''}{pages} pages (L195)"
    target.set_effect(effect=effect, state=state, reason=reason)


# --- the attack and its special cases ---------------------------------------------------------


def attack(
    table: Table,
    attacker: str,
    target: str,
    trait: str,
    *,
    defence_trait: str | None = None,
    defence: str | None = None,
    lethal: bool | None = None,
    resolve: int = 0,
    modifier: int = 0,
    weapon: int = 0,
    charge: bool = False,
    all_out: bool = False,
    redirect: bool = False,
) -> None:
    """Attack roll vs the target's defence; damage = the net successes (L174-L186)."""
    hero, foe = begin_against(table, attacker, target, "attack",
                              RuleViolation("a character does not attack himself", field="target"))
    page = campaign_of(table).page
    spec, lethal = attack_spec(hero, trait, lethal)
    extra = [("weapon", weapon), ("situation", modifier)]
    if charge:
        hero.stance_taken(page=page, stance="charge")  # his active defence is halved this page (L251)
        extra.append(("charge", rules.CHARGE_BONUS))
    if all_out:
        hero.stance_taken(page=page, stance="all_out_attack")  # L261
        extra.append(("all-out attack", rules.ALL_OUT_BONUS))
    if redirect:
        defence = "active"  # a redirect needs active defence, declared before the roll (L268)
    pools = [build_pool(table, hero, spec, role="attack", action=True, extra=extra, resolve=resolve)]
    protection = campaign_of(table).protections.get(target)
    protector = None
    if protection and protection["page"] == page and protection["protector"] != attacker:
        protector = table.get(Hero, protection["protector"])
        if protector.defeated:
            protector = None
    # Hits name the pools by their place until they are thrown (throw_all), then by roll id.
    if protector is not None:
        guard = defence_pool(table, protector, lethal=lethal)
        pools.append(guard)
        hit = {"type": "protected", "attack": 0, "protector_roll": 1, "protector": protector.name,
               "target": target, "active": guard["active"], "ward_roll": None}
        if guard["active"]:
            pools.append(defence_pool(table, foe, lethal=lethal, defence_trait=defence_trait, forced=defence))
            hit["ward_roll"] = 2
        hits = [hit]
    else:
        guard = defence_pool(table, foe, lethal=lethal, defence_trait=defence_trait, forced=defence)
        pools.append(guard)
        hits = [{"type": "plain", "attack": 0, "defence": 1, "target": target}]
        if charge and not guard["active"]:
            # Against passive defence the charger rolls his own passive defence against his roll (L252).
            pools.append(defence_pool(table, hero, lethal=lethal, forced="passive"))
            hits.append({"type": "backlash", "attack": 0, "defence": 2, "target": attacker, "of": target})
    foresee(table, "attack", pools, hits=hits)
    throws = throw_all(table, pools, hits)
    for hit in hits:
        hit["effect"] = spec.get("effect")
        if foe.is_minion:
            hit["minion"] = {target: "group"}
    open_exchange(table, "attack", throws, hits=hits, attacker=attacker, source=f"{attacker}'s {spec['name']}",
                  rank=spec["rank"], lethal=lethal, redirect=redirect, target=target)


def area_attack(
    table: Table, attacker: str, targets: list[str], trait: str, *,
    dodge: dict[str, str], lethal: bool | None = None, resolve: int = 0, modifier: int = 0,
) -> None:
    """One attack roll; each target defends on its own, active defence at half or skipping a page (L248-L249)."""
    hero = table.get(Hero, attacker, field="attacker")
    if len(set(targets)) != len(targets) or attacker in targets:
        raise RuleViolation("each target of an area attack is named once, not the attacker", field="targets")
    foes = [table.get(Hero, t, field="targets") for t in targets]
    for foe in foes:
        check_target(foe, field="targets")
    unknown = set(dodge) - set(targets)
    if unknown:
        raise RuleViolation(
            "{unknown} are not targets of the attack",
            field="dodge", unknown=", ".join(sorted(unknown)),
        )
    begin_action(table, hero, "area attack", field="attacker")
    for target in targets:
        campaign_of(table).use_limit(rules.SAME_TARGET, holder=f"{attacker}>{target}")
    spec, lethal = attack_spec(hero, trait, lethal)
    throws = [throw(table, build_pool(table, hero, spec, role="attack", action=True,
                                      extra=[("situation", modifier)], resolve=resolve))]
    hits: list[dict[str, Any]] = []
    page = campaign_of(table).page
    for foe in foes:
        choice = dodge.get(foe.name, "half")
        for _ in range(foe.health if foe.is_minion else 1):  # every minion in the area defends (L248)
            guard = throw(table, defence_pool(table, foe, lethal=lethal, area=choice))
            throws.append(guard)
            hits.append({"type": "plain", "attack": throws[0].entry["id"], "defence": guard.entry["id"],
                         "target": foe.name, "effect": spec.get("effect"),
                         **({"minion": {foe.name: "one"}} if foe.is_minion else {})})
        if choice == "skip" and throws[-1].entry["active"]:
            foe.page_lost(page=page + 1, reason="took cover from an area attack (L249)")
    open_exchange(table, "attack", throws, hits=hits, attacker=attacker, source=f"{attacker}'s {spec['name']}",
                  rank=spec["rank"], lethal=lethal, redirect=False, target=None)


def club_attack(
    table: Table, attacker: str, club: str, target: str, trait: str, *,
    lethal: bool | None = None, resolve: int = 0, modifier: int = 0,
) -> None:
    """Hitting one foe with another: −2 dice, both defend; a club that dodges unhurt spoils it (L254-L255)."""
    hero = table.get(Hero, attacker, field="attacker")
    if len({attacker, club, target}) != 3:
        raise RuleViolation("attacker, club and target are three different characters", field="club")
    first, second = table.get(Hero, club, field="club"), table.get(Hero, target, field="target")
    check_target(first, field="club")
    check_target(second)
    begin_action(table, hero, "club attack", target=target, field="attacker")
    campaign_of(table).use_limit(rules.SAME_TARGET, holder=f"{attacker}>{club}")
    spec, lethal = attack_spec(hero, trait, lethal)
    throws = [throw(table, build_pool(table, hero, spec, role="attack", action=True, resolve=resolve,
                                      extra=[("one foe as a club", rules.CLUB_PENALTY), ("situation", modifier)]))]
    guard = throw(table, defence_pool(table, first, lethal=lethal))
    other = throw(table, defence_pool(table, second, lethal=lethal))
    throws += [guard, other]
    hit = {"type": "club", "attack": throws[0].entry["id"], "club_roll": guard.entry["id"], "club": club,
           "club_active": guard.entry["active"], "defence": other.entry["id"], "target": target,
           "effect": spec.get("effect"), "minion": {n: "group" for n in (club, target) if table.get(Hero, n).is_minion}}
    open_exchange(table, "attack", throws, hits=[hit], attacker=attacker, source=f"{attacker}'s {spec['name']}",
                  rank=spec["rank"], lethal=lethal, redirect=False, target=target)


def team_attack(table: Table, target: str, members: list[dict[str, Any]], *, creative: bool = False) -> None:
    """At the very end of the page, on one target: +2 dice each, 1 Resolve to explode 6s (L271-L273)."""
    foe = table.get(Hero, target, field="target")
    check_target(foe)
    names = [m["attacker"] for m in members]
    if len(set(names)) != len(names) or len(names) < 2 or target in names:
        raise RuleViolation("a team attack is two or more different characters on one other target (L271-L272)",
                            field="members")
    pools: list[dict[str, Any]] = []
    hits: list[dict[str, Any]] = []
    lethal_any = False
    for member in members:
        hero = table.get(Hero, member["attacker"], field="members")
        begin_action(table, hero, "team attack", target=target, team=tuple(names), field="members")
        if not creative:  # the GM may allow more for especially creative cases (L273)
            campaign_of(table).use_limit(rules.TEAM_ATTACK, holder=hero.name)
        spec, lethal = attack_spec(hero, member["trait"], member.get("lethal"))
        lethal_any = lethal_any or lethal
        if member.get("explode"):
            hero.spend_resolve(1, "team_explode", field="members")
        pool = build_pool(table, hero, spec, role="attack", action=True, explode=bool(member.get("explode")),
                          extra=[("team attack", rules.TEAM_ATTACK_BONUS), ("weapon", member.get("weapon", 0))])
        hits.append({"type": "plain", "attack": len(pools), "defence": len(pools) + 1,
                     "target": target, "effect": spec.get("effect"),
                     **({"minion": {target: "group"}} if foe.is_minion else {})})
        pools += [pool, defence_pool(table, foe, lethal=lethal)]
    foresee(table, "attack", pools, hits=hits)
    throws = throw_all(table, pools, hits)
    open_exchange(table, "attack", throws, hits=hits, attacker=names[0], source=f"team attack of {', '.join(names)}",
                  rank=max(t.entry["pool"][0][1] for t in throws if t.entry["role"] == "attack"),
                  lethal=lethal_any, redirect=False, target=target, team=names)


def take_damage(table: Table, character: str, amount: int, lethal: bool) -> None:
    """Damage decided elsewhere: Health down by it, never below 0; at 0 defeated (L186)."""
    hero = table.get(Hero, character)
    check_target(hero, field="character")
    units = (1 if amount > 0 else 0) if hero.is_minion and table.campaign.option("minions") == "one_per_attack" else amount
    loss = min(units, hero.health)
    if loss:
        kind_ = "lethal" if lethal else "nonlethal"
        hero.lose_health(damage=amount, loss=loss, page=campaign_of(table).page,
                         source=f"{kind_} damage (take_damage)")
