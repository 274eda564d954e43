"""The values the games' commands choose among and the help of their fields (issue 49): the post page's drop-downs
say each value in the reader's language, in the original's words (each game's `CHOICES` in its narration module),
and send the value itself; each field's help (its schema's description, marked `N_`) is said in Russian too."""

import re

import pytest

from rollbook.commands.catalogue import commands_for
from rollbook.language import gettext, speaking
from tests.language.test_catalog import catalog
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


def descriptions(node: object) -> set[str]:
    """Every field's description in a command's JSON schema (its parts' and its definitions' fields' too), as the
    post page shows it beside the field."""
    if isinstance(node, list):
        return set().union(*map(descriptions, node))
    if not isinstance(node, dict):
        return set()
    fields = node.get("properties", {})
    own = {spec["description"] for spec in fields.values() if isinstance(spec.get("description"), str)}
    return own.union(*map(descriptions, fields.values()), *map(descriptions, node.get("$defs", {}).values()),
                     *(descriptions(value) for key, value in node.items() if key not in ("properties", "$defs")))


@pytest.mark.parametrize("game", GAMES)
def test_every_fields_help_of_the_games_commands_is_said_in_russian(game: str) -> None:
    helps = set()
    for model, _ in commands_for(game).values():
        schema = model.model_json_schema()
        helps |= descriptions(schema)
        # A part's own help, its model's `__doc__`, shown beside it where its field has none of its own.
        helps |= {part["description"] for part in schema.get("$defs", {}).values() if "description" in part}
    assert len(helps) > 20
    russian = catalog()
    assert sorted(text for text in helps if not (russian.get(text) and russian.get(text).string)) == []
    with speaking("ru"):
        assert gettext(sorted(helps)[0]) != sorted(helps)[0]


@pytest.mark.parametrize("game", GAMES)
def test_every_commands_description_of_the_games_is_said_in_russian(game: str) -> None:
    """A command's docstring is its description (`post --help TYPE`, the slash command's): marked `N_`, translated;
    the schema keeps the English."""
    docs = {model.__doc__ for model, _ in commands_for(game).values() if model.__doc__}
    assert len(docs) > 5
    russian = catalog()
    assert sorted(doc for doc in docs if not (russian.get(doc) and russian.get(doc).string)) == []
    with speaking("ru"):
        assert all(re.search("[а-я]", gettext(doc)) for doc in docs)
    create = commands_for(game)["create_campaign"][0]
    assert create.model_json_schema()["description"] == create.__doc__


def test_a_gladiators_roll_purpose_is_said_in_the_originals_words() -> None:
    """L17: «в любом бою»; the rolls page and the post form's recent rolls say `combat:attack` so."""
    from rollbook.web.moves import purpose_words

    with speaking("ru"):
        assert purpose_words("combat:attack", "gladiators") == "бой: атака"
    assert purpose_words("combat:attack", "gladiators") == "combat: attack"


@pytest.mark.parametrize(("wounds", "said_so"), [(1, "-1 (1 ранение)"), (2, "-2 (2 ранения)"), (5, "-3 (5 ранений)")])
def test_an_implant_sheets_wound_penalty_counts_its_wounds_in_implants_word(wounds: int, said_so: str) -> None:
    """Implant says «ранения» (L107, L112), the pirates «раны»: the penalty row counts them so."""
    from rollbook.domain.rulesets.implant.sheet import _implant_wounds
    from rollbook.projections.sheets import in_words

    sheet = {"wounds": wounds, "max_wounds": 3, "wound_penalty": min(wounds, 3)}
    with speaking("ru"):
        assert in_words(_implant_wounds(sheet)[1][1]) == said_so
