"""The post form, built from the game: a command's fields as the inputs a player expects.

Every command model of every ruleset (a plugin's too) gets a working form from its JSON Schema
and the ownership declarations on its fields (commands/ownership.py), read with the campaign at
hand: a boolean is a checkbox, a count a number input with the rule's bounds, the character a
choice among those the signed-in user may act for, a stat a choice showing the sheet's value
("Audacity +2"), a field whose schema lists `x-choices` (a game's book of moves) a choice among
them. The GM's own fields are absent for a player. `dice` (faces rolled elsewhere) is kept apart:
the page folds it under its own heading. The same description reads the posted form back, so
a value the form cannot turn into the field's type is refused beside that field, naming it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from ..commands.ownership import GmOnly, Owned, OwnerOf, declarations
from ..projections.language import gettext
from .field_words import said

#: Fields the page fills itself, or that the path and the sign-in decide.
FILLED = {"type", "campaign", "actor", "id", "at", "salt", "seen", "commitment"}
#: Faces rolled elsewhere: shown folded away, under their own heading.
DICE = "dice"
#: A field naming an earlier roll (its id): a choice among the recent rolls.
ROLL = "roll"
#: Free-text fields naming a part of the acting character's sheet: offered as suggestions from it.
SHEET_NAMED = {"trait", "skill", "ability", "attribute", "power", "talent"}
#: How many recent rolls a roll's choice offers.
RECENT_ROLLS = 30
#: How far back the command a form opens on is counted.
RECENT_PLAY = 200
#: Commands no form opens on: the campaign's creation and the seed's keeping are rare and grave.
NEVER_FIRST = {"rotate_seed", "abandon_seed"}
#: Not offered on a campaign's page: the campaign is made already (`rollbook post create_campaign`, the API).
CREATED_ELSEWHERE = {"create_campaign"}


class FormValueError(ValueError):
    """A posted value the form cannot read as its field's type."""

    def __init__(self, field_name: str, reason: str) -> None:
        super().__init__(reason)
        self.field, self.reason = field_name, reason


@dataclass
class FormField:
    name: str  # the form's name for it: `stats.audacity` for a part of an object
    label: str
    kind: str  # choice, checkbox, several, number, faces, list, map, group, json, text
    required: bool = False
    help: str = ""
    choices: list[tuple[str, str]] = field(default_factory=list)
    minimum: int | None = None
    maximum: int | None = None
    value: str = ""
    error: str | None = None
    parts: list[FormField] = field(default_factory=list)  # an object's own fields, shown as a group
    acting: bool = False  # it names the character the command is for: choosing another redraws the form
    sets: dict[str, dict[str, str]] = field(default_factory=dict)  # field -> (this value -> its value): redraws
    decided: bool = False  # set by the move chosen on the sheet: sent as it is, said in words, not asked
    item: FormField | None = None  # a list's item, a map's value: how one is asked (its kind, choices, bounds)
    key: FormField | None = None  # a map's name, where the schema lists the names it may have: a choice
    items: list[list[FormField]] = field(default_factory=list)  # a list's or map's rows: [value] or [name, value]
    suggestions: list[str] = field(default_factory=list)  # for free text: what the acting sheet has
    default: Any = None  # the schema's default: a part of a list's row left at it does not fill the row
    #: A list's or map's value that may be a number or an object (a Power: its rank, or its full description):
    #: the object's part the number stands for; the row's number is that part, the rest the description.
    short: str | None = None
    typed: bool = False  # a choice whose values are JSON (true, false, numbers), read back as such


@dataclass(frozen=True)
class Offer:
    """What the form offers from the campaign: whom the user may act for, the players, the sheets."""

    role: str
    actable: list[str]  # characters the user may act for (a GM: every one)
    ships: list[str]
    players: list[str]
    sheets: dict[str, dict[str, Any]]
    user: str
    rolls: list[tuple[str, str]] = field(default_factory=list)  # recent rolls, newest first, in words


def words(name: str) -> str:
    """`luck_bonus` → "Luck bonus"."""
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def default_type(types: list[str], recorded: list[dict[str, Any]], role: str, usual: str = "roll_move") -> str | None:
    """The command the form opens on: the one this role has issued most in the campaign's recent
    play (its last RECENT_PLAY commands, so a long campaign's setting up weighs nothing); with none
    recorded, for a GM a new character (how a campaign begins), for a player `usual`, what a player
    of the game does most (its first common move, as the game declares it)."""
    if not types:
        return None
    offered = [t for t in types if t not in NEVER_FIRST] or types
    mine = Counter(c["type"] for c in recorded[-RECENT_PLAY:] if c.get("type") in offered
                   and (c.get("actor") == "gm") == (role == "gm"))
    if mine:
        return max(offered, key=lambda t: (mine[t], -offered.index(t)))
    preferred = "create_character" if role == "gm" else usual
    return preferred if preferred in offered else offered[0]


def build(model: type, table: Offer, values: dict[str, str] | None = None,
          decided: frozenset[str] = frozenset()) -> tuple[list[FormField], FormField | None]:
    """(the fields of the form in the schema's order, the dice field or None) for `table.role`; the
    `decided` ones (the move chosen on the sheet decides them) are not asked. A field that sets another
    (a book's move its stat, `x-sets`) comes before it, and the value it sets is the only one offered."""
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    markers = declarations(model)  # type: ignore[arg-type]
    values = values or {}
    acting_field, acting = _acting(markers, table, values)
    rows, dice = [], None
    for name, spec in schema.get("properties", {}).items():
        if name in FILLED:
            continue
        if table.role != "gm" and (spec.get("x-gm-only") or any(isinstance(m, GmOnly) for m in markers.get(name, ()))):
            continue
        row = _field(name, spec, defs, name in required, markers.get(name, ()), table, acting)
        row.value = values.get(name, acting if name == acting_field and acting else row.value)
        row.acting = name == acting_field
        row.sets = spec.get("x-sets") or {}
        row.decided = name in decided
        if row.item is not None:
            _rows_of(row, values)
        for part in row.parts:
            part.value = values.get(part.name, part.value)
        if name == DICE:
            row.label = gettext("Faces")
            row.help = gettext("in the order the rules roll them, e.g. 3, 4; leave empty to roll here")
            dice = row
        else:
            rows.append(row)
    return _setters_first(rows, table.sheets.get(acting or "", {})), dice


#: A list's or map's row in the form: `perks#2` (a list's third), `talents#0:name` and `talents#0:value` (a map's).
ROW = "#"
#: One of several values ticked in a row's part: `powers#0.uses~attack`.
SEVERAL = "~"


def _rows_of(row: FormField, values: dict[str, str]) -> None:
    """A list's or map's rows as the form stands, and one empty row more to add another (`more` asks two).
    An item that is an object is asked part by part in its row: `members#0.trait`, `weapons#1.damage`."""
    filled = {int(found.group(1)) for key in values
              if (found := re.match(re.escape(row.name + ROW) + r"(\d+)", key)) and values[key].strip()}
    count = (max(filled) + 1 if filled else 0) + 1 + (values.get("more") == row.name)
    item = row.item
    assert item is not None
    for n in range(count):
        stem = f"{row.name}{ROW}{n}"
        cells = []
        if row.kind == "map":
            cells.append(replace(row.key or FormField(name="", label="", kind="text"), name=f"{stem}:name",
                                 label=gettext("Name"), value=values.get(f"{stem}:name", ""), required=False))
        if item.kind != "group" or item.short:
            named = stem + (":value" if row.kind == "map" else "")
            label = words(said(item.short)) if item.short else f"{row.label} {n + 1}" if row.kind == "list" else gettext("Value")
            cells.append(replace(item, kind="number" if item.short else item.kind, parts=[], name=named,
                                 label=label, value=values.get(named, ""), required=False))
        if item.kind == "group":
            posted = any(key.startswith(stem + ".") or key.startswith(stem + ":") for key in values)
            for part in item.parts:
                if part.name == item.short:
                    continue
                named = f"{stem}.{part.name}"
                if part.kind == "several":
                    shown = ",".join(v for v, _ in part.choices if values.get(f"{named}{SEVERAL}{v}"))
                else:
                    shown = values.get(named, "" if posted else part.value)
                cells.append(replace(part, name=named, label=f"{part.label} {n + 1}" if row.kind == "list" else part.label,
                                     value=shown, required=False))
        row.items.append(cells)


def _setters_first(rows: list[FormField], sheet: dict[str, Any]) -> list[FormField]:
    """Each field that sets another placed right before it, and the value it sets made the other's only
    choice (Wild Carousing rolls Reputation, L215); a field shows its holding beside it (the luck he has)."""
    for setter in [row for row in rows if row.sets]:
        for name, by_value in setter.sets.items():
            target = next((row for row in rows if row.name == name), None)
            if target is None:
                continue
            if setter.value in by_value:
                target.value = by_value[setter.value]
                target.choices = [c for c in target.choices if c[0] == target.value] or target.choices
            rows.remove(setter)
            rows.insert(rows.index(target), setter)
    for row in rows:
        held = sheet.get(row.name.partition("_")[0]) if row.kind == "checkbox" and "_" in row.name else None
        if isinstance(held, int) and not isinstance(held, bool):
            row.label = gettext("{label} ({stat} held: {held})").format(
                label=row.label, stat=said(row.name.partition("_")[0]), held=held)
    return rows


def read(rows: list[FormField], dice: FormField | None, posted: dict[str, str]) -> dict[str, Any]:
    """The posted form as a command's fields, each value read as its field's type; a value the form
    does not know (a crafted post) is passed on as text, for the rules to accept or refuse by name."""
    body: dict[str, Any] = {}
    known = set()
    for row in [*rows, *([dice] if dice else [])]:
        if row.item is not None:
            known.update(part.name for parts in row.items for part in parts)
            value = _collected(row, posted)
            if value:
                body[row.name] = value
            continue
        for part in row.parts or [row]:
            known.add(part.name)
            value = _value(part, posted.get(part.name, ""))
            if value is None:
                continue
            head, _, tail = part.name.partition(".")
            if tail:
                body.setdefault(head, {})[tail] = value
            else:
                body[head] = value
    for name, text in posted.items():
        if name not in known and text != "" and name.isidentifier():
            body[name] = text
    return body


# --- one field --------------------------------------------------------------------------


def _field(name: str, spec: dict[str, Any], defs: dict[str, Any], required: bool, markers: tuple[Any, ...],
           table: Offer, acting: str | None) -> FormField:
    spec, optional = _unwrapped(spec, defs)
    row = FormField(name=name, label=words(said(name)), kind="text", required=required and not optional,
                    help=gettext(spec["description"]) if spec.get("description") else "")
    kind = spec.get("type")
    choices = spec.get("x-choices")
    if spec.get("enum"):
        row.kind, row.choices = "choice", _labelled([str(v) for v in spec["enum"] if v is not None],
                                                    table.sheets.get(acting or "", {}))
    elif choices:
        row.kind = "choice"
        row.choices = list(choices.items()) if isinstance(choices, dict) else [(str(c), str(c)) for c in choices]
    elif any(isinstance(m, OwnerOf) for m in markers):
        row.kind = "choice"
        row.choices = [(p, p) for p in (table.players if table.role == "gm" else [table.user])]
        row.required = row.required or table.role != "gm"  # a player creates only his own
    elif any(isinstance(m, Owned) for m in markers) and kind == "string":
        row.kind = "choice"
        owned_by_name = all(m.whose is None for m in markers if isinstance(m, Owned))
        names = table.actable if owned_by_name else [*table.actable, *table.ships]
        row.choices = [(n, n if n in table.actable else gettext("{name} (ship)").format(name=n)) for n in names]
    elif kind == "string" and name == ROLL and table.rolls:
        row.kind, row.choices = "choice", list(table.rolls)
    elif kind == "string" and name == "ship" and table.ships:
        row.kind, row.choices = "choice", [(n, n) for n in table.ships]
    elif kind == "boolean":
        row.kind = "checkbox"
        row.required = False  # unchecked is a value: false
    elif kind == "integer":
        row.kind = "number"
        row.minimum = _bound(spec, "minimum", "exclusiveMinimum", 1)
        row.maximum = _bound(spec, "maximum", "exclusiveMaximum", -1)
        if "default" in spec and spec["default"] is not None:
            row.value = str(spec["default"])
    elif kind == "array" and spec.get("items", {}).get("type") == "integer":
        row.kind = "faces"
        row.help = row.help or gettext("whole numbers, separated by commas")
    elif kind == "object" and spec.get("properties"):
        row.kind = "group"
        inner = set(spec.get("required", []))
        row.parts = [_field(f"{name}.{part}", sub, defs, row.required and part in inner, (), table, acting)
                     for part, sub in spec["properties"].items()]
        for part in row.parts:
            part.label = words(said(part.name.partition(".")[2]))
    elif kind == "string" and name in SHEET_NAMED:
        row.suggestions = _sheet_names(table.sheets.get(acting or "", {}))
    elif kind == "array" and (item := _simple(name, spec.get("items"), defs, table, acting)):
        row.kind, row.item = "list", item
    elif kind == "object" and (item := _simple(name, spec.get("additionalProperties"), defs, table, acting)):
        row.kind, row.item = "map", item
        if spec.get("propertyNames", {}).get("enum"):
            row.key = _field(name, {"type": "string", **spec["propertyNames"]}, defs, False, (), table, acting)
    elif (counted := _count_or_all(spec)) is not None:
        row.kind, row.choices, row.typed = "choice", counted, True
        row.value = str(spec.get("default", "")).lower()
    elif kind in ("array", "object") or kind is None:
        row.kind = "json"
        row.help = (row.help + " " if row.help else "") + gettext("(as JSON)")
    return row


def _simple(name: str, spec: Any, defs: dict[str, Any], table: Offer, acting: str | None) -> FormField | None:
    """A list's item or a map's value as one input (text, a number, a choice), or as an object's parts (a
    group: a team member's attacker and trait, a weapon's kind and damage); None where a part is more than
    one input (the field stays JSON). A value that may be a number or an object (a Power: its rank, or its
    full description) is the number and the object's other parts beside it."""
    if not isinstance(spec, dict):
        return None
    numbers = [m for m in spec.get("anyOf", ()) if m.get("type") == "integer"]
    others = [m for m in spec.get("anyOf", ()) if m.get("type") != "integer"]
    if numbers and len(others) == 1:
        whole, _ = _unwrapped(others[0], defs)
        record = _record(name, whole, defs, table, acting)
        short = next((part for part in whole.get("required", ())
                      if _unwrapped(whole["properties"][part], defs)[0].get("type") == "integer"), None)
        if record is not None and short is not None:
            record.short = short
            return record
    item = _field(name, numbers[0] if numbers else spec, defs, False, (), table, acting)
    if item.kind in ("text", "number", "choice"):
        return item
    return _record(name, _unwrapped(spec, defs)[0], defs, table, acting)


def _count_or_all(spec: dict[str, Any]) -> list[tuple[str, str]] | None:
    """A whole number or `true` for "as many as possible" (the luck that absorbs harm): the choices, the
    numbers up to ten (the API takes more); None for any other field."""
    members = spec.get("anyOf", ())
    numbers = [m for m in members if m.get("type") == "integer"]
    if len(members) != 2 or len(numbers) != 1 or not any(m.get("type") == "boolean" for m in members):
        return None
    low = int(numbers[0].get("minimum", 0))
    high = min(int(numbers[0].get("maximum", low + 10)), low + 10)
    return [("true", gettext("As many as possible")), *((str(n), str(n)) for n in range(low, high + 1))]


def _record(name: str, spec: dict[str, Any], defs: dict[str, Any], table: Offer, acting: str | None) -> FormField | None:
    """An object asked part by part, each one input (text, number, choice, a box, boxes for several), or None."""
    if spec.get("type") != "object" or not spec.get("properties"):
        return None
    parts = []
    for part, sub in spec["properties"].items():
        markers = tuple(Owned(None) for _ in [0] if sub.get("x-owned"))
        cell = _field(part, sub, defs, part in spec.get("required", ()), markers, table, acting)
        cell.default = _unwrapped(sub, defs)[0].get("default")
        if cell.kind == "list" and cell.item is not None and cell.item.kind == "choice":
            cell.kind, cell.choices, cell.item = "several", cell.item.choices, None
        if cell.kind == "checkbox" and cell.default is None:  # yes, no, or left to the rules
            cell.kind, cell.choices, cell.typed = "choice", [("true", gettext("Yes")), ("false", gettext("No"))], True
        if cell.kind == "checkbox":
            cell.value = "true" if cell.default is True else ""
        if cell.kind not in ("text", "number", "choice", "checkbox", "several"):
            return None
        parts.append(cell)
    return FormField(name=name, label=words(said(name)), kind="group", parts=parts)


def _unwrapped(spec: dict[str, Any], defs: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The field's own schema, through `X | None` and `$ref`; whether it may be left out as null."""
    optional = False
    members = spec.get("anyOf")
    if members:
        kept = [m for m in members if m.get("type") != "null"]
        optional = len(kept) < len(members)
        if len(kept) == 1:
            spec = {**{k: v for k, v in spec.items() if k != "anyOf"}, **kept[0]}
    ref = spec.get("$ref", "")
    if ref.startswith("#/$defs/"):
        spec = {**defs.get(ref.removeprefix("#/$defs/"), {}), **{k: v for k, v in spec.items() if k != "$ref"}}
    return spec, optional


def _bound(spec: dict[str, Any], inclusive: str, exclusive: str, step: int) -> int | None:
    if isinstance(spec.get(inclusive), int):
        return int(spec[inclusive])
    if isinstance(spec.get(exclusive), int):
        return int(spec[exclusive]) + step
    return None


def _labelled(options: list[str], sheet: dict[str, Any]) -> list[tuple[str, str]]:
    """Each option in words, with its value on the acting character's sheet where the sheet has one
    (a stat, an attribute, a skill, in whichever part of the sheet holds it): "Audacity +2", "Fighting d6"."""
    values: dict[str, Any] = {}
    for part in sheet.values():
        if isinstance(part, dict):
            values.update({k: v for k, v in part.items() if isinstance(v, int | str) and not isinstance(v, bool)})
    shown = []
    for option in options:
        value = values.get(option)
        if value is None:
            shown.append((option, words(said(option))))
        else:
            named = words(said(option))
            shown.append((option, f"{named} {value:+d}" if isinstance(value, int) else f"{named} {value}"))
    return shown


def _sheet_names(sheet: dict[str, Any]) -> list[str]:
    """The names in the sheet's parts that hold a value per name (abilities, talents, powers, skills)."""
    names = [name for part in sheet.values() if isinstance(part, dict)
             for name, value in part.items() if isinstance(value, int | str | dict) and not isinstance(value, bool)]
    return list(dict.fromkeys(names))


def recent_rolls(rolls: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The last rolls, newest first, each told in words: "P0 — move:audacity 9, partial success (p0-3)"."""
    told = []
    for roll in reversed(rolls[-RECENT_ROLLS:]):
        who = roll.get("character") or roll.get("actor", "")
        outcome = f", {said(str(roll['outcome']))}" if roll.get("outcome") else ""
        told.append((str(roll["id"]), f"{who} — {roll.get('purpose', 'roll')} {roll.get('total', '')}{outcome} ({roll['id']})"))
    return told


def _acting(markers: dict[str, tuple[Any, ...]], table: Offer, values: dict[str, str]) -> tuple[str | None, str | None]:
    """(the field naming the character the command is for, that character as the form stands), so a
    stat is shown with his value: the first the user may act for until one is chosen."""
    first = next(iter(table.actable), None)
    for name, found in markers.items():
        if any(isinstance(m, Owned) and m.whose is None for m in found):
            chosen = values.get(name)
            return name, chosen if chosen in table.actable else first
    return None, first if table.role == "player" else None


def _collected(row: FormField, posted: dict[str, str]) -> list[Any] | dict[str, Any]:
    """A list's or map's rows read back: its filled values in order; a map's by their names."""
    if row.item is not None and row.item.kind == "group":
        return _records(row, posted)
    if row.kind == "list":
        return [value for (part,) in row.items if (value := _value(part, posted.get(part.name, ""))) is not None]
    found = {}
    for key, part in row.items:
        name, value = posted.get(key.name, "").strip(), _value(part, posted.get(part.name, ""))
        if name and value is not None:
            found[name] = value
        elif name or value is not None:
            raise FormValueError(key.name if not name else part.name, gettext("give both the name and its value"))
    return found


def _records(row: FormField, posted: dict[str, str]) -> list[Any] | dict[str, Any]:
    """Rows of an object's parts read back; a part left at its default does not fill a row, and a row with
    a number and nothing more of its object (a Power's rank alone) is the number."""
    item = row.item
    assert item is not None
    listed, named = [], {}
    for cells in row.items:
        key = cells[0] if row.kind == "map" else None
        number = next((c for c in cells if item.short and c.name.endswith(":value")), None)
        parts = [c for c in cells if c is not key and c is not number]
        values = {c.name.rpartition(".")[2]: _part_value(c, posted) for c in parts}
        changed = {k: v for k, v in values.items() if v is not None and v != next(
            c.default for c in parts if c.name.rpartition(".")[2] == k)}
        amount = _value(number, posted.get(number.name, "")) if number else None
        name = posted.get(key.name, "").strip() if key else ""
        asked = any(v is not None for c, v in zip(parts, values.values()) if c.kind != "checkbox")
        if not (asked or amount is not None or name):
            continue  # a box alone does not make a row: an empty row's boxes stand at their defaults
        if key and not name:
            raise FormValueError(key.name, gettext("give it a name"))
        if number and amount is None:
            raise FormValueError(number.name, gettext("give its {part}").format(part=words(said(item.short or "")).lower()))
        if number and not changed:
            value: Any = amount
        else:
            value = {k: v for k, v in values.items() if v is not None}
            if number:
                value[item.short] = amount
        if key:
            named[name] = value
        else:
            listed.append(value)
    return named if row.kind == "map" else listed


def _part_value(cell: FormField, posted: dict[str, str]) -> Any:
    """A part of a row as posted: a box unticked is false, boxes for several the values ticked."""
    if cell.kind == "checkbox":
        return bool(posted.get(cell.name, "").strip())
    if cell.kind == "several":
        return [value for value, _ in cell.choices if posted.get(f"{cell.name}{SEVERAL}{value}")] or None
    return _value(cell, posted.get(cell.name, ""))


def _value(row: FormField, text: str) -> Any:
    """A posted text as the field's value; None for a field left empty."""
    text = text.strip()
    if row.kind == "checkbox":
        return True if text else None
    if text == "":
        return None
    if row.kind == "number":
        if not re.fullmatch(r"[+-]?\d+", text):
            raise FormValueError(row.name, gettext("{text} is not a whole number").format(text=repr(text[:40])))
        number = int(text)
        if row.minimum is not None and number < row.minimum or row.maximum is not None and number > row.maximum:
            raise FormValueError(row.name, gettext("{number} is outside {minimum}…{maximum}").format(
                number=number, minimum=row.minimum, maximum=row.maximum))
        return number
    if row.kind == "faces":
        parts = [p for p in re.split(r"[\s,;]+", text.strip("[]")) if p]
        if not all(re.fullmatch(r"\d+", p) for p in parts):
            raise FormValueError(row.name, gettext("{text}: give whole numbers separated by commas, e.g. 3, 4").format(
                text=repr(text[:40])))
        return [int(p) for p in parts]
    if row.typed:
        if text not in {value for value, _ in row.choices}:
            raise FormValueError(row.name, gettext("{text} is not one of the choices").format(text=repr(text[:40])))
        return json.loads(text)
    if row.kind == "json":
        try:
            return json.loads(text)
        except ValueError:
            raise FormValueError(row.name, gettext("{text} is not JSON (e.g. {example})").format(
                text=repr(text[:40]), example='["a", "b"] or {"a": 1}')) from None
    return text


def commands_for_role(ruleset: str, role: str) -> dict[str, type]:
    """The command models a member in `role` may send (a player: none that is the GM's alone)."""
    from ..commands.catalogue import commands_for

    models = {name: model for name, (model, _) in commands_for(ruleset).items() if name not in CREATED_ELSEWHERE}
    if role == "player":
        models = {name: m for name, m in models.items() if not getattr(m, "gm_only", False)}
    return dict(sorted(models.items()))
