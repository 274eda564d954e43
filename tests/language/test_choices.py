"""The values the games' commands choose among (issue 49): the post page's drop-downs say each in the reader's
language, in the original's words (each game's `CHOICES` in its narration module), and send the value itself."""

import re

import pytest

from rollbook.commands.catalogue import commands_for
from rollbook.language import speaking
from rollbook.web.field_words import said

GAMES = ("pirates", "heroes", "implant", "gladiators")
#: Values every language writes alike: dice (d6) and numbers.
ALIKE = re.compile(r"d?\d+")


def choices(node: object) -> set[str]:
    """Every enum value anywhere in a command's JSON schema (its fields', its parts', its maps' values)."""
    if isinstance(node, dict):
        return {str(v) for v in node.get("enum", ()) if v is not None}.union(*map(choices, node.values()))
    if isinstance(node, list):
        return set().union(*map(choices, node))
    return set()


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_of_the_games_commands_is_said_in_russian(game: str) -> None:
    offered = set().union(*(choices(model.model_json_schema()) for model, _ in commands_for(game).values()))
    assert len(offered) > 10
    with speaking("ru"):
        english = sorted(value for value in offered if said(value) == value.replace("_", " ")
                         and not ALIKE.fullmatch(value))
    assert english == []
