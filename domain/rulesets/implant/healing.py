"""Healing (Лечение, L116-L118): treatment with the Healing skill, natural healing per game day."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...table import Table
from . import rules
from .campaign import DAY, TWO_DAYS, ImplantCampaign
from .character import Character
from .checks import current_round, make_check, require_conscious
from .combat import take_main_action
from .wounds import healed, with_new_wounds


def _campaign(table: Table) -> ImplantCampaign:
    assert isinstance(table.campaign, ImplantCampaign)
    return table.campaign


def heal(table: Table, healer_name: str, patient_name: str) -> None:
    """A Healing check (TN 4, I-12) taking 10 minutes (L117); in combat it is the healer's main action (L74)."""
    healer = table.get(Character, healer_name, field="healer")
    patient = table.get(Character, patient_name, field="patient")
    require_conscious(healer, "healer")
    if patient.out:
        raise RuleViolation("{patient_name} is an Extra out of the fight: dead or unconscious, the GM's call (L112)",
                            field="patient", patient_name=patient_name)
    if patient.wounds == 0 and not patient.dying:
        raise RuleViolation("{patient_name} has no wounds to treat (L117)", field="patient", patient_name=patient_name)
    if current_round(table) is not None:
        take_main_action(table, healer, "heal", "Healing")
    before = _healing_state(patient)
    check = make_check(
        table, healer, "healing", purpose="heal", context={"patient": patient_name, "before": before},
    )
    treat(table, patient, healer_name, check)


def _healing_state(patient: Character) -> dict[str, Any]:
    return dict(patient.wound_state())


def treatment_result(patient: Character, before: dict[str, Any], check: dict[str, Any]) -> dict[str, Any]:
    """Success: one wound and Dying go, each raise one more wound; critical failure: a wound more (L117)."""
    if check["success"]:
        return {**healed(before, check["raises"]), "dying": False}
    if check["critical_failure"]:
        return with_new_wounds(patient, before, 1, nonlethal=False)
    return dict(before)


def treat(table: Table, patient: Character, healer: str, check: dict[str, Any]) -> None:
    before = check["context"]["before"]
    after = treatment_result(patient, before, check)
    patient.treated(
        roll=check["roll"], healer=healer, change=after["wounds"] - before["wounds"], wounds=after["wounds"],
        dying=after["dying"], out=after["out"], day=_campaign(table).game_day, minutes=rules.HEALING_MINUTES,
    )


def natural_healing_result(character: Character, before: dict[str, Any], check: dict[str, Any]) -> dict[str, Any]:
    """Success −1 wound, each raise −1 more; critical failure +1 wound (L118).

    The day's check is a Vigor check, and a Dying character who passes one comes to (L113 «придет в
    сознание … если … пройдет проверку»): success ends Dying as treatment does (L117).
    """
    if check["success"]:
        return {**healed(before, check["raises"]), "dying": False}
    if check["critical_failure"]:
        return with_new_wounds(character, before, 1, nonlethal=False)
    return dict(before)


def natural_healing(table: Table, character: Character, check: dict[str, Any]) -> None:
    before = check["context"]["before"]
    after = natural_healing_result(character, before, check)
    character.naturally_healed(
        roll=check["roll"], day=check["context"]["day"], change=after["wounds"] - before["wounds"],
        wounds=after["wounds"], dying=after["dying"], out=after["out"],
    )


def end_day(table: Table) -> None:
    """The game day ends: each wounded character not treated today makes his Vigor check
    (L118; I-27), in roster order; the nonlethal knock-outs (d6 hours, L93) are over. Only those written
    since the day before ended can be either (campaign.TWO_DAYS)."""
    if current_round(table) is not None:
        raise RuleViolation("a game day cannot end in the middle of a combat; end_battle first")
    day = _campaign(table).game_day
    for character in table.stirred(Character, TWO_DAYS):
        if character.unconscious_hours is not None:
            character.time_passed(unconscious_hours=None)
        if character.wounds and not character.out and character.treated_day != day:
            make_check(
                table, character, "vigor", purpose="natural_healing",
                context={"day": day, "before": _healing_state(character)},
            )
            assert character.last_check is not None
            natural_healing(table, character, character.last_check)
    _campaign(table).day_ended(day=day)


def pass_time(table: Table, hours: int) -> None:
    """Hours go by: the unconscious count down their d6 hours (L93), each written since the day ended."""
    if current_round(table) is not None:
        raise RuleViolation("hours do not pass in the middle of a combat; end_battle first", field="hours")
    for character in table.stirred(Character, DAY):
        if character.unconscious_hours is not None:
            left = character.unconscious_hours - hours
            character.time_passed(unconscious_hours=left if left > 0 else None)


def still_as_treated(patient: Character, result: dict[str, Any]) -> bool:
    """A healing check can be rerolled only while the patient is as it left him."""
    return all(getattr(patient, k) == result[k] for k in ("wounds", "dying", "out"))
