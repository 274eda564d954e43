"""The check (проверка, L9-L19): trait die + wild die, the better counts, aces, raises.

The roll is built from the shared `roll_pool`: the trait die with its aces first, then the
wild die (a d6) with its aces (the face order of domain/dice.py). Both dice get the same
modifiers (L14), so the result is the better die total plus the modifiers; the lower die
stays in the roll marked as dropped. Extras roll no wild die (I-9).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...dice import Die, Modifier, Roll, roll_pool
from ...errors import RuleViolation, UnknownName
from ...table import Draw, Table
from ...timeline import Scope
from . import rules
from .character import Character


@dataclass(frozen=True)
class Outcome:
    """What a check's roll means against its TN."""

    result: int
    success: bool
    raises: int
    critical_failure: bool

    def details(self, tn: int | None) -> dict[str, Any]:
        """The fields a Savage Worlds roll adds to `rollbook rolls --json`."""
        return {
            "tn": tn, "success": self.success, "raises": self.raises,
            "critical_failure": self.critical_failure,
        }


@dataclass(frozen=True)
class TraitRoll:
    """What a check will throw, decided before a die is cast: the trait die and, for a wild card,
    the wild d6 (both acing, the better kept), the modifiers, the TN and the campaign's raise reading."""

    sides: int
    modifiers: tuple[Modifier, ...]
    wild_card: bool
    tn: int
    reading: str


def roll_trait(draw: Draw, sides: int, modifiers: list[Modifier], wild_card: bool) -> Roll:
    """Trait die (exploding) and, for a wild card, the wild d6 (exploding); the better is kept."""
    trait = roll_pool(draw, 1, sides, explode=True)[0]
    if not wild_card:
        return Roll(f"d{sides}!", (trait,), trait.total, tuple(modifiers))
    wild = roll_pool(draw, 1, rules.WILD_DIE, explode=True)[0]
    keep_trait = trait.total >= wild.total
    dice = (Die(trait.sides, trait.faces, keep_trait), Die(wild.sides, wild.faces, not keep_trait))
    return Roll(f"d{sides}! + wild d{rules.WILD_DIE}!", dice, max(trait.total, wild.total), tuple(modifiers))


def judge(roll: Roll, tn: int, reading: str) -> Outcome:
    """Critical failure on two natural 1s, trait and wild die (L17; I-23); the rest by `outcome_of`."""
    critical = len(roll.dice) == 2 and all(d.faces[0] == 1 for d in roll.dice)
    return outcome_of(roll.total, critical, tn, reading)


def outcome_of(result: int, critical: bool, tn: int, reading: str) -> Outcome:
    """Success at result ≥ TN (L16), raises by the campaign's reading (L19; I-2); a critical failure never succeeds."""
    success = result >= tn and not critical
    return Outcome(result, success, rules.raises(result, tn, reading) if success else 0, critical)


def current_round(table: Table) -> int | None:
    """The number of the combat round now running, None outside combat."""
    if not table.campaign.is_open(Scope.BATTLE):
        return None
    return table.campaign.number(Scope.MOVE)


def trait_die(character: Character, trait: str) -> tuple[int, list[Modifier]]:
    """The die of an attribute or skill; an untrained skill is d4 with −2 (L6; I-10)."""
    if trait in rules.ATTRIBUTES:
        return character.attributes[trait], []
    if trait not in rules.SKILLS:
        raise UnknownName(
            "no attribute or skill {trait!r} (attributes: {attributes}; skills: {skills})",
            field="trait", trait=trait, attributes=", ".join(rules.ATTRIBUTES), skills=", ".join(rules.SKILLS),
        )
    if trait in character.skills:
        return character.skills[trait], []
    return rules.UNTRAINED_SIDES, [Modifier("untrained", rules.UNTRAINED_MODIFIER)]


def standing_modifiers(character: Character, trait: str, against: Character | None) -> list[Modifier]:
    """What every check of this character carries: wounds (L112), Distracted on skills (L96),
    +2 against a Vulnerable character (L82)."""
    modifiers = []
    if character.wound_penalty:
        modifiers.append(Modifier("wounds", character.wound_penalty))
    if character.distracted and trait in rules.SKILLS:
        modifiers.append(Modifier("distracted", rules.DISTRACTED_PENALTY))
    if against is not None and against.vulnerable:
        modifiers.append(Modifier(f"{against.name} vulnerable", rules.VULNERABLE_BONUS))
    return modifiers


def require_conscious(character: Character, field: str = "character") -> None:
    if character.out:
        raise RuleViolation("{name} is out of the fight (L112)", field=field, name=character.name)
    if character.dying:
        raise RuleViolation(
            "{name} is Dying and unconscious until treated or a Vigor check on his turn passes (L113)",
            field=field, name=character.name,
        )
    if character.unconscious_hours is not None:
        raise RuleViolation(
            "{name} is unconscious for {unconscious_hours} more hours after a nonlethal attack (L93)",
            field=field, name=character.name, unconscious_hours=character.unconscious_hours,
        )


def make_check(
    table: Table,
    character: Character,
    trait: str,
    *,
    purpose: str,
    tn: int = rules.DEFAULT_TN,
    modifiers: list[Modifier] | None = None,
    against: Character | None = None,
    context: dict[str, Any] | None = None,
    wound_penalty: int | None = None,
) -> dict[str, Any]:
    """Roll a check of `character` and record it as his latest check (the one a benny rerolls).

    `wound_penalty` overrides the character's own (a soak counts only the wounds he had
    before the attack, §5.3).
    """
    sides, untrained = trait_die(character, trait)
    standing = standing_modifiers(character, trait, against)
    if wound_penalty is not None:
        standing = [m for m in standing if m.source != "wounds"]
        if wound_penalty:
            standing.insert(0, Modifier("wounds", wound_penalty))
    all_modifiers = [*untrained, *standing, *(modifiers or [])]
    check = {
        "purpose": purpose, "trait": trait, "sides": sides, "tn": tn,
        "modifiers": [m.as_dict() for m in all_modifiers], "wild_card": character.wild_card,
        "round": current_round(table), "context": dict(context or {}),
    }
    return _roll_check(table, character, check, purpose)


def reroll_check(table: Table, character: Character) -> tuple[dict[str, Any], dict[str, Any]]:
    """Roll the latest check again and keep the better result (L64); returns (before, kept)."""
    before = character.last_check
    assert before is not None
    again = {k: v for k, v in before.items() if k not in ("roll", "result", "success", "raises", "critical_failure")}
    draw = table.draw()
    modifiers = [Modifier(m["source"], m["value"]) for m in before["modifiers"]]
    roll = roll_trait(draw, before["sides"], modifiers, before["wild_card"])
    outcome = judge(roll, before["tn"], table.campaign.option("raises"))
    # "с выбором лучшего результата": the reroll counts only if it is better; it can never
    # bring a critical failure (its result is the lowest possible anyway).
    better = outcome.result > before["result"] and not outcome.critical_failure
    roll_id = table.record(
        draw, roll, purpose=f"reroll:{before['purpose']}", character=character.name,
        outcome=_outcome_text(outcome), trait=before["trait"], rerolls=before["roll"], kept=better,
        **outcome.details(before["tn"]),
    )
    kept = {**again, "roll": roll_id, **_outcome_fields(outcome)} if better else before
    character.check_rerolled(check=kept, kept=roll_id if better else before["roll"])
    return before, kept


def _roll_check(table: Table, character: Character, check: dict[str, Any], purpose: str) -> dict[str, Any]:
    modifiers = [Modifier(m["source"], m["value"]) for m in check["modifiers"]]
    table.foresee(TraitRoll(check["sides"], tuple(modifiers), check["wild_card"], check["tn"], table.campaign.option("raises")))
    draw = table.draw()
    roll = roll_trait(draw, check["sides"], modifiers, check["wild_card"])
    outcome = judge(roll, check["tn"], table.campaign.option("raises"))
    roll_id = table.record(
        draw, roll, purpose=purpose, character=character.name, outcome=_outcome_text(outcome),
        trait=check["trait"], **outcome.details(check["tn"]),
    )
    made = {**check, "roll": roll_id, **_outcome_fields(outcome)}
    character.check_made(check=made)
    return made


def _outcome_fields(outcome: Outcome) -> dict[str, Any]:
    return {
        "result": outcome.result, "success": outcome.success, "raises": outcome.raises,
        "critical_failure": outcome.critical_failure,
    }


def _outcome_text(outcome: Outcome) -> str:
    if outcome.critical_failure:
        return "critical_failure"
    if not outcome.success:
        return "failure"
    return "success" if outcome.raises == 0 else f"success, {raises_text(outcome.raises)}"


def raises_text(raises: int) -> str:
    return f"{raises} raise" if raises == 1 else f"{raises} raises"
