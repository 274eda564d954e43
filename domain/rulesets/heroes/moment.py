"""The Defining Moment (§4.3): once a story per hero, one hero a scene, and the Ability rank it costs after.
"""

from __future__ import annotations

from ...errors import RuleViolation, Word
from ...table import Table
from ...timeline import Scope
from . import rules
from .exchange import campaign_of
from .hero import Hero


def declare_defining_moment(table: Table, character: str, effort: str, lasting: bool) -> None:
    """Once a story per character, one hero a scene (L79); players' heroes only (H-22)."""
    hero = table.get(Hero, character)
    campaign = campaign_of(table)
    if not hero.is_hero:
        raise RuleViolation("{character} is a {role}; a player declares a Defining Moment for his hero (L77; H-22)",
                            field="character", character=character, role=hero.role)
    if hero.moment is not None:
        raise RuleViolation("{character} is in a Defining Moment already", field="character", character=character)
    if hero.must_lower is not None:
        raise RuleViolation(
            "{character} must first lower a {must_lower} Ability (L79)",
            field="character", character=character, must_lower=Word(hero.must_lower),
        )
    if hero.unconscious:
        raise RuleViolation(
            "{character} is unconscious until the end of the scene (L103)",
            field="character", character=character,
        )
    scene = table.scene()
    if scene is None:
        raise RuleViolation("a Defining Moment is declared in a scene: one hero per scene (L79)", field="character")
    campaign.check_limit(rules.DEFINING_MOMENT, holder=character)
    holder = scene.claims.get("defining_moment")
    if holder is not None:
        raise RuleViolation(
            "only one hero per scene may declare a Defining Moment (L79): {holder} did in scene {number}",
            field="character", holder=holder, number=scene.number,
        )
    campaign.use_limit(rules.DEFINING_MOMENT, holder=character)
    scene.claim("defining_moment", by=character)
    hero.moment_declared(story=campaign.number(Scope.STORY), scene=scene.number, effort=effort, lasting=lasting)


def end_defining_moment(table: Table, character: str) -> None:
    hero = table.get(Hero, character)
    if hero.moment is None:
        raise RuleViolation("{character} is in no Defining Moment", field="character", character=character)
    hero.moment_ended(effort=hero.moment["effort"], reason="its action is over (L78)")


def lower_ability(table: Table, character: str, ability: str) -> None:
    """After the Moment one Ability of the effort's kind loses a rank; Edge and Health follow (L79; invariant 7)."""
    hero = table.get(Hero, character)
    if hero.must_lower is None:
        raise RuleViolation(
            "{character} owes no Ability rank: that follows a Defining Moment (L79)",
            field="ability", character=character,
        )
    allowed = rules.EFFORT_ABILITIES[hero.must_lower]
    if ability not in allowed:
        raise RuleViolation(
            "after a {must_lower} Defining Moment the rank comes off {allowed} (L79)",
            field="ability", must_lower=Word(hero.must_lower), allowed=", ".join(allowed),
        )
    rank = hero.abilities[ability] - 1
    if rank < 0:
        raise RuleViolation(
            "{character}'s {ability} is 0 already",
            field="ability", character=character, ability=Word(ability),
        )
    abilities = {**hero.abilities, ability: rank}
    # Note (not in the source): current Health is capped at the new maximum.
    health = min(hero.health, rules.max_health(abilities)) if not hero.is_minion else hero.health
    hero.ability_lowered(ability=ability, rank=rank, health=health)
    hero.meet_effects(f"{ability} lowered, Health {health}")


def restore_ability(table: Table, character: str, ability: str, cost: str) -> None:
    """A rank lost to a Defining Moment is bought back with ГО (L80), a currency the source never defines (H-2)."""
    hero = table.get(Hero, character)
    if not hero.lowered.get(ability):
        raise RuleViolation(
            "{character}'s {ability} lost no rank to a Defining Moment (L80)",
            field="ability", character=character, ability=Word(ability),
        )
    hero.ability_restored(ability=ability, rank=hero.abilities[ability] + 1, cost=cost)
