"""Who may act: the one ownership check every command passes before its handler decides.

A player acts only for what is his. Each command model says, once, on its fields, what that
means for it: a field typed `Own` names a character the actor must own (his pirate, his hero,
the one whose Resolve or luck is spent), at any depth (a list of group-check members, the keys
of a `resolve` map); `Own` with a `whose` function names something else that belongs to a
character (a negotiation's bet, a purse); a field marked `GM_ONLY` may be given by the GM alone
(a ship's treasury, the GM's chance for disadvantage); a field typed `Owner` names the player
who will own what is created, and a player may name only himself. A whole command the GM alone
issues is `gm_only` on its model, and declares none of these on its fields (it is the GM's whole).

`authorise` walks the command's values against those declarations and refuses the first that
is not the actor's with `PermissionDenied` naming the field (`members[1].character`,
`resolve.Tempest`). The owner of a name is decided in one place, `Table.acting_for`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from ..domain.campaign import Campaign
from ..domain.errors import PermissionDenied, Word
from ..domain.table import Table
from .base import Command

#: What a `whose` function returns for something only the GM may act for.
THE_GM = "the GM"


@dataclass(frozen=True)
class Owned:
    """Field metadata: the value is the actor's, or the command is refused.

    Without `whose` the value is a character's name. With it, `whose(campaign, value)` says
    whose the value is: a character's name, `THE_GM`, or None for what every player may use
    (a ship's treasury is the crew's).
    """

    whose: Callable[[Campaign, Any], str | None] | None = None

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "x-owned": "a player gives only what is his own"}


@dataclass(frozen=True)
class GmOnly:
    """Field metadata: only the GM may give the field a value other than its default; `rule` says why."""

    rule: str | None = None

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "x-gm-only": True}


@dataclass(frozen=True)
class OwnerOf:
    """Field metadata: the player who will own what the command creates; a player names himself."""

    def __get_pydantic_json_schema__(self, schema: Any, handler: Any) -> dict[str, Any]:
        return {**handler(schema), "x-owned": "a player creates only his own"}


OWNED = Owned()
GM_ONLY = GmOnly()
#: A character the actor must own.
Own = Annotated[str, OWNED]
#: The player a created character belongs to.
Owner = Annotated[str, OwnerOf()]


def authorise(command: Command, table: Table) -> None:
    """Refuse the command unless its actor may issue it and every field it fills is his to give."""
    actor = command.actor
    if actor.startswith("auditor:"):
        raise PermissionDenied("{actor} may dispute rolls but not play ({type})", actor=actor, type=command.type)
    if not actor.startswith("player:"):
        return
    if command.gm_only:
        raise PermissionDenied("only the GM may {type}", type=command.type)
    player = actor.split(":", 1)[1]
    for path, marker, value in _declared(command):
        if isinstance(marker, GmOnly):
            if marker.rule:
                raise PermissionDenied("only the GM may give {path} in {type} ({rule})", field=path, path=path,
                                       type=command.type, rule=Word(marker.rule))
            raise PermissionDenied("only the GM may give {path} in {type}", field=path, path=path, type=command.type)
        if isinstance(marker, OwnerOf):
            if value != player:
                raise PermissionDenied("{actor} can only create a character of their own", field=path, actor=actor)
            continue
        name = value if marker.whose is None else marker.whose(table.campaign, value)
        if name == THE_GM:
            raise PermissionDenied("{path} is the GM's to give, not {actor}'s", field=path, path=path, actor=actor)
        if name is not None:
            table.acting_for(name, field=path)


def declarations(model: type[Command]) -> dict[str, tuple[Owned | GmOnly | OwnerOf, ...]]:
    """Each top-level field's own declarations (whose it is to give), by its name: what a form reads
    to offer a player only his own and to leave out the GM's fields."""
    return {path: markers for _, path, markers, _, _ in _plan(model)}


def _declared(command: Command) -> Iterator[tuple[str, Owned | GmOnly | OwnerOf, Any]]:
    """Every (path, declaration, value) of the command a player's right to give must be checked for."""
    for name, path, markers, info, walks in _plan(type(command)):
        value = getattr(command, name)
        for marker in markers:
            # The GM's fields are refused only when given; whose a creation is, always.
            if isinstance(marker, OwnerOf) or (isinstance(marker, GmOnly) and value != _default(info)):
                yield path, marker, value
        if walks:
            yield from _walk(info.annotation, info.metadata, value, path)


@cache
def _plan(model: type[Command]) -> tuple[tuple[str, str, tuple[Any, ...], FieldInfo, bool], ...]:
    """A model's fields as `_declared` reads them, worked out once per model: (name, path, the
    field's own declarations, its info, whether an owned value may be found inside its values)."""
    return tuple(
        (name, info.alias or name, tuple(m for m in [*info.metadata, *_in_union(info.annotation)]
                                         if isinstance(m, Owned | GmOnly | OwnerOf)),
         info, _may_hold_owned(info.annotation, info.metadata, set()))
        for name, info in model.model_fields.items()
    )


def _may_hold_owned(annotation: Any, metadata: list[Any], seen: set[Any]) -> bool:
    """Whether `_walk` can find an `Owned` value in a value typed `annotation`; an annotation
    it cannot see through (Any, a type variable) may hold anything."""
    if any(isinstance(m, Owned) for m in [*metadata, *_in_union(annotation)]):
        return True
    inner, _ = _unannotated(annotation)
    if get_origin(inner) is Literal:
        return False
    if isinstance(inner, type) and issubclass(inner, BaseModel):
        if inner in seen:
            return False  # a model inside itself holds nothing its outer level does not
        seen.add(inner)
        return any(_may_hold_owned(i.annotation, i.metadata, seen) for i in inner.model_fields.values())
    if inner is Any or not (isinstance(inner, type) or get_origin(inner) is not None):
        return True
    return any(_may_hold_owned(*_unannotated(arg), seen) for arg in get_args(inner) if arg is not Ellipsis)


def _default(info: FieldInfo) -> Any:
    return info.get_default(call_default_factory=True)


def _walk(annotation: Any, metadata: list[Any], value: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """The owned values inside `value`, typed `annotation` (with its Annotated `metadata`)."""
    if value is None:
        return
    for marker in [*metadata, *_in_union(annotation)]:
        if isinstance(marker, Owned) and not isinstance(value, (list, tuple, dict)):
            yield path, marker, value
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            yield from _walk(info.annotation, info.metadata, getattr(value, name), f"{path}.{info.alias or name}")
        return
    args = _container_args(annotation, list if isinstance(value, (list, tuple)) else dict)
    if isinstance(value, (list, tuple)) and args:
        inner, inner_meta = _unannotated(args[0])
        for index, item in enumerate(value):
            yield from _walk(inner, inner_meta, item, f"{path}[{index}]")
    elif isinstance(value, dict) and len(args) == 2:
        (key_type, key_meta), (value_type, value_meta) = _unannotated(args[0]), _unannotated(args[1])
        for key, item in value.items():
            yield from _walk(key_type, key_meta, key, f"{path}.{key}")
            yield from _walk(value_type, value_meta, item, f"{path}.{key}")


def _unannotated(annotation: Any) -> tuple[Any, list[Any]]:
    if get_origin(annotation) is Annotated:
        inner, *metadata = get_args(annotation)
        return inner, metadata
    return annotation, []


def _in_union(annotation: Any) -> list[Any]:
    """The markers of an optional field (`Own | None`): pydantic keeps only the outermost ones."""
    if get_origin(annotation) not in (Union, UnionType):
        return []
    return [m for member in get_args(annotation) for m in _unannotated(member)[1]]


def _container_args(annotation: Any, container: type) -> tuple[Any, ...]:
    """The type arguments of `annotation`'s list (or dict), looking through `X | None`."""
    annotation, _ = _unannotated(annotation)
    if get_origin(annotation) in (Union, UnionType):
        for member in get_args(annotation):
            found = _container_args(member, container)
            if found:
                return found
        return ()
    return get_args(annotation) if get_origin(annotation) is container else ()
