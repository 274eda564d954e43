"""Whose turn it is in a page, and the action begun in it (§7.2): the rules every action of a battle
passes before its own, read by the checks, combat and tactics alike.

page.py keeps the page itself (initiative, its end, declared and delayed actions) and the battle's
cast; both read where a character stands in the order from here.
"""

from __future__ import annotations

from ...errors import Count, RuleViolation
from ...table import Table
from ...timeline import Scope
from . import rules
from .exchange import campaign_of
from .hero import Hero


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


def in_battle_page(table: Table) -> int | None:
    """The page of the open battle, or None outside battle; refuses a battle without its first page."""
    campaign = campaign_of(table)
    if not campaign.is_open(Scope.BATTLE):
        return None
    if campaign.battle_page is None or campaign.page < campaign.battle_page:
        raise RuleViolation(
            "battle {number} has not begun its first page: next_page (L126)",
            field="type", number=campaign.number(Scope.BATTLE),
        )
    return campaign.page


def can_act(table: Table, hero: Hero, *, field: str = "character", moving: bool = False) -> int | None:
    """Refuse an action of someone who cannot act now; the page, if a battle is on.

    `moving`: his movement, which is not his action (L141): it is kept in all-out defence (L263)
    and in a page whose action he gave up (L257), and is not the simultaneous attack that a
    character felled by his own group still makes (L132).
    """
    if hero.unconscious:
        raise RuleViolation("{name} is unconscious until the end of the scene (L103)", field=field, name=hero.name)
    page = in_battle_page(table)
    if page is None:
        return None
    if hero.defeated and (moving or not strikes_back(table, hero, page)):
        raise RuleViolation(
            "{name} is defeated and cannot continue the fight (L186, L195)",
            field=field, name=hero.name,
        )
    in_battle(table, hero.name, field=field)
    if page in hero.lost_pages:
        raise RuleViolation("{name} loses page {page} and cannot act in it: {lost_because}",
                            field=field, name=hero.name, page=page, lost_because=hero.lost_because[page])
    given_up = hero.gave_up_action(page)
    if given_up is not None and not moving:
        raise RuleViolation(
            "{name} gave up his action of page {page}: {given_up}; he may still move (L141)",
            field=field, name=hero.name, page=page, given_up=given_up,
        )
    if "all_out_defence" in hero.stance_in(page) and not moving:
        raise RuleViolation(
            "{name} is in all-out defence this page: no attacks or other actions (L262); movement and free actions "
            "are still allowed (L263)",
            field=field, name=hero.name,
        )
    init = campaign_of(table).initiative or {}
    moment = init.get("delayed", {}).get(hero.name)
    if moment is not None and moment not in init.get("triggered", []):
        raise RuleViolation(
            "{name} delayed the action until {moment!r}, which has not come (L135)",
            field=field, name=hero.name, moment=moment,
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
        "{edges} {act} before {name} in page {page}: {when}; each acts, passes (`pass`) or delays his action "
        "(`delay_action`) first",
        field=field, edges=edges, act=Count(len(ahead), "acts", "act"), name=hero.name, page=page, when=when,
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
        raise RuleViolation("{name} passed his turn in page {page} (L126)", field=field, name=hero.name, page=page)
    in_turn(table, hero, page, team=team, field=field)
    campaign = campaign_of(table)
    campaign.use_limit(rules.actions(hero.declared_actions(page)), holder=hero.name)
    if target is not None:
        in_battle(table, target, field="target")
        campaign.use_limit(rules.SAME_TARGET, holder=f"{hero.name}>{target}")
    hero.acted(page=page, action=action)


def in_battle(table: Table, name: str, *, field: str) -> None:
    """Refuse one who is not in the battle's cast: he acts and is attacked only once he joins."""
    campaign = campaign_of(table)
    if campaign.fighters is not None and name not in campaign.fighters:
        raise RuleViolation(
            "{name} is not in battle {number}: the GM brings him in with `join_battle`",
            field=field, name=name, number=campaign.number(Scope.BATTLE),
        )
