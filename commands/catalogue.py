"""Every command of every ruleset, for the parser, the service and `rollbook schema`."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from typing import Annotated, Any, Union

from pydantic import Field, TypeAdapter

from ..domain.rulesets import RulesetUnavailable, available
from ..domain.rulesets import ruleset as ruleset_named
from . import common  # noqa: F401  (registers the commands every ruleset shares)
from .base import COMMON, HANDLERS, Command, Handler


@cache
def commands_for(ruleset: str) -> dict[str, tuple[type[Command], Handler]]:
    """The ruleset's commands (read it, do not change it): the common ones its timeline vocabulary
    has, then those of the modules its `Ruleset` names."""
    rules = ruleset_named(ruleset)
    for module in rules.commands:
        try:
            import_module(module)
        except Exception as error:
            raise RulesetUnavailable(
                f"ruleset {ruleset!r}: its commands module {module} cannot be loaded: {type(error).__name__}: {error}"
            ) from error
    offered = {name: entry for name, entry in COMMON.items() if entry[0].boundary in (None, *rules.boundaries)}
    return {**offered, **HANDLERS.get(ruleset, {})}


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
