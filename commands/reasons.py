"""Why pydantic refused a command's value, as a template and its values, said in the reader's language.

Pydantic says a refused value in English (`error["msg"]`); its error's `type` and `ctx` say the same in
data, so the reason is made from them, as pydantic's documentation customises messages: one template per
common type, pydantic's own English followed by the value given (`Input should be greater than or equal to
{ge} (got {got})`), translated in the catalog. A template whose English is not pydantic's message for that
error (a pydantic that words it otherwise) is not used: the reason is then pydantic's message as it is, so
the English stays what pydantic says, byte for byte.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any

from ..domain.errors import Word
from ..language import N_

#: How much of a bad value a message repeats: enough to recognise it, never a whole huge string.
SHOWN = 80

#: What a field whose value must match a pattern takes, in words instead of the pattern.
PATTERN_WORDS = {
    "actor": N_("an actor is who gives the command: gm, player:NAME or auditor:NAME (a NAME without spaces or "
                "colons)"),
    "campaign": N_("a campaign's id has no spaces and no '@' (revision N of it is asked for with --revision N)"),
    "id": N_("a command's id has no spaces and no '#'"),
}

#: Pydantic's message of each common error type, then the value given; `ctx` fills the rest.
TEMPLATES = {
    "greater_than": N_("Input should be greater than {gt} (got {got})"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge} (got {got})"),
    "less_than": N_("Input should be less than {lt} (got {got})"),
    "less_than_equal": N_("Input should be less than or equal to {le} (got {got})"),
    "multiple_of": N_("Input should be a multiple of {multiple_of} (got {got})"),
    "literal_error": N_("Input should be {expected} (got {got})"),
    "enum": N_("Input should be {expected} (got {got})"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer (got {got})"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part (got {got})"),
    "int_type": N_("Input should be a valid integer (got {got})"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number (got {got})"),
    "float_type": N_("Input should be a valid number (got {got})"),
    "string_type": N_("Input should be a valid string (got {got})"),
    "bool_type": N_("Input should be a valid boolean (got {got})"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input (got {got})"),
    "list_type": N_("Input should be a valid list (got {got})"),
    "dict_type": N_("Input should be a valid dictionary (got {got})"),
    "finite_number": N_("Input should be a finite number (got {got})"),
    "datetime_type": N_("Input should be a valid datetime (got {got})"),
    "datetime_parsing": N_("Input should be a valid datetime, {error} (got {got})"),
    "datetime_from_date_parsing": N_("Input should be a valid datetime or date, {error} (got {got})"),
    "timezone_aware": N_("Input should have timezone info (got {got})"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}' (got {got})"),
    "plain_id": N_("cannot be an id: it {problem} (got {got})"),
}
#: Pydantic's messages that count (`character{expected_plural}`): said for one and for more apart.
COUNTED = {
    "string_too_short": (N_("String should have at least {min_length} character (got {got})"),
                         N_("String should have at least {min_length} characters (got {got})"), "min_length"),
    "string_too_long": (N_("String should have at most {max_length} character (got {got})"),
                        N_("String should have at most {max_length} characters (got {got})"), "max_length"),
    "too_short": (N_("{field_type} should have at least {min_length} item after validation, not {actual_length} "
                     "(got {got})"),
                  N_("{field_type} should have at least {min_length} items after validation, not {actual_length} "
                     "(got {got})"), "min_length"),
    "too_long": (N_("{field_type} should have at most {max_length} item after validation, not {actual_length} "
                    "(got {got})"),
                 N_("{field_type} should have at most {max_length} items after validation, not {actual_length} "
                    "(got {got})"), "max_length"),
}
#: What `ctx` holds that is a word of pydantic's (a collection's kind, why a time did not parse).
WORDS = {"field_type", "error", "problem"}
#: The collections pydantic names in `too_short` and `too_long`.
COLLECTIONS = (N_("List"), N_("Tuple"), N_("Set"), N_("Dictionary"))


def shown(value: Any) -> str:
    """A value as a message repeats it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= SHOWN else f"{text[:SHOWN]}… ({len(text)} characters)"


def closest(given: Any, known: Iterable[str]) -> str | None:
    """The known name a misspelt one is close to (as domain.names.did_you_mean finds it), or None."""
    close = difflib.get_close_matches(given, list(known), n=1) if isinstance(given, str) else []
    return close[0] if close else None


def reason(error: dict[str, Any], command_type: str, fields: Iterable[str]) -> tuple[str, dict[str, Any]]:
    """Why pydantic refused: a template and its values (their English is what this Rollbook always said)."""
    kind = error["type"]
    if kind == "extra_forbidden":
        meant = closest(str(error["loc"][-1]), fields)
        if meant is None:
            return N_("unknown field for {command_type} (`rollbook schema` lists the fields)"), {
                "command_type": command_type}
        return N_("unknown field for {command_type} (`rollbook schema` lists the fields); did you mean `{meant}`?"), {
            "command_type": command_type, "meant": meant}
    if kind == "missing":
        return N_("required, but missing"), {}
    if kind == "string_pattern_mismatch" and error["loc"] and error["loc"][-1] in PATTERN_WORDS:
        return N_("{expected}, not {got}"), {"expected": Word(PATTERN_WORDS[error["loc"][-1]]),
                                         "got": shown(error.get("input"))}
    message = str(error["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if "input" not in error or isinstance(error["input"], dict):
        return message, {}  # said as pydantic says it: a template without values is not filled
    values = {key: Word(str(value)) if key in WORDS else value for key, value in (error.get("ctx") or {}).items()}
    values["got"] = shown(error["input"])
    template = TEMPLATES.get(kind)
    if kind in COUNTED:
        one, more, count = COUNTED[kind]
        template = one if values.get(count) == 1 else more
    if template is not None and _fills(template, values) == f"{message} (got {values['got']})":
        return template, values
    return N_("{message} (got {got})"), {"message": message, "got": values["got"]}


def _fills(template: str, values: dict[str, Any]) -> str | None:
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return None
