"""Every command of every ruleset, for the parser, the service and `rollbook schema`."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from ..domain.rulesets import available
from .base import HANDLERS, Command, Handler

#: The modules whose @handles decorators fill the registry, common commands first.
MODULES = ("common", *available())


@cache
def _loaded() -> dict[str, dict[str, tuple[type[Command], Handler]]]:
    for module in MODULES:
        if find_spec(f"{__package__}.{module}") is not None:
            import_module(f"{__package__}.{module}")
    return HANDLERS


def commands_for(ruleset: str) -> dict[str, tuple[type[Command], Handler]]:
    return _loaded()[ruleset]


@cache
def adapter_for(ruleset: str) -> TypeAdapter[Any]:
    """A discriminated union (on `type`) of the ruleset's command models."""
    models = tuple(model for model, _ in commands_for(ruleset).values())
    return TypeAdapter(Annotated[Union[models], Field(discriminator="type")])  # noqa: UP007


@cache
def all_types() -> dict[str, list[str]]:
    """Command type -> the rulesets that know it (made once; read it, do not change it)."""
    types: dict[str, list[str]] = {}
    for ruleset in available():
        for command_type in commands_for(ruleset):
            types.setdefault(command_type, []).append(ruleset)
    return types


def schema() -> dict[str, Any]:
    """JSON Schema of every command, per ruleset."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Rollbook command file line (JSON Lines: one command object per line)",
        "rulesets": {ruleset: adapter_for(ruleset).json_schema() for ruleset in available()},
    }
