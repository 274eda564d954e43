"""Combat (§6): rounds and main actions, attacks with every option, aim, taunt, withdrawal.

An attack is a Fighting check against the target's Parry or a Shooting check against 4
(L78, L85); a hit waits on the campaign for its damage roll (damage.py).
"""

from __future__ import annotations

from typing import Any

from ...dice import Modifier
from ...errors import RuleViolation, UnknownName, Word
from ...table import Table
from . import rules
from .campaign import ImplantCampaign
from .character import Character
from .checks import current_round, make_check, require_conscious

MELEE, RANGED = "melee", "ranged"


def campaign_of(table: Table) -> ImplantCampaign:
    assert isinstance(table.campaign, ImplantCampaign)
    return table.campaign


# --- rounds and main actions (L72-L75) --------------------------------------------------


def combat_round(table: Table, what: str) -> int:
    number = current_round(table)
    if number is None:
        raise RuleViolation("{what} happens in combat rounds; no combat is running (start_battle, L72)", what=what)
    return number


def require_turn(table: Table, character: Character, what: str) -> int:
    """A main action is taken in the character's own round, not Shaken (L72, L110)."""
    number = combat_round(table, what)
    require_conscious(character)
    if character.turn_round != number:
        raise RuleViolation(
            "{name}'s round {number} has not started: start_turn first (L72, L110)",
            field="character", name=character.name, number=number,
        )
    if character.shaken:
        raise RuleViolation(
            "{name} is Shaken: only free actions and movement, no {what} (L110)",
            field="character", name=character.name, what=what,
        )
    return number


def take_main_action(table: Table, character: Character, action: str, what: str) -> int:
    number = require_turn(table, character, what)
    table.campaign.use_limit(rules.MAIN_ACTION, holder=character.name)
    character.action_taken(round=number, action=action, attacks=0, weapon=None)
    return number


def awaiting_damage(attack: dict[str, Any] | None) -> bool:
    return bool(
        attack and attack["hit"] and not attack["damage_rolled"] and attack["called_shot"] != "weapon"
    )


def refuse_while_hit_waits(table: Table, what: str) -> None:
    attack = campaign_of(table).attack
    if awaiting_damage(attack):
        assert attack is not None
        raise RuleViolation(
            "{attacker}'s hit on {target} ({check}) waits for roll_damage before {what} (L99)",
            attacker=attack["attacker"], target=attack["target"], check=attack["check"], what=what,
        )


# --- attacks (L77-L96) -------------------------------------------------------------------


def weapon_for(character: Character, kind: str, name: str | None) -> str | None:
    """The weapon used: the one named, else his only usable one of that kind; unarmed melee
    is the Strength die alone (L101); a ranged attack needs a ranged weapon."""
    usable = {
        n: w for n, w in character.weapons.items() if w["kind"] == kind and n not in character.disarmed
    }
    if name == "unarmed" and kind == MELEE:
        return None
    if name is not None:
        if name not in character.weapons:
            raise UnknownName(
                "{name} has no weapon {weapon!r} (has: {weapons})",
                field="weapon", name=character.name, weapon=name, weapons=", ".join(character.weapons) or Word("none"),
            )
        if name in character.disarmed:
            raise RuleViolation(
                "{name} was disarmed of the {weapon} (L95)",
                field="weapon", name=character.name, weapon=name,
            )
        if character.weapons[name]["kind"] != kind:
            raise RuleViolation(
                "the {name} is a {kind} weapon",
                field="weapon", name=name, kind=Word(character.weapons[name]["kind"]),
            )
        return name
    if len(usable) == 1:
        return next(iter(usable))
    if not usable and kind == MELEE:
        return None
    raise RuleViolation(
        "{name} has {how_many} usable {kind} weapons{name_one}{or_unarmed}",
        field="weapon", name=character.name, how_many=Word("several") if usable else Word("no"), kind=Word(kind),
        name_one=Word(": name one in `weapon`") if usable else "",
        or_unarmed=Word(" (or weapon: unarmed)") if kind == MELEE else "",
    )


def _option_modifiers(kind: str, options: dict[str, Any]) -> list[Modifier]:
    """The declared options of §6.2-§6.4 as modifiers of the attack roll."""
    melee_only = ("desperate", "wild", "free_attack")
    ranged_only = ("range", "cover", "tn")
    for name in melee_only if kind == RANGED else ranged_only:
        if options.get(name):
            raise RuleViolation(
                "{name} is a {kind} option (L77-L89)",
                field="options." + name, name=name, kind=Word("melee") if kind == RANGED else Word("ranged"),
            )
    modifiers = []
    if options.get("desperate"):
        modifiers.append(Modifier("desperate attack", options["desperate"]))  # L81
    if options.get("wild"):
        modifiers.append(Modifier("wild attack", rules.WILD_ATTACK_BONUS))  # L82
    if options.get("range"):
        modifiers.append(Modifier("range", options["range"]))  # L86
    if options.get("cover"):
        modifiers.append(Modifier("cover", options["cover"]))  # L87
    if options.get("off_hand"):
        modifiers.append(Modifier("off hand", rules.OFF_HAND_PENALTY))  # L92
    if options.get("nonlethal"):
        modifiers.append(Modifier("nonlethal", rules.NONLETHAL_PENALTY))  # L93
    if options.get("called_shot"):
        modifiers.append(Modifier(f"called shot ({options['called_shot']})", rules.CALLED_SHOT_PENALTY))  # L94
    if options.get("modifier"):
        modifiers.append(Modifier("situation", options["modifier"]))
    return modifiers


def _action_modifiers(table: Table, attacker: Character, kind: str, weapon: str | None, number: int) -> list[Modifier]:
    """The round's main action: the first attack takes it; then up to two more melee attacks
    at −2 and −4 (L80; I-17), or more shots up to the rate of fire at −2 recoil each (L88; I-11)."""
    action = attacker.action if attacker.action is not None and attacker.action["round"] == number else None
    if action is None:
        table.campaign.use_limit(rules.MAIN_ACTION, holder=attacker.name)
        attacker.action_taken(round=number, action=f"{kind} attack", attacks=1, weapon=weapon)
        return []
    made = int(action["attacks"])
    if kind == MELEE and action["action"] == "melee attack":
        table.campaign.use_limit(rules.EXTRA_MELEE_ATTACK, holder=attacker.name)
        attacker.action_taken(round=number, action=action["action"], attacks=made + 1, weapon=weapon)
        return [Modifier("additional attack", rules.EXTRA_MELEE_PENALTIES[made])]
    if kind == RANGED and action["action"] == "ranged attack" and action["weapon"] == weapon:
        assert weapon is not None
        rate = attacker.weapons[weapon]["rate_of_fire"]
        if made >= rate:
            raise RuleViolation(
                "the {weapon} has rate of fire {rate}: {name} already made {made} attacks with this main action (L88)",
                field="attacker", weapon=weapon, rate=rate, name=attacker.name, made=made,
            )
        attacker.action_taken(round=number, action=action["action"], attacks=made + 1, weapon=weapon)
        return [Modifier("recoil", rules.RECOIL_PENALTY)]
    raise RuleViolation(
        "{name} already took his main action in round {number} ({action}{weapon}); one main action per round (L72)",
        field="attacker", name=attacker.name, number=number, action=action["action"],
        weapon=" with the " + action["weapon"] if action["weapon"] else "",
    )


def _free_attack(table: Table, attacker: Character, target: Character, number: int) -> None:
    """A withdrawing character gives every adjacent opponent able to fight a free attack (L79)."""
    withdrawal = campaign_of(table).withdrawal
    if withdrawal is None or withdrawal["round"] != number or withdrawal["character"] != target.name:
        raise RuleViolation(
            "{name} is not withdrawing from melee this round (L79)", field="options.free_attack", name=target.name
        )
    if attacker.name not in withdrawal["opponents"]:
        raise RuleViolation(
            "{name} is not an adjacent opponent able to fight {target} (free attacks: {opponents}; L79)",
            field="attacker", name=attacker.name, target=target.name,
            opponents=", ".join(withdrawal["opponents"]) or Word("none"),
        )
    instance = f"{target.name} withdrawing, round {number}"
    table.campaign.use_limit(rules.FREE_ATTACK, holder=attacker.name, instance=instance)


def attack(
    table: Table, attacker_name: str, target_name: str, kind: str, weapon_name: str | None, options: dict[str, Any]
) -> dict[str, Any]:
    """Fighting vs Parry (L78) or Shooting vs 4 (L85), with every option of §6.2-§6.4."""
    attacker = table.get(Character, attacker_name, field="attacker")
    target = table.get(Character, target_name, field="target")
    number = combat_round(table, "an attack")
    if attacker is target:
        raise RuleViolation("{attacker_name} cannot attack himself", field="target", attacker_name=attacker_name)
    if target.out:
        raise RuleViolation("{target_name} is already out of the fight (L112)", field="target", target_name=target_name)
    refuse_while_hit_waits(table, "another attack")
    modifiers = _option_modifiers(kind, options)
    weapon = weapon_for(attacker, kind, weapon_name)
    called_weapon = _called_weapon(target, options)
    if options.get("free_attack"):
        require_conscious(attacker, "attacker")
        if attacker.shaken:
            raise RuleViolation(
                "{attacker_name} is Shaken and cannot attack (L110)",
                field="attacker", attacker_name=attacker_name,
            )
        _free_attack(table, attacker, target, number)
    else:
        require_turn(table, attacker, "attack")
        modifiers = _action_modifiers(table, attacker, kind, weapon, number) + modifiers
    if kind == RANGED and attacker.aim_round is not None and attacker.aim_round == number - 1:
        modifiers.append(Modifier("aim", rules.AIM_BONUS))  # L89
    tn = target.parry if kind == MELEE else options.get("tn") or rules.RANGED_TN
    check = make_check(
        table, attacker, "fighting" if kind == MELEE else "shooting", purpose=f"attack:{kind}", tn=tn,
        modifiers=modifiers, against=target, context={"target": target_name},
    )
    if options.get("wild"):
        attacker.became_vulnerable()  # L82, hit or miss
    record = {
        "check": check["roll"], "attacker": attacker_name, "target": target_name, "kind": kind,
        "weapon": weapon, "hit": check["success"], "raises": check["raises"],
        "damage": _damage_dice(attacker, kind, weapon), "damage_modifiers": _damage_modifiers(options),
        "nonlethal": bool(options.get("nonlethal")), "called_shot": options.get("called_shot"),
        "target_weapon": called_weapon, "damage_rolled": False,
    }
    campaign_of(table).attack_rolled(attack=record)
    if record["hit"] and called_weapon is not None:
        disarm_check(table, record)
    return record


def _called_weapon(target: Character, options: dict[str, Any]) -> str | None:
    if options.get("called_shot") != "weapon":
        if options.get("target_weapon"):
            raise RuleViolation("target_weapon goes with called_shot: weapon (L94)", field="options.target_weapon")
        return None
    held = [n for n in target.weapons if n not in target.disarmed]
    wanted = options.get("target_weapon")
    if wanted is None and len(held) == 1:
        return held[0]
    if wanted in held:
        return str(wanted)
    raise RuleViolation(
        "name the weapon of {name} to shoot at in options.target_weapon (holds: {held}; L94)",
        field="options.target_weapon", name=target.name, held=", ".join(held) or Word("none"),
    )


def _damage_dice(attacker: Character, kind: str, weapon: str | None) -> list[list[int]]:
    """Ranged: the weapon's fixed dice (L100); melee: Strength + weapon, unarmed Strength (L101)."""
    weapon_dice = [list(g) for g in attacker.weapons[weapon]["dice"]] if weapon is not None else []
    if kind == RANGED:
        return weapon_dice
    return [[1, attacker.attributes["strength"]], *weapon_dice]


def _damage_modifiers(options: dict[str, Any]) -> list[dict[str, Any]]:
    modifiers = []
    if options.get("desperate"):
        modifiers.append(Modifier("desperate attack", -options["desperate"]).as_dict())  # L81
    if options.get("called_shot") in ("head", "vitals"):
        modifiers.append(Modifier(f"called shot ({options['called_shot']})", rules.CALLED_SHOT_DAMAGE).as_dict())
    return modifiers


def disarm_check(table: Table, attack: dict[str, Any]) -> None:
    """A hit on the weapon (I-29): the target's Strength check or he loses it (L95; TN 4, I-12)."""
    target = table.get(Character, attack["target"], field="target")
    check = make_check(
        table, target, "strength", purpose="disarm",
        context={"attack": attack["check"], "weapon": attack["target_weapon"]},
    )
    if not check["success"]:
        target.disarm(weapon=attack["target_weapon"])


# --- other actions (L79, L89, L96) -------------------------------------------------------


def aim(table: Table, character: str) -> None:
    """A main action spent aiming: +2 to Shooting next round (L89)."""
    aimer = table.get(Character, character)
    number = take_main_action(table, aimer, "aim", "aiming")
    aimer.aimed(round=number)


def taunt(table: Table, character: str, target_name: str, tn: int) -> None:
    """A Taunt check (TN 4 unless the GM sets one, I-13); success: the target is Distracted (L96)."""
    taunter = table.get(Character, character)
    target = table.get(Character, target_name, field="target")
    if target.out or target is taunter:
        raise RuleViolation("{target_name} cannot be taunted", field="target", target_name=target_name)
    take_main_action(table, taunter, "taunt", "taunt")
    check = make_check(table, taunter, "taunt", purpose="taunt", tn=tn, against=target, context={"target": target_name})
    if check["success"]:
        distract(table, target)


def distract(table: Table, target: Character) -> None:
    """Distracted until the end of his next round(s): counted in his round starts (I-13)."""
    target.became_distracted(turns=int(table.campaign.option("distracted_rounds")) + 1)


def withdraw(table: Table, character: str, opponents: list[str]) -> None:
    """Leaving melee: every adjacent opponent able to fight gets a free attack (L79)."""
    leaving = table.get(Character, character)
    if len(set(opponents)) != len(opponents) or character in opponents:
        raise RuleViolation("name each adjacent opponent once, not the withdrawing character", field="opponents")
    able = []
    for name in opponents:
        opponent = table.get(Character, name, field="opponents")
        if opponent.conscious and not opponent.shaken:
            able.append(name)
    number = take_main_action(table, leaving, "withdraw", "withdrawal")
    campaign_of(table).withdrawal_declared(character=character, round=number, opponents=able)
