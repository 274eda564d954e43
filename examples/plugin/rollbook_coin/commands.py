"""The commands of Coin: models that type the fields, each mapped to the one domain call it is."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rollbook.commands.base import NAME, Command, CreatesCharacter, forwards
from rollbook.commands.ownership import Own

from . import play, rules

COIN = frozenset({"coin"})


class CreateCharacter(CreatesCharacter):
    """A new character with the starting coins (C1)."""

    rulesets = COIN


class Flip(Command):
    """Roll 1d6 against the target (C2); `stake` spends a coin for +1, once per scene (C3)."""

    type: Literal["flip"] = "flip"
    rulesets = COIN
    character: Own = NAME  # a player flips only for his own character
    target: int = Field(
        default=rules.TARGET_DEFAULT, ge=rules.TARGET_LOWEST, le=rules.TARGET_HIGHEST,
        description="The number to meet or beat (C2).",
    )
    stake: bool = Field(default=False, description="Stake a coin for +1, once per scene (C3).")


# The commands that are one domain call with their fields as they are.
forwards({
    CreateCharacter: play.create_character,
    Flip: play.flip,
})
