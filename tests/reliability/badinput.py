"""Bad command lines, by kind, for the fuzz tests: each is refused, whatever the store holds.

A case is the bytes of one line and the field its refusal must name (None where the line
cannot be read at all: broken JSON, bytes that are not UTF-8, a value that is no object).
Most cases start from a template — a command that is valid in the base campaign — and
break exactly one thing in it, so the refusal must name exactly that field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from rollbook.commands.catalogue import all_types, commands_for
from rollbook.commands.parse import MAX_TEXT, _printable

from .support import CAMPAIGN, PIRATE_BASE

#: Another campaign in the base store, of another ruleset, for commands sent to the wrong one.
ARENA = "arena"

#: The base campaign: the example up to an open battle, and an empty gladiators campaign.
BASE_LINES = PIRATE_BASE + [
    json.dumps({"type": "create_campaign", "campaign": ARENA, "ruleset": "gladiators", "title": "Arena"})
]

#: Commands that are valid in the base campaign, each on its own.
TEMPLATES: list[dict[str, Any]] = [
    {"type": "roll_move", "campaign": CAMPAIGN, "character": "Anna", "stat": "audacity", "dice": [3, 4]},
    {"type": "take_damage", "campaign": CAMPAIGN, "character": "Anna", "harm": 1},
    {"type": "take_hole", "campaign": CAMPAIGN, "ship": "Chaika"},
    {"type": "take_breakdown", "campaign": CAMPAIGN, "ship": "Chaika", "breakdown": "torn_sails"},
    {"type": "create_character", "campaign": CAMPAIGN, "name": "Cora", "player": "cora", "luck": 1,
     "stats": {"audacity": 0, "guile": 1, "foresight": 2, "reputation": -2}},
    {"type": "create_ship", "campaign": CAMPAIGN, "name": "Swift", "navigation": 1, "firepower": 1,
     "displacement": 1, "hull": 3},
    {"type": "start_story", "campaign": CAMPAIGN, "title": "Treasure"},
    {"type": "create_campaign", "campaign": "new-one", "ruleset": "pirates", "title": "New",
     "at": "2026-03-01T20:00:00+00:00"},
]

_NAMES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict,
          "null": type(None)}
_SAMPLES: dict[str, Any] = {"string": "x", "integer": 2, "number": 2.5, "boolean": True, "array": [1],
                            "object": {"a": 1}, "null": None}


@dataclass(frozen=True)
class Case:
    kind: str
    line: bytes
    field: str | None  # None: the line cannot be read at all, no field to name


@cache
def _model_schema(ruleset: str, command_type: str) -> dict[str, Any]:
    return commands_for(ruleset)[command_type][0].model_json_schema()


def _schema(command: dict[str, Any]) -> dict[str, Any]:
    return _model_schema("pirates" if command["campaign"] != ARENA else "gladiators", command["type"])


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    return defs[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema


def _options(schema: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    schema = _resolve(schema, defs)
    return [_resolve(o, defs) for o in schema["anyOf"]] if "anyOf" in schema else [schema]


def _fields(command: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(path, schema, defs) of every field of the command's schema, nested objects included."""
    return _fields_of(json.dumps(command))


@cache
def _fields_of(text: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    schema = _schema(json.loads(text))
    defs = schema.get("$defs", {})
    found = []

    def walk(prefix: str, properties: dict[str, Any]) -> None:
        for name, inner in properties.items():
            if name == "type":
                continue
            path = f"{prefix}{name}"
            found.append((path, inner, defs))
            for option in _options(inner, defs):
                if option.get("type") == "object" and option.get("properties"):
                    walk(f"{path}.", option["properties"])

    walk("", schema["properties"])
    return found


def _paths(wanted: Any) -> list[tuple[dict[str, Any], str, list[dict[str, Any]]]]:
    """(template, field path, schema options) of every field of every template whose options are `wanted`."""
    return [
        (t, path, _options(schema, defs))
        for t in TEMPLATES for path, schema, defs in _fields(t) if wanted(_options(schema, defs))
    ]


def _put(command: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    copy = json.loads(json.dumps(command))
    *parents, last = path.split(".")
    target = copy
    for part in parents:
        target = target.setdefault(part, {})
    target[last] = value
    return copy


def _line(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8", "surrogatepass")


templates = st.sampled_from(TEMPLATES)
any_text = st.text(max_size=40)
json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | any_text
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3), max_leaves=8)


@st.composite
def broken_json(draw: st.DrawFn) -> Case:
    text = _line(draw(templates)).decode()
    how = draw(st.sampled_from(["cut", "garbage", "equals", "quote", "random"]))
    if how == "cut":
        text = text[: draw(st.integers(1, len(text) - 1))]
    elif how == "garbage":
        text += draw(st.sampled_from(["}", ",", "x", "{}", "]", '"', "1"]))
    elif how == "equals":
        text = text.replace(":", "=", 1)
    elif how == "quote":
        at = draw(st.integers(0, len(text) - 1))
        text = text[:at] + '"' + text[at:]
    else:
        text = draw(st.text(min_size=1, max_size=60).filter(lambda t: t.strip() and not t.lstrip().startswith("//")))
        if "\n" in text or "\r" in text:
            text = text.replace("\n", " ").replace("\r", " ")
        try:
            if isinstance(json.loads(text), dict):
                text = "{" + text  # still readable as an object: break it
        except ValueError:
            pass
    return Case("broken JSON", text.encode("utf-8", "surrogatepass"), None)


@st.composite
def non_utf8(draw: st.DrawFn) -> Case:
    raw = _line(draw(templates))
    bad = draw(st.sampled_from([b"\xff", b"\xfe", b"\xc3", b"\xc0\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80"]))
    at = draw(st.integers(0, len(raw)))
    return Case("non-UTF-8 bytes", raw[:at] + bad + raw[at:], None)


@st.composite
def unknown_type(draw: st.DrawFn) -> Case:
    command = draw(templates)
    name = draw(any_text.filter(lambda t: t not in all_types()))
    return Case("unknown type", _line({**command, "type": name}), "type")


@st.composite
def unknown_field(draw: st.DrawFn) -> Case:
    command = draw(templates)
    known = {path.split(".")[0] for path, _, _ in _fields(command)} | {"type"}
    key = draw(st.text(min_size=1, max_size=30).filter(lambda k: k not in known))
    return Case("unknown field", _line({**command, key: draw(json_values)}), _printable(key))


@st.composite
def wrong_type(draw: st.DrawFn) -> Case:
    command = draw(templates)
    path, schema, defs = draw(st.sampled_from(_fields(command)))
    allowed = {o.get("type") for o in _options(schema, defs)}
    if None in allowed:  # a field of any type cannot be of the wrong one
        allowed = set(_NAMES)
    wrong = draw(st.sampled_from(sorted(set(_NAMES) - allowed - ({"integer"} if "number" in allowed else set()))))
    value = draw(st.just(_SAMPLES[wrong]) | {
        "string": any_text, "integer": st.integers(), "number": st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: not f.is_integer()),
        "boolean": st.booleans(), "array": st.lists(json_scalars, max_size=3),
        "object": st.dictionaries(any_text, json_scalars, max_size=3), "null": st.none(),
    }[wrong])
    return Case("wrong type", _line(_put(command, path, value)), path)


@st.composite
def out_of_range(draw: st.DrawFn) -> Case:
    command = draw(templates)
    choices = []
    for path, schema, defs in _fields(command):
        for option in _options(schema, defs):
            if "maximum" in option or "minimum" in option or "maxLength" in option or "minLength" in option \
                    or "enum" in option or "const" in option or "maxItems" in option or "pattern" in option \
                    or option.get("format") == "date-time":
                choices.append((path, option))
    path, option = draw(st.sampled_from(choices))
    step = draw(st.integers(1, 10) | st.integers(11, 10**30))
    candidates = []
    if "maximum" in option:
        candidates.append(option["maximum"] + step)
    if "minimum" in option:
        candidates.append(option["minimum"] - step)
    if "maxLength" in option:
        candidates.append("x" * (option["maxLength"] + min(step, 5000)))
    if option.get("minLength", 0) >= 1:
        candidates.append("")
    if "enum" in option or "const" in option:
        allowed = option.get("enum", [option.get("const")])
        candidates.append(draw(any_text.filter(lambda t: t not in allowed)))
    if "maxItems" in option:
        candidates.append([1] * (option["maxItems"] + min(step, 100)))
    if "pattern" in option:
        unmatched = [v for v in ["has space", "a#b", "tab\there", "x@y", "player:a b", "gm ", "a:b:c"]
                     if not re.search(option["pattern"], v)]
        candidates.append(draw(st.sampled_from(unmatched)))
    if option.get("format") == "date-time":
        candidates.append(draw(st.sampled_from(["2026-13-45T00:00:00Z", "yesterday", "2026-03-01T20:00:00", ""])))
    value = draw(st.sampled_from(candidates))
    return Case("out of range", _line(_put(command, path, value)), path)


@st.composite
def unknown_character(draw: st.DrawFn) -> Case:
    command = draw(st.sampled_from([t for t in TEMPLATES if "character" in t or "ship" in t]))
    field = "character" if "character" in command else "ship"
    name = draw(st.text(min_size=0, max_size=250).filter(lambda n: n not in ("Anna", "Bo", "Chaika")))
    return Case("unknown character", _line({**command, field: name}), field)


@st.composite
def impossible_dice(draw: st.DrawFn) -> Case:
    command = {k: v for k, v in TEMPLATES[0].items() if k != "dice"}
    bad_face = st.integers(max_value=0) | st.integers(min_value=7)
    faces = draw(
        st.lists(st.integers(1, 6), min_size=2, max_size=2).flatmap(
            lambda good: st.integers(0, 1).flatmap(lambda i: bad_face.map(lambda f: [*good[:i], f, *good[i + 1:]]))
        )
        | st.lists(st.integers(1, 6), max_size=1)
        | st.lists(st.integers(1, 6), min_size=3, max_size=20)
    )
    return Case("impossible dice", _line({**command, "dice": faces}), "dice")


@st.composite
def other_ruleset(draw: st.DrawFn) -> Case:
    to_arena = draw(st.booleans())
    types = all_types()
    here = "gladiators" if to_arena else "pirates"
    foreign = sorted(t for t, rulesets in types.items() if here not in rulesets)
    payload = draw(st.dictionaries(st.sampled_from(["name", "character", "ship", "harm", "dice", "title"]), json_scalars, max_size=3))
    command = {**payload, "type": draw(st.sampled_from(foreign)), "campaign": ARENA if to_arena else CAMPAIGN}
    return Case("command of another ruleset", _line(command), "type")


@st.composite
def huge_number(draw: st.DrawFn) -> Case:
    command, path, _ = draw(st.sampled_from(_paths(lambda options: bool({"integer", "number"} & {o.get("type") for o in options}))))
    digits = draw(st.integers(20, 6000))
    value = draw(st.sampled_from(["", "-"])) + draw(st.sampled_from(["9" * digits, "1e400", "1e308"]))
    line = _line(_put(command, path, "@@@")).decode().replace('"@@@"', value)
    unreadable = value.lstrip("-").startswith("9") and digits > 4300  # more digits than Python reads
    return Case("huge number", line.encode(), None if unreadable else path)


@st.composite
def long_string(draw: st.DrawFn) -> Case:
    command, path, options = draw(st.sampled_from(_paths(
        lambda options: "string" in {o.get("type") for o in options}
        and not any("enum" in o or "const" in o or o.get("format") for o in options)
    )))
    limit = max(o.get("maxLength", MAX_TEXT) for o in options if o.get("type") == "string")
    length = draw(st.integers(limit + 1, limit + 2000) | st.integers(MAX_TEXT + 1, 1_000_000))
    letter = draw(st.sampled_from(["x", "я", "🏴", "\u0301"]))
    return Case("very long string", _line(_put(command, path, letter * length)), path)


STRATEGIES = {
    "broken_json": broken_json(),
    "non_utf8": non_utf8(),
    "unknown_type": unknown_type(),
    "unknown_field": unknown_field(),
    "wrong_type": wrong_type(),
    "out_of_range": out_of_range(),
    "unknown_character": unknown_character(),
    "impossible_dice": impossible_dice(),
    "other_ruleset": other_ruleset(),
    "huge_number": huge_number(),
    "long_string": long_string(),
}
