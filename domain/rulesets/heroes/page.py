"""Time in the superhero game: pages, initiative, actions, and what happens at each boundary (§1, §7.1-§7.2).

A page (ход/страница) is a few seconds in which everyone acts once (L11, L126). `next_page`
ends the page (special effects count down, an unspent desperate Resolve lapses, delayed actions
that never came are lost) and begins the next one, with its initiative order while a battle is open.
"""

from __future__ import annotations

from typing import Any

from ... import boundaries
from ...errors import RuleViolation
from ...table import Table
from ...timeline import Scope
from . import rules
from .campaign import PAGE, HeroesCampaign
from .exchange import campaign_of
from .hero import Hero


# --- initiative (§7.1) ------------------------------------------------------------------


def present(table: Table) -> list[Hero]:
    """Who the pages of the moment concern: the battle's cast when the GM named one (L126: «участники
    боя», the participants of the battle), else every character of the campaign, as before casts."""
    fighters = campaign_of(table).fighters
    if fighters is None or not campaign_of(table).is_open(Scope.BATTLE):
        return table.all(Hero)
    return [table.get(Hero, name) for name in fighters]


def paged(table: Table) -> list[Hero]:
    """Those present (`present`) whose page can end with something to do: written since the last page's end
    (campaign.PAGE), in the order `present` gives them, not every character ever created."""
    fighters = campaign_of(table).fighters
    if fighters is None or not campaign_of(table).is_open(Scope.BATTLE):
        return table.stirred(Hero, PAGE)
    stirred = table.campaign.stirred[PAGE]
    return [table.get(Hero, name) for name in fighters if name in stirred]


def initiative(cast: list[Hero]) -> tuple[list[list[str]], dict[str, int]]:
    """Who of `cast` (those present in the battle) acts when: act-first buyers, then descending Edge,
    ties by role, minions last (L126-L136).

    Characters of the same role with the same Edge act simultaneously (L132): one inner list.
    Under the GM's variant (L137) buying act first doubles Edge instead. Only the battle's
    participants are in the order (L130), so nobody outside it has to pass.
    """
    standing = [h for h in cast if not h.defeated]

    def key(hero: Hero) -> tuple[int, int, int, int]:
        return (0 if hero.acts_first else 1, 1 if hero.is_minion else 0, -hero.edge, rules.ROLES.index(hero.role))

    order: list[list[str]] = []
    last: tuple[int, int, int, int] | None = None
    for hero in sorted(standing, key=key):
        if key(hero) == last:
            order[-1].append(hero.name)
        else:
            order.append([hero.name])
            last = key(hero)
    return order, {h.name: h.edge for h in standing}


def position(table: Table, name: str) -> int | None:
    init = campaign_of(table).initiative
    if init is None or init["page"] != campaign_of(table).page:
        return None
    return next((i for i, group in enumerate(init["order"]) if name in group), None)


def turn_passed(table: Table, target: Hero, actor: str | None) -> bool:
    """Has the target's turn in this page gone by? It has if he acted or passed, or comes before the actor."""
    page = campaign_of(table).page
    if target.had_turn(page):
        return True
    mine, theirs = position(table, target.name), position(table, actor) if actor else None
    return mine is not None and theirs is not None and mine < theirs


def next_page(table: Table) -> int:
    """End the page and begin the next (L11, L126); a page happens in a scene (L11)."""
    campaign = campaign_of(table)
    if not campaign.is_open(Scope.SCENE):
        raise RuleViolation("pages are the seconds of a scene (L11); start a scene first", field="type")
    if campaign.page:
        end_of_page(table, campaign.page)
    number = campaign.tick(Scope.MOVE)
    if campaign.is_open(Scope.BATTLE):
        cast = present(table)
        order, edges = initiative(cast)
        campaign.set_initiative(page=number, order=order, edges=edges)
        for hero in cast:
            if hero.has_past_pages(before=number):
                hero.forget_pages(before=number)
    return number


def end_of_page(table: Table, page: int) -> None:
    campaign = campaign_of(table)
    for hero in paged(table):
        for name, effect in list(hero.effects.items()):
            if effect["until"] != "pages" or effect["defeating"]:
                continue
            if effect["fresh"] == page and campaign.option("effect_countdown") != "every_page":
                # Applied after his turn had passed: it counts down at the end of his next turn (H-11).
                hero.set_effect(effect=name, state={**effect, "fresh": None}, reason="applied after his turn (H-11)")
                continue
            if effect["pages"] <= 1:
                hero.end_effect(effect=name, reason="its pages are over (L195; H-11)")
            else:
                hero.set_effect(effect=name, state={**effect, "pages": effect["pages"] - 1}, reason="a page went by (H-11)")
        if hero.desperation_page == page:
            hero.pass_out(reason="the desperate Resolve was not spent in its page (L103)", resolve=hero.resolve - 1)
    init = campaign.initiative
    if init is not None and init["page"] == page:
        lost = [c for c, moment in init["delayed"].items() if moment not in init["triggered"]]
        if lost:
            campaign.delays_lost(page=page, characters=lost)


# --- acting in a page (§7.2) --------------------------------------------------------------


def in_battle_page(table: Table) -> int | None:
    """The page of the open battle, or None outside battle; refuses a battle without its first page."""
    campaign = campaign_of(table)
    if not campaign.is_open(Scope.BATTLE):
        return None
    if campaign.battle_page is None or campaign.page < campaign.battle_page:
        raise RuleViolation(
            f"battle {campaign.number(Scope.BATTLE)} has not begun its first page: next_page (L126)", field="type"
        )
    return campaign.page


def can_act(table: Table, hero: Hero, *, field: str = "character", moving: bool = False) -> int | None:
    """Refuse an action of someone who cannot act now; the page, if a battle is on.

    `moving`: his movement, which is not his action (L141): it is kept in all-out defence (L263)
    and in a page whose action he gave up (L257), and is not the simultaneous attack that a
    character felled by his own group still makes (L132).
    """
    if hero.unconscious:
        raise RuleViolation(f"{hero.name} is unconscious until the end of the scene (L103)", field=field)
    page = in_battle_page(table)
    if page is None:
        return None
    if hero.defeated and (moving or not strikes_back(table, hero, page)):
        raise RuleViolation(f"{hero.name} is defeated and cannot continue the fight (L186, L195)", field=field)
    in_battle(table, hero.name, field=field)
    if page in hero.lost_pages:
        raise RuleViolation(f"{hero.name} loses page {page} and cannot act in it: {hero.lost_because[page]}",
                            field=field)
    given_up = hero.gave_up_action(page)
    if given_up is not None and not moving:
        raise RuleViolation(
            f"{hero.name} gave up his action of page {page}: {given_up}; he may still move (L141)", field=field
        )
    if "all_out_defence" in hero.stance_in(page) and not moving:
        raise RuleViolation(
            f"{hero.name} is in all-out defence this page: no attacks or other actions (L262); "
            "movement and free actions are still allowed (L263)",
            field=field,
        )
    init = campaign_of(table).initiative or {}
    moment = init.get("delayed", {}).get(hero.name)
    if moment is not None and moment not in init.get("triggered", []):
        raise RuleViolation(
            f"{hero.name} delayed the action until {moment!r}, which has not come (L135)", field=field
        )
    return page


def strikes_back(table: Table, hero: Hero, page: int) -> bool:
    """Was he felled in this page by one of his own simultaneous group (same Edge, same side) before
    his turn came? Then his attack happens at the same moment all the same, and its damage applies:
    «атаки происходят одновременно и возможны ситуации, когда персонажи вырубают друг друга» (L132),
    the stated exception to L186."""
    return hero.felled_in_group == page and not hero.had_turn(page)


def felled_by_his_group(table: Table, target: Hero, attackers: list[str], page: int) -> None:
    """Mark a target his own simultaneous group just defeated before his turn (see `strikes_back`)."""
    campaign = campaign_of(table)
    init = campaign.initiative
    if (init is None or init["page"] != page or campaign.page != page or not target.defeated
            or target.felled_in_group == page or target.had_turn(page) or target.name in init["delayed"]):
        return
    mine = position(table, target.name)
    by = [name for name in attackers if name != target.name and position(table, name) == mine]
    if mine is not None and by:
        target.felled_by_his_group(page=page, by=", ".join(by))


def still_to_act(table: Table, other: Hero, page: int) -> bool:
    """Is his turn of the page yet to come? Not once he acted, passed or delayed (L135), nor while he
    cannot act (defeated, unconscious, a lost page or its action given up, all-out defence); but one
    felled by his own simultaneous group still makes his attack (L132)."""
    init = campaign_of(table).initiative or {}
    return not (other.had_turn(page) or other.name in init.get("delayed", {})
                or (other.defeated and not strikes_back(table, other, page))
                or other.unconscious or page in other.lost_pages or other.gave_up_action(page) is not None
                or "all_out_defence" in other.stance_in(page))


def in_turn(table: Table, hero: Hero, page: int, *, team: tuple[str, ...] = (), field: str = "character") -> None:
    """Characters act in Edge order (L126), a simultaneous group in any order among itself (L132);
    a team attack comes at the very end of the page (L272); a delayed action at its moment (L135)."""
    campaign = campaign_of(table)
    init = campaign.initiative
    if table.campaign.option("initiative_order") == "free" or init is None or init["page"] != page:
        return
    if hero.name in init["delayed"]:
        return
    mine = position(table, hero.name)
    if mine is None and not team:
        return  # he joined after the page's order was set
    ahead = [name for i, group in enumerate(init["order"]) if team or i < mine for name in group
             if name != hero.name and name not in team and still_to_act(table, table.get(Hero, name), page)]
    if not ahead:
        return
    edges = ", ".join(f"{name} (Edge {init['edges'][name]})" for name in ahead)
    when = ("a team attack comes at the very end of the page (L272)" if team else
            f"characters act in Edge order (L126), and {hero.name} has Edge {init['edges'][hero.name]}")
    raise RuleViolation(
        f"{edges} act{'s' if len(ahead) == 1 else ''} before {hero.name} in page {page}: {when}; "
        "each acts, passes (`pass`) or delays his action (`delay_action`) first",
        field=field,
    )


def begin_action(
    table: Table, hero: Hero, action: str, *, target: str | None = None, team: tuple[str, ...] = (),
    field: str = "character",
) -> None:
    """One action of the page, in his turn: counted against the declared actions, one attack per
    target (L141-L143)."""
    page = can_act(table, hero, field=field)
    if page is None:
        return
    if hero.passed_page == page:
        raise RuleViolation(f"{hero.name} passed his turn in page {page} (L126)", field=field)
    in_turn(table, hero, page, team=team, field=field)
    campaign = campaign_of(table)
    campaign.use_limit(rules.actions(hero.declared_actions(page)), holder=hero.name)
    if target is not None:
        in_battle(table, target, field="target")
        campaign.use_limit(rules.SAME_TARGET, holder=f"{hero.name}>{target}")
    hero.acted(page=page, action=action)


def declare_actions(table: Table, character: str, count: int) -> None:
    """More than one action: every action roll of the page at -2 dice per extra action (L142)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("actions are declared for a page of a battle (L139-L142)", field="type")
    if hero.had_turn(page):
        raise RuleViolation(f"{character} has already had his turn in page {page}; declare actions first",
                            field="count")
    hero.actions_declared(page=page, count=count)


def delay_action(table: Table, character: str, moment: str) -> None:
    """Hold the action until a moment of the page; lost if it never comes (L135)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("an action is delayed within a page of a battle (L135)", field="type")
    if hero.had_turn(page):
        raise RuleViolation(f"{character} has already had his turn in page {page}", field="character")
    if hero.defeated:
        raise RuleViolation(f"{character} was felled by his own simultaneous group: his attack comes at the same "
                            "moment as theirs (L132) or not at all, and is not delayed", field="character")
    campaign_of(table).delay(character=character, moment=moment)


def pass_turn(table: Table, character: str) -> None:
    """Let his turn of the page go by without an action, so the slower may act (L126); he still
    defends (L141). Later in the page he acts no more; to act later he delays instead (L135)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("a turn is passed in a page of a battle (L126)", field="type")
    if hero.had_turn(page):
        raise RuleViolation(f"{character} has already had his turn in page {page}", field="character")
    if hero.name in (campaign_of(table).initiative or {}).get("delayed", {}):
        raise RuleViolation(f"{character} delayed his action in page {page} (L135)", field="character")
    hero.passed(page=page)


def trigger_moment(table: Table, moment: str) -> list[str]:
    """The moment came: who waited for it acts now, in the usual initiative order (L135)."""
    campaign = campaign_of(table)
    init = campaign.initiative
    if init is None or init["page"] != campaign.page:
        raise RuleViolation("no page of a battle is under way", field="moment")
    waiting = [c for c, m in init["delayed"].items() if m == moment]
    if not waiting:
        raise RuleViolation(f"nobody delayed an action until {moment!r}", field="moment")
    if moment in init["triggered"]:
        raise RuleViolation(f"{moment!r} has already come this page", field="moment")
    last = len(init["order"])  # one not in the order (he joined later) follows it
    ordered = sorted(waiting, key=lambda c: (p if (p := position(table, c)) is not None else last))
    campaign.trigger(moment=moment, characters=ordered)
    return ordered


# --- who is in the battle (L126, L130) ---------------------------------------------------------


def in_battle(table: Table, name: str, *, field: str) -> None:
    """Refuse one who is not in the battle's cast: he acts and is attacked only once he joins."""
    campaign = campaign_of(table)
    if campaign.fighters is not None and name not in campaign.fighters:
        raise RuleViolation(
            f"{name} is not in battle {campaign.number(Scope.BATTLE)}: the GM brings him in with `join_battle`",
            field=field,
        )


def cast_battle(table: Table, characters: list[str]) -> None:
    """The battle's participants (L130), named by the GM when it starts; each a character of the campaign."""
    if len(set(characters)) != len(characters):
        twice = sorted({c for c in characters if characters.count(c) > 1})
        raise RuleViolation(f"{', '.join(twice)} named twice", field="characters")
    for name in characters:
        table.get(Hero, name, field="characters")
    campaign_of(table).cast_battle(characters=characters)


def join_battle(table: Table, character: str) -> None:
    """One more in the fight: in the initiative order from the next page (he joined after this one's was set)."""
    campaign = _battle_with_cast(table, "joins")
    table.get(Hero, character)
    if character in (campaign.fighters or []):
        raise RuleViolation(f"{character} is already in battle {campaign.number(Scope.BATTLE)}", field="character")
    campaign.join_battle(character=character)


def leave_battle(table: Table, character: str) -> None:
    """He is out of the fight (fled, carried off): out of the order from the next page."""
    campaign = _battle_with_cast(table, "leaves")
    hero = table.get(Hero, character)
    in_battle(table, character, field="character")
    if hero.acts_first or hero.edge_doubled or hero.stance:
        hero.battle_over()
    campaign.leave_battle(character=character)


def _battle_with_cast(table: Table, verb: str) -> HeroesCampaign:
    campaign = campaign_of(table)
    if not campaign.is_open(Scope.BATTLE):
        raise RuleViolation(f"no battle is under way for a character to {verb.removesuffix('s')}", field="type")
    if campaign.fighters is None:
        raise RuleViolation(
            f"battle {campaign.number(Scope.BATTLE)} was started without `characters`: everyone standing is in it, "
            f"nobody {verb}",
            field="type",
        )
    return campaign


# --- boundaries -----------------------------------------------------------------------------


def start_issue(table: Table, title: str | None, characters: list[str] | None) -> None:
    """An issue (the heroes' chapter) starts, renewing the Resolve of those in play (start_of_issue)."""
    boundaries.start(table, Scope.CHAPTER, title)
    start_of_issue(table, characters)


def start_of_issue(table: Table, characters: list[str] | None = None) -> None:
    """Resolve back to its starting stock (L19; H-1) and the GM's Adversity = the heroes (L85, L118; H-9).

    `characters`: those in play in this issue (L118: «количеству героев в начале игры», the heroes at
    its start; H-9: the player heroes present), named by the GM; only their Resolve is renewed.
    Without it, every character of the campaign, as before.
    """
    campaign = campaign_of(table)
    if characters is None:
        heroes = table.all(Hero)
    else:
        if len(set(characters)) != len(characters):
            raise RuleViolation(f"{', '.join(sorted({c for c in characters if characters.count(c) > 1}))} "
                                "named twice", field="characters")
        heroes = [table.get(Hero, name, field="characters") for name in characters]
    trait_limit, reading = campaign.trait_limit, campaign.option("resolve_renewal")
    for hero in heroes:
        if hero.is_minion:
            continue
        starting = hero.starting_resolve(trait_limit)
        resolve = max(hero.resolve, starting) if reading == "top_up" else starting
        hero.renew_resolve(resolve=resolve, starting=starting, reading=reading)
    count = sum(1 for h in heroes if h.is_hero)
    campaign.renew_adversity(adversity=count, heroes=count)


def start_battle(table: Table, title: str | None, characters: list[str] | None) -> None:
    """A battle starts; its participants, when the GM names them, are cast at once (cast_battle)."""
    boundaries.start(table, Scope.BATTLE, title)
    if characters is not None:
        cast_battle(table, characters)


def start_of_battle(table: Table) -> None:
    campaign_of(table).battle_begins(first_page=campaign_of(table).page + 1)


def end_of_battle(table: Table) -> None:
    for hero in present(table):
        if hero.acts_first or hero.edge_doubled or hero.stance:
            hero.battle_over()
    campaign_of(table).battle_ends()


def end_of_scene(table: Table) -> None:
    """Effects of the scene end; an extended one lasts one more (L195, L199); the unconscious wake (L103)."""
    campaign = campaign_of(table)
    for hero in table.stirred(Hero, "end:scene"):
        for name, effect in list(hero.effects.items()):
            if effect["until"] == "next_scene":
                hero.set_effect(effect=name, state={**effect, "until": "scene"}, reason="extended to this scene (L199)")
            else:
                # Page effects end with their scene too (Note, not in the source).
                hero.end_effect(effect=name, reason="the scene ended (L195)")
        if hero.unconscious:
            hero.came_to(reason="the scene ended (L103)")
        if hero.desperation_page is not None:
            hero.pass_out(reason="the scene ended before the desperate Resolve was spent (L103)", resolve=hero.resolve - 1)
            hero.came_to(reason="the scene ended (L103)")
        if hero.moment is not None:
            hero.moment_ended(effort=hero.moment["effort"], reason="the scene ended")
    if campaign.scene_adversity is not None:
        campaign.close_scene_pool(left=campaign.scene_adversity)


def effect_state(pages: int, page: int, fresh: bool, **extra: Any) -> dict[str, Any]:
    return {"pages": pages, "until": "pages", "defeating": False, "page": page,
            "fresh": page if fresh else None, **extra}
