"""typer's coercion of a parameter, without pydantic when there is nothing to convert.

typer (0.2x) coerces every parameter's value through a pydantic `TypeAdapter` built on first use,
even an option left out (None), and importing its adapters imports pydantic's models, fields and
plugin loader: with the ~13 adapters of a verb, about a fifth of `rollbook sheet --json`, which
needs no pydantic model, and a TypeAdapter built for `post`'s FIELD=VALUE words alone. An option
left out is None whatever the adapter (typer says so before using it), a value that already has
the parameter's plain type (a word for a `str` option, an enum's default member) comes out of the
adapter unchanged, and words for a `list[str]` come out as that list of the same words, so these
are given back here as typer would; any other value goes to typer's own coercion, built as typer
builds it and kept. On a typer without these internals (`_runtime_param`), nothing is changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, get_args, get_origin

try:
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # another typer: its own coercion, unchanged (`coerced_plainly` gives the command back)
    RuntimeParam = None


@dataclass(frozen=True)
class AsGiven(RuntimeParam or object):  # type: ignore[misc]
    """Until a value needs converting: None as typer gives it (`RuntimeParam.coerce`), a plain
    parameter's value of its very type unchanged; then typer's own coercion, from there on."""

    def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
        if type(value) is self.annotation and plain(self.annotation, self.parameter_info):
            return value
        if type(value) is tuple and words(self.annotation, self.parameter_info) and all(type(v) is str for v in value):
            return list(value)
        param._runtime_param = build_runtime_param(param.type_descriptor)
        return param._runtime_param._coerce_value(value, param=param, ctx=ctx)


def plain(annotation: Any, parameter_info: Any) -> bool:
    """Whether typer's adapter for this annotation gives back a value of that type unchanged: `str`
    (typer calls `str()` on it, pydantic keeps it) and an enum (a member is one of its choices),
    neither with a parser of its own."""
    if getattr(parameter_info, "parser", None) is not None:
        return False
    return annotation is str or (isinstance(annotation, type) and issubclass(annotation, Enum))


def words(annotation: Any, parameter_info: Any) -> bool:
    """Whether the annotation is `list[str]` with no parser: typer's adapter gives the words click
    parsed (a tuple of `str`) back as a list of those very words."""
    return (get_origin(annotation) is list and get_args(annotation) == (str,)
            and getattr(parameter_info, "parser", None) is None)


def coerce_plainly(params: Iterable[Any]) -> None:
    """Give each parameter whose coercion typer has not built yet the `AsGiven` one."""
    if RuntimeParam is None:
        return
    for param in params:
        descriptor = getattr(param, "type_descriptor", None)
        if descriptor is not None and getattr(param, "_runtime_param", False) is None:
            param._runtime_param = AsGiven(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)


def coerced_plainly(command: Any) -> Any:
    """`command`, its parameters given `AsGiven` when it parses its arguments: only then are they all
    known (the help option is made for the command's own context)."""
    if command is None or RuntimeParam is None or getattr(command, "coerced_plainly", False):
        return command
    parse_args = command.parse_args

    def parse_plainly(ctx: Any, args: list[str]) -> list[str]:
        coerce_plainly(command.get_params(ctx))
        return parse_args(ctx, args)

    command.parse_args, command.coerced_plainly = parse_plainly, True
    return command
