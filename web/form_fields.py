"""A field of the post form (post_form.py builds them from a command's schema) and one posted value read back
as its field's type, refused beside the field where it cannot be."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..language import gettext


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


def words(name: str) -> str:
    """`luck_bonus` → "Luck bonus"."""
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def value_of(row: FormField, text: str) -> Any:
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
