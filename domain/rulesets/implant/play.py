"""How «Имплант» is played at a Table: creation, checks, rounds, bennies and their rerolls.

Combat actions are in combat.py, healing in healing.py; this module holds what the rest of
a session needs. Each function validates, rolls, then calls the aggregates' event methods.
"""

from __future__ import annotations

from typing import Any

from ... import boundaries
from ...dice import Modifier
from ...errors import RuleViolation, Word
from ...table import Table
from ...timeline import Scope
from . import rules
from .bennies import pay_benny
from .character import Character
from .checks import current_round, make_check, reroll_check, require_conscious
from .combat import campaign_of, combat_round, disarm_check, distract, refuse_while_hit_waits
from .damage import apply_soak, reroll_damage, soak
from .healing import natural_healing, natural_healing_result, still_as_treated, treat, treatment_result

# --- character creation (L120-L128) ------------------------------------------------------


def create_character(
    table: Table,
    name: str,
    *,
    player: str | None,
    wild_card: bool | None,
    attributes: dict[str, str] | None,
    skills: dict[str, str],
    armour: int,
    max_wounds: int | None,
    weapons: dict[str, dict[str, Any]],
) -> None:
    """The player's character follows the creation rules; the GM's characters are free-form."""
    attribute_dice = {a: _die(v, f"attributes.{a}") for a, v in (attributes or {}).items()}
    skill_dice = {s: _die(v, f"skills.{s}") for s, v in skills.items()}
    if player is not None:
        wild_card, max_wounds, attribute_dice, skill_dice = _created_by_the_rules(
            wild_card, attribute_dice, skill_dice, armour, max_wounds
        )
    else:
        wild_card = True if wild_card is None else wild_card
        attribute_dice = {a: attribute_dice.get(a, rules.DIE_STEPS[0]) for a in rules.ATTRIBUTES}
        max_wounds = _gm_max_wounds(wild_card, max_wounds)
    table.campaign.enrol(name, Character.kind, player)
    table.add(
        Character(
            campaign=table.campaign.campaign, name=name, player=player, wild_card=wild_card,
            attributes=attribute_dice, skills=skill_dice, armour=armour, max_wounds=max_wounds,
            weapons={n: _weapon(n, w) for n, w in weapons.items()},
            toughness_reading=table.campaign.option("toughness"),
            wound_penalty_per_wound=int(table.campaign.option("wound_penalty_per_wound")),
        )
    )


def _die(text: str, field: str) -> int:
    try:
        return rules.die(text)
    except RuleViolation as error:
        raise RuleViolation(error.template, field=field, **error.values) from None


def _created_by_the_rules(
    wild_card: bool | None, attributes: dict[str, int], skills: dict[str, int], armour: int, max_wounds: int | None
) -> tuple[bool, int, dict[str, int], dict[str, int]]:
    if wild_card is False:
        raise RuleViolation("the player's character is a hero, a wild card (L14, L112)", field="wild_card")
    for attribute, sides in attributes.items():
        if sides != rules.STARTING_ATTRIBUTES[attribute]:
            raise RuleViolation(
                "{attribute} starts at d{starting_attributes}: all attributes d4, Intellect d6 (L121)",
                field="attributes." + attribute, attribute=Word(attribute),
                starting_attributes=rules.STARTING_ATTRIBUTES[attribute],
            )
    if armour != rules.STARTING_ARMOUR:
        raise RuleViolation("no armour at the start (L126)", field="armour")
    if max_wounds not in (None, rules.PC_MAX_WOUNDS):
        raise RuleViolation(
            "the maximum number of wounds is {pc_max_wounds} (L127)",
            field="max_wounds", pc_max_wounds=rules.PC_MAX_WOUNDS,
        )
    final = {**rules.STARTING_SKILLS, **skills}
    for skill, sides in final.items():
        linked = rules.linked_attribute(skill)
        if sides > rules.STARTING_ATTRIBUTES[linked]:
            raise RuleViolation(
                "{skill} d{sides} is above its attribute {linked} d{starting_attributes}: a skill may not exceed its "
                "attribute (L123; I-22)",
                field="skills." + skill, skill=Word(skill), sides=sides, linked=Word(linked),
                starting_attributes=rules.STARTING_ATTRIBUTES[linked],
            )
    points = sum(rules.step(s) - rules.step(rules.STARTING_SKILLS.get(k)) for k, s in final.items())
    if points > rules.CREATION_POINTS:
        raise RuleViolation(
            "the skills cost {points} points; a new character has {creation_points}, one per step (L123; I-26)",
            field="skills", points=points, creation_points=rules.CREATION_POINTS,
        )
    return True, rules.PC_MAX_WOUNDS, dict(rules.STARTING_ATTRIBUTES), final


def _gm_max_wounds(wild_card: bool, max_wounds: int | None) -> int:
    """Extras are out at the first wound; player characters and important NPCs endure two or more (L112)."""
    if not wild_card:
        if max_wounds:
            raise RuleViolation("an Extra is out at his first wound; he has no maximum to set (L112)",
                                field="max_wounds")
        return 0
    if max_wounds is None:
        return rules.PC_MAX_WOUNDS
    if max_wounds < rules.PC_MAX_WOUNDS:
        raise RuleViolation("important NPCs endure two wounds or more (L112)", field="max_wounds")
    return max_wounds


def _weapon(name: str, weapon: dict[str, Any]) -> dict[str, Any]:
    """A weapon: ranged with fixed damage dice and a rate of fire 1-6 (L88, L100), or melee
    whose die adds to Strength (L101)."""
    dice = rules.damage_dice(weapon["damage"])
    rate = weapon.get("rate_of_fire")
    if weapon["kind"] == "ranged":
        rate = 1 if rate is None else rate
        low, high = rules.RATE_OF_FIRE
        if not low <= rate <= high:
            raise RuleViolation(
                "the {name}'s rate of fire must be {low}-{high} (L88)",
                field="weapons." + name, name=name, low=low, high=high,
            )
    elif rate is not None:
        raise RuleViolation(
            "the {name} is a melee weapon and has no rate of fire (L88)",
            field="weapons." + name, name=name,
        )
    return {"kind": weapon["kind"], "damage": rules.dice_text(dice), "dice": dice, "rate_of_fire": rate}


# --- checks (L9-L19) ---------------------------------------------------------------------


def trait_check(
    table: Table, name: str, trait: str, *, tn: int, modifier: int, against: str | None
) -> dict[str, Any]:
    character = table.get(Character, name)
    require_conscious(character)
    opponent = table.get(Character, against, field="against") if against is not None else None
    modifiers = [Modifier("situation", modifier)] if modifier else []
    return make_check(table, character, trait, purpose="trait_check", tn=tn, modifiers=modifiers, against=opponent)


# --- combat boundaries and rounds (L63, L72, L110-L113) ---------------------------------


def check_enemies(table: Table, enemies: list[str], joined: list[str]) -> None:
    """The GM's characters, each once, none already fighting (`joined`)."""
    if len(set(enemies)) != len(enemies):
        raise RuleViolation("an enemy is named twice", field="enemies")
    for name in enemies:
        enemy = table.get(Character, name, field="enemies")
        if enemy.player is not None:
            raise RuleViolation("{name} is the player's character, not an enemy", field="enemies", name=name)
        if name in joined:
            raise RuleViolation("{name} is already in this combat", field="enemies", name=name)


def start_combat(table: Table, title: str | None, enemies: list[str]) -> None:
    """Combat starts (the battle scope): the GM gets one benny per enemy (L63); the first round begins (L72)."""
    check_enemies(table, enemies, joined=[])
    boundaries.start(table, Scope.BATTLE, title)
    if enemies:
        campaign_of(table).gm_bennies_gained(count=rules.GM_BENNIES_PER_ENEMY * len(enemies), enemies=enemies)
    table.campaign.tick(Scope.MOVE)


def enemies_joined(table: Table, enemies: list[str]) -> None:
    """An enemy joining later brings the GM his benny then (L63; invariant 12)."""
    combat_round(table, "joining a combat")
    check_enemies(table, enemies, campaign_of(table).enemies)
    campaign_of(table).gm_bennies_gained(count=rules.GM_BENNIES_PER_ENEMY * len(enemies), enemies=enemies)


def next_round(table: Table) -> None:
    combat_round(table, "a new round")
    refuse_while_hit_waits(table, "the next round")
    table.campaign.tick(Scope.MOVE)


def end_combat(table: Table) -> None:
    """What lasts "one round" or "the next round" ends with the combat (L82, L89, L96)."""
    for character in table.stirred(Character, "end:battle"):
        if character.vulnerable or character.distracted or character.aim_round is not None or character.action:
            character.combat_statuses_ended()
    campaign_of(table).combat_cleared()


def start_turn(table: Table, name: str) -> None:
    """The start of a character's round: Vulnerable ends (I-19), Distracted counts down (I-13);
    Dying, he makes a Vigor check (L113); Shaken and conscious, a Spirit check (L110)."""
    number = combat_round(table, "a character's round")
    character = table.get(Character, name)
    if character.out or character.unconscious_hours is not None:
        require_conscious(character)  # refuses: the out and the knocked-out have no round (L93, L112)
    refuse_while_hit_waits(table, f"{name}'s round")
    table.campaign.use_limit(rules.TURN, holder=name)
    character.turn_started(
        round=number, vulnerable_ended=character.vulnerable, distracted_turns=max(0, character.distracted_turns - 1)
    )
    if character.dying:
        check = make_check(table, character, "vigor", purpose="dying")
        if check["success"]:
            character.came_to(by="vigor", roll=check["roll"])
    if character.shaken and not character.dying:
        check = make_check(table, character, "spirit", purpose="recovery")
        if check["success"]:
            character.unshaken(by="spirit", roll=check["roll"])


def rearm(table: Table, name: str, weapon: str) -> None:
    character = table.get(Character, name)
    if weapon not in character.disarmed:
        raise RuleViolation("{name} was not disarmed of a {weapon!r} (L95)", field="weapon", name=name, weapon=weapon)
    character.rearm(weapon=weapon)


# --- bennies (L63-L69) -------------------------------------------------------------------


def spend_benny(table: Table, name: str, purpose: str, note: str | None) -> None:
    character = table.get(Character, name)
    if purpose == "reroll":
        reroll(table, character)
    elif purpose == "unshake":
        if not character.shaken:
            raise RuleViolation("{name} is not Shaken (L65)", field="purpose", name=name)
        pay_benny(table, character, purpose)
        character.unshaken(by="benny", roll=None)  # L111
    elif purpose == "soak":
        soak(table, name)
    elif purpose == "damage_reroll":
        reroll_damage(table, character)
    elif purpose == "energy":
        pay_benny(table, character, purpose)
        character.restore_energy(cells=rules.ENERGY_CELLS_PER_BENNY)  # L68
    else:
        if not note:
            raise RuleViolation("say how the story changes in `note` (L69)", field="note")
        pay_benny(table, character, purpose)
        character.influence_story(note=note)


def reroll(table: Table, character: Character) -> None:
    """Reroll the latest check and keep the better (L64); never a critical failure (L64)."""
    check = character.last_check
    if check is None:
        raise RuleViolation("{name} has made no check to reroll (L64)", field="purpose", name=character.name)
    if check["critical_failure"]:
        raise RuleViolation("a critical failure cannot be rerolled (L64)", field="purpose")
    if table.campaign.option("benny_reroll") == "skill_checks" and check["trait"] not in rules.SKILLS:
        raise RuleViolation(
            "this campaign rerolls skill checks only, and {trait} is an attribute (L64; I-16)",
            field="purpose", trait=Word(check["trait"]),
        )
    _require_open(table, character, check)
    pay_benny(table, character, "reroll")
    before, kept = reroll_check(table, character)
    if kept["roll"] != before["roll"]:
        _improve(table, character, before, kept)


def _require_open(table: Table, character: Character, check: dict[str, Any]) -> None:
    """A check can be rerolled while what it decided is still on the table."""
    purpose, context = check["purpose"], check["context"]
    campaign = campaign_of(table)
    if purpose.startswith("attack:"):
        is_open = campaign.attack is not None and campaign.attack["check"] == check["roll"] \
            and not campaign.attack["damage_rolled"]
    elif purpose == "disarm":
        is_open = campaign.attack is not None and campaign.attack["check"] == context["attack"]
    elif purpose == "soak":
        is_open = campaign.damage is not None and campaign.damage["soaked"] == check["roll"]
    elif purpose in ("recovery", "dying", "taunt"):
        is_open = check["round"] is not None and check["round"] == current_round(table)
    elif purpose == "heal":
        patient = table.get(Character, context["patient"], field="patient")
        is_open = still_as_treated(patient, treatment_result(patient, context["before"], check))
    elif purpose == "natural_healing":
        is_open = still_as_treated(character, natural_healing_result(character, context["before"], check))
    else:
        is_open = True
    if not is_open:
        raise RuleViolation(
            "{name}'s latest check ({roll}, {purpose}) is settled: what it decided has moved on",
            field="purpose", name=character.name, roll=check["roll"], purpose=purpose,
        )


def _improve(table: Table, character: Character, before: dict[str, Any], kept: dict[str, Any]) -> None:
    """What the better result changes, by the kind of check."""
    purpose, context = kept["purpose"], kept["context"]
    campaign = campaign_of(table)
    if purpose.startswith("attack:"):
        assert campaign.attack is not None
        attack = {**campaign.attack, "check": kept["roll"], "hit": kept["success"], "raises": kept["raises"]}
        campaign.attack_rolled(attack=attack)
        if attack["hit"] and not before["success"] and attack["target_weapon"] is not None:
            disarm_check(table, attack)
    elif purpose == "soak":
        assert campaign.damage is not None
        apply_soak(character, campaign.damage, kept)
        campaign.damage_soaked(roll=kept["roll"])
    elif purpose == "recovery" and kept["success"] and character.shaken:
        character.unshaken(by="spirit", roll=kept["roll"])
    elif purpose == "dying" and kept["success"] and character.dying:
        character.came_to(by="vigor", roll=kept["roll"])
    elif purpose == "taunt" and kept["success"] and not before["success"]:
        distract(table, table.get(Character, context["target"], field="target"))
    elif purpose == "disarm" and kept["success"] and context["weapon"] in character.disarmed:
        character.rearm(weapon=context["weapon"])
    elif purpose == "heal":
        treat(table, table.get(Character, context["patient"], field="patient"), character.name, kept)
    elif purpose == "natural_healing":
        natural_healing(table, character, kept)
