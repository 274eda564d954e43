"""Damage (§5.1-§5.3): the damage roll, Toughness, Shaken and wounds, soak, damage reroll.

A damage total is applied at once to the state the attack found (§5.2); it stays open on
the campaign for the victim's soak (L114) and the attacker's damage reroll (L67), which
restate the victim from that state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...dice import Modifier, Roll, roll_pool
from ...errors import RuleViolation
from ...table import Table
from . import rules
from .bennies import pay_benny
from .character import Character
from .checks import make_check, raises_text
from .combat import awaiting_damage, campaign_of, refuse_while_hit_waits
from .wounds import unconscious_hours, with_new_wounds


@dataclass(frozen=True)
class DamageRoll:
    """What a damage roll will throw: (count, sides) groups of acing dice, no wild die (L101-L102),
    modifiers, and what judges it: the target's Toughness, whether he is Shaken, the readings I-2, I-28."""

    dice: tuple[tuple[int, int], ...]
    modifiers: tuple[Modifier, ...]
    toughness: int
    reading: str
    shaken_hit: str
    shaken: bool


def roll_damage(table: Table, attack_id: str | None) -> None:
    """The damage dice of the hit, exploding, no wild die; +1d6 per attack raise (L101-L102; I-3)."""
    attack = campaign_of(table).attack
    if not awaiting_damage(attack) or (attack_id is not None and attack is not None and attack["check"] != attack_id):
        if attack_id:
            raise RuleViolation("no hit waits for its damage roll (L99): {attack!r}", field="attack", attack=attack_id)
        raise RuleViolation("no hit waits for its damage roll (L99)", field="attack")
    assert attack is not None
    table.acting_for(attack["attacker"])
    dice = [list(g) for g in attack["damage"]]
    if attack["raises"]:
        dice.append([attack["raises"], rules.RAISE_DIE])
    record = {
        "attacker": attack["attacker"], "attack": attack["check"], "dice": dice,
        "modifiers": attack["damage_modifiers"], "nonlethal": attack["nonlethal"],
    }
    target = table.get(Character, attack["target"], field="target")
    deal_damage(table, target, record, before=target.wound_state(), replaces=None)


def _roll_damage_dice(table: Table, target: Character, record: dict[str, Any]) -> tuple[str, int]:
    draw = table.draw()
    dice = [d for count, sides in record["dice"] for d in roll_pool(draw, count, sides, explode=True)]
    notation = "+".join(f"{count}d{sides}!" for count, sides in record["dice"])
    modifiers = tuple(Modifier(m["source"], m["value"]) for m in record["modifiers"])
    roll = Roll(notation, tuple(dice), sum(d.total for d in dice), modifiers)
    toughness = target.toughness
    success = roll.total >= toughness
    raises = rules.raises(roll.total, toughness, table.campaign.option("raises"))
    roll_id = table.record(
        draw, roll, purpose="damage", character=record["attacker"],
        outcome="no effect" if not success else "shaken" if raises == 0 else raises_text(raises),
        target=target.name, tn=toughness, success=success, raises=raises, critical_failure=False,
    )
    return roll_id, roll.total


def take_damage(table: Table, character: str, damage: int, nonlethal: bool) -> None:
    """A damage total from outside an attack, against Toughness (§5.2)."""
    target = table.get(Character, character)
    if target.out:
        raise RuleViolation("{character} is already out of the fight (L112)", field="character", character=character)
    refuse_while_hit_waits(table, "other damage")
    record = {"attacker": None, "attack": None, "dice": None, "modifiers": [], "nonlethal": nonlethal,
              "id": table.command_id, "damage": damage}
    deal_damage(table, target, record, before=target.wound_state(), replaces=None)


def deal_damage(
    table: Table, target: Character, record: dict[str, Any], *, before: dict[str, Any], replaces: str | None
) -> None:
    """Apply a damage total to the state the attack found (§5.2 and its table §5.5).

    Below Toughness nothing changes (L105); at Toughness the target is Shaken and, if he
    already was, takes a wound (L106); each raise is a wound (L107). The result stands at
    once; the victim may still soak it (L114) and the attacker reroll it (L67).
    """
    toughness = target.toughness
    reading, shaken_hit = table.campaign.option("raises"), table.campaign.option("shaken_hit")
    if record["dice"] is not None:
        table.foresee(DamageRoll(
            tuple((count, sides) for count, sides in record["dice"]),
            tuple(Modifier(m["source"], m["value"]) for m in record["modifiers"]),
            toughness, reading, shaken_hit, before["shaken"],
        ))
        roll_id, damage = _roll_damage_dice(table, target, record)
    else:
        roll_id, damage = None, int(record["damage"])
    raises = rules.raises(damage, toughness, reading)
    if damage < toughness:
        new_wounds, state = 0, {**before, "knocked_out": False}
    else:
        new_wounds = rules.new_wounds(damage, toughness, reading, shaken_hit, before["shaken"])
        state = with_new_wounds(target, before, new_wounds, record["nonlethal"])
        state["shaken"] = True
    hours = unconscious_hours(table, target, state)
    if damage >= toughness or replaces is not None:  # below Toughness the target is untouched (L105)
        target.damaged(
            roll=roll_id, damage=damage, toughness=toughness, raises=raises if damage >= toughness else 0,
            new_wounds=new_wounds, wounds=state["wounds"], shaken=state["shaken"], dying=state["dying"],
            out=state["out"], unconscious_hours=hours, replaces=replaces,
        )
    campaign_of(table).damage_dealt(damage={
        **record, "id": roll_id or record.get("id"), "target": target.name, "damage": damage,
        "toughness": toughness, "new_wounds": new_wounds, "before": before, "soaked": None,
    })


def soak(table: Table, character: str) -> None:
    """Benny + Vigor check: a success removes one of this attack's wounds, each raise one more;
    older wounds stay (L114), Shaken stays (I-7). The check counts only the earlier wounds."""
    victim = table.get(Character, character)
    damage = campaign_of(table).damage
    if damage is None or damage["target"] != character:
        # A later attack roll closes the damage (hit or miss): only the current attack's wounds are soaked.
        raise RuleViolation("{character} is not taking damage now: a soak answers the attack just taken, and earlier "
                            "wounds stay (L114)", field="character", character=character)
    if not damage["new_wounds"]:
        raise RuleViolation("this damage causes no wounds to soak; a soak never removes Shaken (L114; I-7)",
                            field="character")
    # Once per damage, whatever the round: a benny rerolls the soak (spend_benny reroll), not a second soak.
    table.campaign.use_limit(rules.SOAK, holder=character, instance=str(damage["id"]))
    pay_benny(table, victim, "soak")
    per_wound = table.campaign.option("wound_penalty_per_wound")
    earlier = rules.wound_penalty(damage["before"]["wounds"], per_wound)
    check = make_check(
        table, victim, "vigor", purpose="soak", wound_penalty=earlier, context={"damage": damage["id"]}
    )
    apply_soak(victim, damage, check)
    campaign_of(table).damage_soaked(roll=check["roll"])


def apply_soak(victim: Character, damage: dict[str, Any], check: dict[str, Any]) -> None:
    removed = min(damage["new_wounds"], 1 + check["raises"]) if check["success"] else 0
    state = with_new_wounds(victim, damage["before"], damage["new_wounds"] - removed, damage["nonlethal"])
    hours = victim.unconscious_hours if state["knocked_out"] else damage["before"]["unconscious_hours"]
    victim.soaked(
        roll=check["roll"], damage=damage["id"], removed=removed, wounds=state["wounds"], dying=state["dying"],
        out=state["out"], unconscious_hours=hours,
    )


def reroll_damage(table: Table, character: Character) -> None:
    """Spend a benny to reroll the damage dice; the new roll replaces the old (L67; I-15)."""
    damage = campaign_of(table).damage
    if damage is None or damage["attacker"] != character.name or damage["dice"] is None:
        raise RuleViolation("{name} has no damage roll to reroll: the latest damage must be his (L67)",
                            field="character", name=character.name)
    if damage["soaked"] is not None:
        raise RuleViolation("the victim already soaked this damage; reroll damage before the soak (L67)",
                            field="character")
    target = table.get(Character, damage["target"], field="target")
    pay_benny(table, character, "damage_reroll")
    record = {k: damage[k] for k in ("attacker", "attack", "dice", "modifiers", "nonlethal")}
    deal_damage(table, target, record, before=damage["before"], replaces=damage["id"])
