"""A list's or a map's rows in the post form: one row per item, and one more to add another; an item that is an
object asked part by part in its row (a group check's members, a character's weapons, a Power by its rank or its
full description); the rows read back as the command's list or map."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from ..language import gettext
from .field_words import said
from .form_fields import FormField, FormValueError, value_of, words

#: A list's or map's row in the form: `perks#2` (a list's third), `talents#0:name` and `talents#0:value` (a map's).
ROW = "#"
#: One of several values ticked in a row's part: `powers#0.uses~attack`.
SEVERAL = "~"


def rows_of(row: FormField, values: dict[str, str]) -> None:
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


def collected(row: FormField, posted: dict[str, str]) -> list[Any] | dict[str, Any]:
    """A list's or map's rows read back: its filled values in order; a map's by their names."""
    if row.item is not None and row.item.kind == "group":
        return _records(row, posted)
    if row.kind == "list":
        return [value for (part,) in row.items if (value := value_of(part, posted.get(part.name, ""))) is not None]
    found = {}
    for key, part in row.items:
        name, value = posted.get(key.name, "").strip(), value_of(part, posted.get(part.name, ""))
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
        values = {c.name.rpartition(".")[2]: _partvalue_of(c, posted) for c in parts}
        changed = {k: v for k, v in values.items() if v is not None and v != next(
            c.default for c in parts if c.name.rpartition(".")[2] == k)}
        amount = value_of(number, posted.get(number.name, "")) if number else None
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


def _partvalue_of(cell: FormField, posted: dict[str, str]) -> Any:
    """A part of a row as posted: a box unticked is false, boxes for several the values ticked."""
    if cell.kind == "checkbox":
        return bool(posted.get(cell.name, "").strip())
    if cell.kind == "several":
        return [value for value, _ in cell.choices if posted.get(f"{cell.name}{SEVERAL}{value}")] or None
    return value_of(cell, posted.get(cell.name, ""))
