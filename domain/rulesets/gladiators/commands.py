"""Commands of the gladiator game (PDQ-like); the rules they apply are the modules beside this one.

The models type the fields; every rule with a number (four signature moves, the shapes of
the attributes and skills, motivation +2..+6) is checked by the domain, which cites its line.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ....commands.base import NAME, Command, CreatesCharacter, forwards, handles
from ....commands.ownership import Own
from ...errors import N_
from ...table import Table
from . import play, rules

GLADIATORS = frozenset({"gladiators"})


class _Gladiators(Command):
    """Every one of the gladiators' game's own commands."""

    rulesets = GLADIATORS


class _GM(_Gladiators):
    """One the GM alone gives."""

    gm_only = True


Name = Annotated[str, Field(min_length=1, max_length=200)]
Side = Literal[rules.SIDES]  # type: ignore[valid-type]
Tactic = Literal[tuple(rules.TACTICS)]  # type: ignore[valid-type]
Total = Annotated[int, Field(ge=0, le=10_000)]
Related = list[Name]


class ClassSkill(BaseModel):
    __doc__ = N_("The +4 skill of the class the GM assigns from the biography (L10).")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    name: Name
    applies_to: Side


class CreateGladiator(CreatesCharacter):
    __doc__ = N_("""Character creation (§7). Only the GM: he assigns the class (L10) and approves the motivation (G-17).""")

    rulesets = GLADIATORS
    attributes: dict[Name, Literal[rules.ATTRIBUTE_LEVELS]] = Field(  # type: ignore[valid-type]
        max_length=100, description=N_("All Good except one Great or two Very good (L3); Endurance gives health.")
    )
    main_skill: str = Field(min_length=1, max_length=200, description=N_("The Master martial art, +6 (L4)."))
    style: Literal[rules.STYLES] = Field(description=N_("+3 to attack or defence with the main skill (L5)."))
    signature_moves: dict[Name, Side] = Field(max_length=100, description=N_("Exactly four, each attack or defence (L6)."))
    skills: dict[Name, Literal[tuple(rules.SKILL_MODIFIER)]] = Field(  # type: ignore[valid-type]
        default_factory=dict, max_length=100,
        description=N_("Additional skills: 2 Experts, 4 Specialists or 1 Expert + 2 Specialists (L7)."),
    )
    class_skill: ClassSkill
    motivation: int = Field(ge=-1000, le=1000, description=N_("The one-time modifier, +2..+6 (L9)."))
    ordinary_skills: list[Name] | None = Field(  # None, not []: a command without them is recorded as before
        default=None, max_length=100,
        description=N_("Skills at the level of anyone else (L8): +0 to a turn fought with one, no health (L15)."),
    )


class CreateEnemy(_GM):
    __doc__ = N_("""A single foe, or a squad fought as one opponent (L23): `members`, each with `health`, or `member_health`.""")

    type: Literal["create_enemy"] = "create_enemy"
    name: str = NAME
    health: int | None = Field(
        default=None, ge=1, le=10_000, description=N_("Health of the foe, or of each member of a squad (or member_health).")
    )
    members: int = Field(default=1, ge=1, le=1000, description=N_("How many fighters the squad has."))
    member_health: list[Annotated[int, Field(ge=1, le=10_000)]] | None = Field(
        default=None, min_length=2, max_length=1000,
        description=N_("A squad of fighters whose health differs: each one's (8, 8, 12: health 28, 3 standing), "
        "instead of health and members (L23)."),
    )


class CombatTurn(_Gladiators):
    __doc__ = N_("""One turn of a battle: `dice` are the attack dice, then the defence dice (0..3 each by the tactic).""")

    type: Literal["combat_turn"] = "combat_turn"
    character: Own = NAME
    enemy: str = NAME
    tactic: Tactic
    attack_move: str | None = Field(default=None, min_length=1, max_length=200, description=N_("An attack signature move, +3."))
    defence_move: str | None = Field(default=None, min_length=1, max_length=200, description=N_("A defence signature move, +3."))
    attack_related: Related = Field(
        default_factory=list, max_length=100,
        description=N_("Raised attributes and additional skills the GM rules related to this turn's attack."),
    )
    defence_related: Related = Field(
        default_factory=list, max_length=100,
        description=N_("Raised attributes and additional skills the GM rules related to this turn's defence."),
    )
    gm_attack: Total = Field(description=N_("The enemy's attack total, declared by the GM before the roll (L22)."))
    gm_defence: Total = Field(description=N_("The enemy's defence total, declared by the GM before the roll (L22)."))
    use_motivation: bool = False
    spend_tokens: int = Field(default=0, ge=0, le=1000, description=N_("Role-play tokens spent, each +1 to attack and defence."))
    standing: int | None = Field(
        default=None, ge=0, le=1000, description=N_("For a squad: how many the GM reports still standing after the turn.")
    )
    skill: str | None = Field(
        default=None, min_length=1, max_length=200,
        description=N_("The skill the turn is fought with (L4, L7, L8): the main skill when left out (Master +6, "
        "the style +3); another of the gladiator's skills gives its own modifier instead (Expert +4, Specialist +2, "
        "ordinary +0)."),
    )


class ReportStanding(_GM):
    __doc__ = N_("""The GM's report of how many of a squad still stand (L23; G-12).""")

    type: Literal["report_standing"] = "report_standing"
    enemy: str = NAME
    standing: int = Field(ge=0, le=1000)


class AwardRoleplay(_GM):
    __doc__ = N_("""One-time +1 tokens (L26-L30); with `enemy`, for a slaughtered squad (+1 per fighter) or a beaten foe.""")

    type: Literal["award_roleplay"] = "award_roleplay"
    character: str = NAME
    amount: int = Field(ge=1, le=1000)
    enemy: str | None = Field(default=None, min_length=1, max_length=200)
    reason: str | None = Field(default=None, max_length=500)


class GrantMotivation(_GM):
    __doc__ = N_("""The GM grants a used motivation again (G-3 (a)).""")

    type: Literal["grant_motivation"] = "grant_motivation"
    character: str = NAME


@handles(CreateGladiator)
def create_gladiator(command: CreateGladiator, table: Table) -> None:
    sheet = {
        "name": command.name, "player": command.player, "attributes": dict(command.attributes),
        "main_skill": command.main_skill, "style": command.style, "signature_moves": dict(command.signature_moves),
        "skills": dict(command.skills), "class_skill": command.class_skill.model_dump(),
        "motivation": command.motivation,
    }
    play.create_gladiator(table, sheet, ordinary_skills=command.ordinary_skills or ())


# The commands that are one domain call with their fields as they are.
forwards({
    CreateEnemy: play.create_enemy,
    CombatTurn: play.combat_turn,
    ReportStanding: play.report_standing,
    AwardRoleplay: play.award_roleplay,
    GrantMotivation: play.grant_motivation,
})
