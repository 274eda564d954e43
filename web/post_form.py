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

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..commands.ownership import GmOnly, Owned, OwnerOf, declarations
from ..domain.options import ENGLISH
from ..language import gettext, spoken
from .field_words import said
from .form_fields import FormField, FormValueError, value_of, words
from .form_rows import collected, rows_of
from .moves import purpose_words

__all__ = ["FormField", "FormValueError", "Offer", "build", "commands_for_role", "default_type", "read", "words"]

#: Fields the page fills itself, or that the path and the sign-in decide.
FILLED = {"type", "campaign", "actor", "id", "at", "salt", "seen", "commitment", "via"}
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
            rows_of(row, values)
        for part in row.parts:
            part.value = values.get(part.name, part.value)
        if name == DICE:
            row.label = gettext("Faces")
            row.help = gettext("in the order the rules roll them, e.g. 3, 4; leave empty to roll here")
            dice = row
        else:
            rows.append(row)
    return _setters_first(rows, table.sheets.get(acting or "", {})), dice


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
            value = collected(row, posted)
            if value:
                body[row.name] = value
            continue
        for part in row.parts or [row]:
            known.add(part.name)
            value = value_of(part, posted.get(part.name, ""))
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


def recent_rolls(rolls: list[dict[str, Any]], ruleset_name: str | None = None) -> list[tuple[str, str]]:
    """The last rolls, newest first, each told in words: "P0 — move:audacity 9, partial success (p0-3)"; in
    another language than English, the purpose in the game's words ("P0 — ход: Выкрутиться 9, …")."""
    told = []
    for roll in reversed(rolls[-RECENT_ROLLS:]):
        who = roll.get("character") or roll.get("actor", "")
        purpose = roll.get("purpose")
        if purpose is None:
            purpose = said("roll")
        elif ruleset_name is not None and spoken() != ENGLISH:
            purpose = purpose_words(purpose, ruleset_name)
        outcome = f", {said(str(roll['outcome']))}" if roll.get("outcome") else ""
        told.append((str(roll["id"]), f"{who} — {purpose} {roll.get('total', '')}{outcome} ({roll['id']})"))
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


def commands_for_role(ruleset: str, role: str) -> dict[str, type]:
    """The command models a member in `role` may send (a player: none that is the GM's alone)."""
    from ..commands.catalogue import commands_for

    models = {name: model for name, (model, _) in commands_for(ruleset).items() if name not in CREATED_ELSEWHERE}
    if role == "player":
        models = {name: m for name, m in models.items() if not getattr(m, "gm_only", False)}
    return dict(sorted(models.items()))
