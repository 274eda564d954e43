"""Validating a command: one JSON object against its ruleset's model, strictly.

A command that cannot be applied is refused with its type and id where they can be read, the
field at fault and why (a `CommandError`; `lines.py` reads the files and adds the line number);
nothing of it reaches the store.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cache
from typing import Any

from pydantic import ValidationError

from ..domain.errors import CommandRejected, Word
from ..domain.rulesets import available
from ..domain.rulesets import ruleset as rules_of
from ..language import N_
from .base import Command
from .catalogue import adapter_for, all_types, commands_for
from .lines import CommandError
from .reasons import SHOWN, closest, reason, shown

#: Names pydantic puts in an error location for the member of a union that failed, not fields.
_TYPE_TAGS = {"int", "bool", "str", "float", "none", "list", "dict", "date", "datetime", "literal"}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: A refusal naming a field: (the field, the reason's template, its values).
Found = tuple[str, str, dict[str, Any]]


def _field_path(error: dict[str, Any]) -> str:
    """The field at fault, from a pydantic error's location.

    Drops the discriminator tag pydantic puts first, and the names of union members
    (`absorb_with_luck.int`) and validator wrappers, keeping field names and list indexes;
    an unknown field is named as given.
    """
    parts = list(error["loc"])
    if parts and parts[0] in all_types():
        parts = parts[1:]
    last = [parts.pop()] if parts and error["type"] == "extra_forbidden" else []
    kept = [
        p for p in parts
        if isinstance(p, int) or (isinstance(p, str) and _NAME.match(p) and p.lower() not in _TYPE_TAGS)
    ]
    return _printable(".".join(str(p) for p in kept + last))


def _printable(name: str) -> str:
    """A field name as a message shows it: control characters escaped, cut short."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in name)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}…"


def _field_named_in(message: str, fields: list[str]) -> str | None:
    """For a check across fields (a model validator): the first field its message names."""
    known = set(fields) - {"type", "campaign"}
    for word in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", message) + re.findall(r"[A-Za-z_][A-Za-z0-9_]*", message):
        if word in known:
            return word
    return None


def parse_command(
    data: Any,
    *,
    line: int | None = None,
    default_campaign: str | None = None,
    ruleset_of: Callable[[str], str | None],
    text: str | None = None,
) -> Command:
    """Validate one decoded command object against its campaign's ruleset.

    `text`: the JSON that `data` was decoded from (a command file's line), validated as it is
    instead of encoding `data` again.
    """
    if not isinstance(data, dict):
        raise CommandError("expected a JSON object, got {got}", line=line, got=_json_type(data))
    command_type = data.get("type")
    command_id = data.get("id") if isinstance(data.get("id"), str) and len(data["id"]) <= SHOWN else None
    if not isinstance(command_type, str):
        if "type" in data:
            raise CommandError("every command needs a string `type` (got {got})", line=line, command_id=command_id,
                               field="type", got=shown(command_type))
        raise CommandError("every command needs a string `type`", line=line, command_id=command_id, field="type")
    if data.get("campaign") is None and default_campaign is not None:
        data, text = {**data, "campaign": default_campaign}, None
    ruleset = _ruleset_taking(command_type, data.get("campaign"), ruleset_of)
    if ruleset is None:
        ruleset = _ruleset_or_why(data, command_type, command_id, line, ruleset_of)
    model = _model(ruleset, command_type)
    command = _strictly_valid(model, json.dumps(data, ensure_ascii=False) if text is None else text)
    found = _unsafe(data) if command is not None else wrong_type(data, _schema(model)) or _unsafe(data)
    if found is None and command_type == "create_campaign":
        found = _option_of_wrong_type(data.get("options"), rules_of(ruleset).default_options)
    if found is not None:
        field, template, values = found
        raise CommandError(template, line=line, command_type=command_type, command_id=command_id, field=field,
                           values=values)
    if command is not None:
        return command
    try:
        return adapter_for(ruleset).validate_python(data)
    except ValidationError as error:
        errors = error.errors()
        # A misspelt field is both unknown and, under its right name, missing: name the unknown one.
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        template, values = reason(first, command_type, list(model.model_fields))
        field = _field_path(first) or _field_named_in(template.format(**values) if values else template,
                                                      list(model.model_fields))
        raise CommandError(
            template, line=line, command_type=command_type, command_id=command_id, field=field, values=values
        ) from None


def _ruleset_taking(command_type: str, campaign: Any, ruleset_of: Callable[[str], str | None]) -> str | None:
    """The ruleset of an existing campaign that has this command: the common case, found without
    loading every other ruleset's commands (which only explaining a mistake needs)."""
    if command_type == "create_campaign" or not isinstance(campaign, str) or not 0 < len(campaign) <= 200:
        return None
    ruleset = ruleset_of(campaign)
    return ruleset if ruleset is not None and command_type in commands_for(ruleset) else None


def _ruleset_or_why(
    data: dict[str, Any], command_type: str, command_id: str | None, line: int | None,
    ruleset_of: Callable[[str], str | None],
) -> str:
    """The command's ruleset, or the refusal that says what is wrong with its type or campaign."""
    known = all_types()
    if command_type not in known:
        meant = closest(command_type, list(known))
        if meant is not None:
            raise CommandError("unknown command type {type} (see `rollbook schema`); did you mean `{meant}`?",
                               line=line, command_id=command_id, field="type", type=shown(command_type), meant=meant)
        raise CommandError("unknown command type {type} (see `rollbook schema`)", line=line, command_id=command_id,
                           field="type", type=shown(command_type))
    campaign = data.get("campaign")
    if campaign is None:
        raise CommandError(
            "no campaign: give `campaign` in the command or --campaign",
            line=line, command_type=command_type, command_id=command_id, field="campaign",
        )
    if not isinstance(campaign, str) or not campaign or len(campaign) > 200:
        raise CommandError(
            "the campaign's id must be a string of 1 to 200 characters (got {got})",
            line=line, command_type=command_type, command_id=command_id, field="campaign", got=shown(campaign),
        )
    if command_type == "create_campaign":
        ruleset = data.get("ruleset")
        if not isinstance(ruleset, str) or ruleset not in available():
            raise CommandError(
                "unknown ruleset {ruleset} (available: {available})", line=line, command_type=command_type,
                command_id=command_id, field="ruleset", ruleset=shown(ruleset), available=", ".join(available()),
            )
    else:
        ruleset = ruleset_of(campaign)
        if ruleset is None:
            raise CommandError(
                "no campaign {campaign!r} in this store; create it first with create_campaign",
                line=line, command_type=command_type, command_id=command_id, field="campaign", campaign=campaign,
            )
        if ruleset not in known[command_type]:
            raise CommandError(
                "{type} is not a command of the {ruleset} rules (it belongs to {rulesets})",
                line=line, command_type=command_type, command_id=command_id, field="type", type=command_type,
                ruleset=ruleset, rulesets=", ".join(known[command_type]),
            )
    return ruleset


def _strictly_valid(model: type[Command], text: str) -> Command | None:
    """The command if pydantic's strict JSON mode takes its JSON `text` as it is, else None.

    Strict mode refuses every value of the wrong JSON type, like `wrong_type`, in one pass
    of compiled code; only a command it refuses pays for the walk that explains why.
    """
    try:
        return model.model_validate_json(text, strict=True)
    except (ValidationError, TypeError, ValueError):
        return None


def parse_recorded(data: dict[str, Any], *, ruleset: str) -> Command:
    """A command as the store recorded it, validated by its model alone.

    It passed `parse_command` when it was first applied and was recorded in canonical form,
    so the checks that exist to explain a user's mistakes (JSON types, unknown types and
    campaigns) would only repeat themselves; re-executing a long history skips them.
    """
    try:
        return _model(ruleset, str(data["type"])).model_validate(data)
    except (KeyError, ValidationError) as error:
        raise CommandError("the recorded command no longer validates: {error}", command_id=data.get("id"),
                           error=str(error)) from None


def _model(ruleset: str, command_type: str) -> type[Command]:
    return commands_for(ruleset)[command_type][0]


@cache
def _schema(model: type[Command]) -> dict[str, Any]:
    """A command model's JSON Schema, made once: making it takes longer than applying the command."""
    return model.model_json_schema()


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "integer": (int,), "number": (int, float), "boolean": (bool,),
    "array": (list, tuple), "object": (dict,), "null": (type(None),),
}


def _fits(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> bool:
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        return any(_fits(value, option, defs) for option in schema["anyOf"])
    kind = schema.get("type")
    if kind is None:
        return True
    if isinstance(value, bool) and kind in ("integer", "number"):
        return False
    return isinstance(value, _JSON_TYPES[kind]) or (kind == "string" and hasattr(value, "isoformat"))


def wrong_type(data: Any, schema: dict[str, Any], *, defs: dict[str, Any] | None = None, path: str = "") -> Found | None:
    """The first value whose JSON type the command's schema does not allow: (field, why, its values).

    Pydantic would quietly turn "2" into 2, true into 1 and 2.0 into 2; a command file says
    what it means, so a value of the wrong JSON type is refused, as `rollbook schema` says.
    """
    defs = schema.get("$defs", {}) if defs is None else defs
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if not _fits(data, schema, defs):
        return path, *_expected_instead(_expected(schema, defs), data)
    options = [schema] if "anyOf" not in schema else [o for o in schema["anyOf"] if _fits(data, o, defs)][:1]
    for option in options:
        option = defs[option["$ref"].rsplit("/", 1)[-1]] if "$ref" in option else option
        if isinstance(data, dict):
            extra = option.get("additionalProperties")
            for key, value in data.items():
                inner = option.get("properties", {}).get(key, extra if isinstance(extra, dict) else None)
                if inner is not None:
                    found = wrong_type(value, inner, defs=defs, path=f"{path}.{key}" if path else str(key))
                    if found is not None:
                        return found
        elif isinstance(data, list | tuple) and isinstance(option.get("items"), dict):
            for index, value in enumerate(data):
                found = wrong_type(value, option["items"], defs=defs, path=f"{path}.{index}" if path else str(index))
                if found is not None:
                    return found
    return None


#: The longest text any field takes (names and ids are shorter still, by their own limits).
MAX_TEXT = 10_000
#: The largest whole number JSON exchanges exactly (RFC 8259 §6: IEEE 754 doubles).
MAX_NUMBER = 2**53 - 1


def _unsafe(data: Any, path: str = "") -> Found | None:
    """A value no field takes, wherever it is: a NUL character (no name or text needs one, and
    PostgreSQL text cannot hold it), a text longer than MAX_TEXT, a number beyond ±MAX_NUMBER."""
    if isinstance(data, str):
        if "\x00" in data:
            return _printable(path), N_("contains a NUL character (\\u0000)"), {}
        if len(data) > MAX_TEXT:
            return _printable(path), N_("a text of {length} characters (at most {most})"), {
                "length": len(data), "most": MAX_TEXT}
        return None
    if isinstance(data, int | float) and not isinstance(data, bool) and abs(data) > MAX_NUMBER:
        return _printable(path), N_("{value} is beyond ±{most}, the largest number JSON keeps exactly"), {
            "value": shown(data), "most": MAX_NUMBER}
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        where = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and "\x00" in key:
            return _printable(where), N_("a field name contains a NUL character"), {}
        found = _unsafe(value, where)
        if found is not None:
            return found
    return None


def _option_of_wrong_type(options: Any, defaults: dict[str, Any]) -> Found | None:
    """A rule option must be of its default's type: the rules compute with it."""
    if not isinstance(options, dict):
        return None
    for key, value in options.items():
        if key in defaults and (type(value) is not type(defaults[key])):
            return f"options.{key}", N_("expected {expected} like the default {default}, got {got} ({value})"), {
                "expected": _json_type(defaults[key]), "default": shown(defaults[key]), "got": _json_type(value),
                "value": shown(value)}
    return None


#: JSON's kinds of value, as the schema names them, in words.
_KINDS = {"string": N_("a string"), "integer": N_("a whole number"), "number": N_("a number"),
          "boolean": N_("true or false"), "array": N_("an array"), "object": N_("an object"), "null": "null"}
_TYPES: dict[type, str] = {list: N_("an array"), dict: N_("an object"), str: N_("a string"), int: N_("a whole number"),
                           float: N_("a number"), bool: N_("true/false")}


def _expected(schema: dict[str, Any], defs: dict[str, Any]) -> tuple[Word, ...]:
    """What the schema takes, in words: one kind, or the kinds of its alternatives."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        return tuple(kind for kinds in dict.fromkeys(_expected(o, defs) for o in schema["anyOf"]) for kind in kinds)
    return (Word(_KINDS.get(schema.get("type", ""), N_("a value"))),)


def _expected_instead(expected: tuple[Word, ...], data: Any) -> tuple[str, dict[str, Any]]:
    """Why a value of the wrong JSON type is refused: what was expected, what was given."""
    given = {"got": _json_type(data), "value": shown(data)}
    if len(expected) == 2:
        return N_("expected {expected} or {alternative}, got {got} ({value})"), {
            "expected": expected[0], "alternative": expected[1], **given}
    if len(expected) == 3:
        return N_("expected {expected} or {alternative} or {another}, got {got} ({value})"), {
            "expected": expected[0], "alternative": expected[1], "another": expected[2], **given}
    alternatives = " or ".join(expected)  # more than three: said in English, as no schema of Rollbook's has them
    return N_("expected {expected}, got {got} ({value})"), {"expected": Word(alternatives), **given}


def _json_type(value: Any) -> Word:
    return Word("null" if value is None else _TYPES.get(type(value), type(value).__name__))


def rejected(error: CommandRejected, line: int | None, command: Command) -> CommandError:
    return CommandError(
        error.template, line=line, command_type=command.type, command_id=command.id, field=error.field,
        values=error.values,
    )
