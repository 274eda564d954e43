"""`forwards`: a command that is one domain call with its fields gets its handler from a table, and a
parameter the rules name otherwise is read from the field `fields` names for it."""

from __future__ import annotations

from typing import Any, Literal

import pytest

from rollbook.commands.base import HANDLERS, Command, forwards

RULESET = "forwards-test"


class Rearm(Command):
    type: Literal["rearm"] = "rearm"
    rulesets = frozenset({RULESET})
    character: str
    weapon: str


@pytest.fixture
def calls() -> Any:
    made: list[tuple[Any, ...]] = []
    yield made
    HANDLERS.pop(RULESET, None)


def test_a_forward_reads_a_parameter_named_otherwise_from_its_field(calls) -> None:
    def rearm(table: object, name: str, weapon: str) -> None:
        calls.append((table, name, weapon))

    forwards({Rearm: rearm}, fields={"name": "character", "weapon": "not read: the model has a weapon"})
    _, handler = HANDLERS[RULESET]["rearm"]
    handler(Rearm(character="Kit", weapon="knife"), "the table")
    assert calls == [("the table", "Kit", "knife")]


def test_a_parameter_no_field_answers_is_refused_at_import(calls) -> None:
    def rearm(table: object, name: str, weapon: str) -> None:
        calls.append((table, name, weapon))

    with pytest.raises(TypeError, match="takes name, which Rearm has no field for"):
        forwards({Rearm: rearm})
