"""The decisions of Fate, taken at a Table: making a character, acting, taking a hit, and what a
conflict's and a scene's end do (F1-F8)."""

from __future__ import annotations

from rollbook.domain.errors import RuleViolation
from rollbook.domain.table import Table
from rollbook.domain.timeline import Scope

from . import rules
from .fighter import Fighter


def create_character(table: Table, name: str, player: str | None, skills: dict[str, int]) -> None:
    """F1: a new character with his skills and the starting fate points."""
    for skill, rating in skills.items():
        if not rules.SKILL_LOWEST <= rating <= rules.SKILL_HIGHEST_AT_CREATION:
            raise RuleViolation(
                f"{skill} is {rules.ladder(rating)}: a new character's skills are Mediocre (+0) to Great (+4) (F1)",
                field="skills",
            )
    table.campaign.enrol(name, Fighter.kind, player)
    table.add(Fighter(campaign=table.campaign.campaign, name=name, player=player, skills=skills))


def act(table: Table, character: str, skill: str, difficulty: int, invoke: bool) -> str:
    """F2-F4: 4dF + the skill (+2 for an aspect invoked, once per conflict) against the difficulty."""
    fighter = table.get(Fighter, character)
    fighter.check_in_the_fight()
    if invoke:
        table.campaign.use_limit(rules.INVOKE, holder=fighter.name)
        fighter.spend_fate_point()
    check = rules.action(skill, fighter.rating(skill), difficulty, invoke)
    table.foresee(check)
    draw = table.draw()
    roll = check.dice.roll(draw)
    return table.record(draw, roll, purpose=f"act:{skill}", character=fighter.name, outcome=check.judge(roll.total),
                        difficulty=difficulty, shifts=roll.total - difficulty)


def take_hit(table: Table, character: str, shifts: int, consequence: str | None) -> None:
    """F6-F7: a hit in a conflict is absorbed by a stress box or a consequence, or takes him out."""
    if not table.campaign.is_open(rules.CONFLICT):
        raise RuleViolation("a hit is taken in a conflict (F6), and no conflict is open", field="type")
    fighter = table.get(Fighter, character)
    fighter.check_in_the_fight()
    fighter.take_hit(shifts, consequence)


def end_of_conflict(table: Table) -> None:
    """F8: every stress box empties and no one is taken out any longer."""
    for fighter in table.stirred(Fighter, f"end:{rules.CONFLICT.value}"):
        fighter.conflict_over()


def end_of_scene(table: Table) -> None:
    """F8: mild consequences clear when their scene ends."""
    for fighter in table.stirred(Fighter, f"end:{Scope.SCENE.value}"):
        fighter.scene_over()
