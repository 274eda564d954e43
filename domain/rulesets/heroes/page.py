"""Time in the superhero game: pages, initiative, actions, and what happens at each boundary (§1, §7.1-§7.2).

A page (ход/страница) is a few seconds in which everyone acts once (L11, L126). `next_page`
ends the page (special effects count down, an unspent desperate Resolve lapses, delayed actions
that never came are lost) and begins the next one, with its initiative order while a battle is open.
Whose turn it is, and the action begun in it, are turns.py.
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
from .turns import can_act, in_battle, position


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


# --- actions declared, delayed and passed (§7.2) -------------------------------------------


def declare_actions(table: Table, character: str, count: int) -> None:
    """More than one action: every action roll of the page at -2 dice per extra action (L142)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("actions are declared for a page of a battle (L139-L142)", field="type")
    if hero.had_turn(page):
        raise RuleViolation("{character} has already had his turn in page {page}; declare actions first",
                            field="count", character=character, page=page)
    hero.actions_declared(page=page, count=count)


def delay_action(table: Table, character: str, moment: str) -> None:
    """Hold the action until a moment of the page; lost if it never comes (L135)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("an action is delayed within a page of a battle (L135)", field="type")
    if hero.had_turn(page):
        raise RuleViolation(
            "{character} has already had his turn in page {page}",
            field="character", character=character, page=page,
        )
    if hero.defeated:
        raise RuleViolation(
            "{character} was felled by his own simultaneous group: his attack comes at the same moment as theirs "
            "(L132) or not at all, and is not delayed",
            field="character", character=character,
        )
    campaign_of(table).delay(character=character, moment=moment)


def pass_turn(table: Table, character: str) -> None:
    """Let his turn of the page go by without an action, so the slower may act (L126); he still
    defends (L141). Later in the page he acts no more; to act later he delays instead (L135)."""
    hero = table.get(Hero, character)
    page = can_act(table, hero)
    if page is None:
        raise RuleViolation("a turn is passed in a page of a battle (L126)", field="type")
    if hero.had_turn(page):
        raise RuleViolation(
            "{character} has already had his turn in page {page}",
            field="character", character=character, page=page,
        )
    if hero.name in (campaign_of(table).initiative or {}).get("delayed", {}):
        raise RuleViolation(
            "{character} delayed his action in page {page} (L135)",
            field="character", character=character, page=page,
        )
    hero.passed(page=page)


def trigger_moment(table: Table, moment: str) -> list[str]:
    """The moment came: who waited for it acts now, in the usual initiative order (L135)."""
    campaign = campaign_of(table)
    init = campaign.initiative
    if init is None or init["page"] != campaign.page:
        raise RuleViolation("no page of a battle is under way", field="moment")
    waiting = [c for c, m in init["delayed"].items() if m == moment]
    if not waiting:
        raise RuleViolation("nobody delayed an action until {moment!r}", field="moment", moment=moment)
    if moment in init["triggered"]:
        raise RuleViolation("{moment!r} has already come this page", field="moment", moment=moment)
    last = len(init["order"])  # one not in the order (he joined later) follows it
    ordered = sorted(waiting, key=lambda c: (p if (p := position(table, c)) is not None else last))
    campaign.trigger(moment=moment, characters=ordered)
    return ordered


# --- who is in the battle (L126, L130) ---------------------------------------------------------


def cast_battle(table: Table, characters: list[str]) -> None:
    """The battle's participants (L130), named by the GM when it starts; each a character of the campaign."""
    if len(set(characters)) != len(characters):
        twice = sorted({c for c in characters if characters.count(c) > 1})
        raise RuleViolation("{twice} named twice", field="characters", twice=", ".join(twice))
    for name in characters:
        table.get(Hero, name, field="characters")
    campaign_of(table).cast_battle(characters=characters)


def join_battle(table: Table, character: str) -> None:
    """One more in the fight: in the initiative order from the next page (he joined after this one's was set)."""
    campaign = _battle_with_cast(table, "joins")
    table.get(Hero, character)
    if character in (campaign.fighters or []):
        raise RuleViolation(
            "{character} is already in battle {number}",
            field="character", character=character, number=campaign.number(Scope.BATTLE),
        )
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
        raise RuleViolation(
            "no battle is under way for a character to {verb}",
            field="type", verb=verb.removesuffix("s"),
        )
    if campaign.fighters is None:
        raise RuleViolation(
            "battle {number} was started without `characters`: everyone standing is in it, nobody {verb}",
            field="type", number=campaign.number(Scope.BATTLE), verb=verb,
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
            twice = ", ".join(sorted({c for c in characters if characters.count(c) > 1}))
            raise RuleViolation("{twice} named twice", field="characters", twice=twice)
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
    """Act first and stances end with the battle; so does a page lost, or a page's action given up, in a
    page it never reached (L266 «следующий ход», L257: the next page of that fight; L11)."""
    battle = campaign_of(table).number(Scope.BATTLE)
    for hero in present(table):
        if hero.acts_first or hero.edge_doubled or hero.stance:
            hero.battle_over()
        if hero.owes_pages():
            hero.pages_lapsed(reason=f"battle {battle} ended (L11, L19)")
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
        if hero.owes_pages():  # one lost outside a battle, or by one who left the battle (L19)
            hero.pages_lapsed(reason=f"scene {campaign.number(Scope.SCENE)} ended (L11, L19)")
    if campaign.scene_adversity is not None:
        campaign.close_scene_pool(left=campaign.scene_adversity)


def effect_state(pages: int, page: int, fresh: bool, **extra: Any) -> dict[str, Any]:
    return {"pages": pages, "until": "pages", "defeating": False, "page": page,
            "fresh": page if fresh else None, **extra}
