"""The commands of Fate: models that type the fields, each mapped to the one domain call it is. The
conflict's start and end are the common timeline commands' kind (`StartBoundary`, `Boundary`), for the
game's own scope."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema

from rollbook.commands.base import NAME, Command, CreatesCharacter, forwards, handles
from rollbook.commands.common import Boundary, StartBoundary, end, start
from rollbook.commands.ownership import Own

from . import play, rules
from .dice import DRAWN_SIDES, SYMBOLS, drawn

FATE = frozenset({"fate"})
#: A face typed from a forum's 4dF roller: its symbol (`+`, `0`, `-`) or its draw (3, 2, 1).
TypedFateFace = Annotated[int, BeforeValidator(drawn), Field(ge=1, le=DRAWN_SIDES), WithJsonSchema({"anyOf": [
    {"type": "integer", "minimum": 1, "maximum": DRAWN_SIDES}, {"type": "string", "enum": list(SYMBOLS)}]})]


class CreateCharacter(CreatesCharacter):
    """A new character with his skills and the starting fate points (F1)."""

    rulesets = FATE
    skills: dict[str, int] = Field(
        default_factory=dict, max_length=50,
        description="Skill -> rating on the ladder, Mediocre 0 to Great 4 (F1); a skill not named is Mediocre.",
    )


class Act(Command):
    """Roll 4dF + the skill against the difficulty (F2-F3); `invoke` spends a fate point for +2, once per
    conflict (F4)."""

    type: Literal["act"] = "act"
    rulesets = FATE
    character: Own = NAME  # a player acts only for his own character
    skill: str = Field(min_length=1, max_length=100, description="The skill rolled (F1).")
    difficulty: int = Field(
        default=rules.DIFFICULTY_DEFAULT, ge=rules.DIFFICULTY_LOWEST, le=rules.DIFFICULTY_HIGHEST,
        description="The difficulty on the ladder, Terrible -2 to Legendary +8 (F3).",
    )
    invoke: bool = Field(default=False, description="Invoke an aspect: a fate point for +2, once per conflict (F4).")
    dice: list[TypedFateFace] | None = Field(
        default=None, max_length=4,
        description="The four Fate dice rolled elsewhere, in order, each as its symbol ('+', '0', '-') or as "
        "it is drawn (3, 2, 1); recorded as drawn.",
    )


class TakeHit(Command):
    """A hit of some shifts in a conflict: a stress box absorbs it, or the consequence named (F6-F7)."""

    type: Literal["take_hit"] = "take_hit"
    rulesets = FATE
    character: Own = NAME  # a player says how his own character absorbs a hit
    shifts: int = Field(ge=1, le=rules.HIT_LARGEST, description="The hit's shifts (F6).")
    consequence: Literal["mild", "moderate", "severe"] | None = Field(
        default=None, description="Take this consequence instead of checking a stress box (F7).",
    )


class StartConflict(StartBoundary):
    """A conflict begins, inside the scene (F5)."""

    type: Literal["start_conflict"] = "start_conflict"
    rulesets = FATE
    boundary = rules.CONFLICT.value


class EndConflict(Boundary):
    """The conflict ends: stress boxes empty, no one is taken out any longer (F8)."""

    type: Literal["end_conflict"] = "end_conflict"
    rulesets = FATE
    boundary = rules.CONFLICT.value


handles(StartConflict)(start)
handles(EndConflict)(end)

# The commands that are one domain call with their fields as they are.
forwards({
    CreateCharacter: play.create_character,
    Act: play.act,
    TakeHit: play.take_hit,
})
