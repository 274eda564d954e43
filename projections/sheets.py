"""A sheet in its game's own sections, for every interface (the terminal, the pages, the API, the forum).

Each ruleset declares its layout (`Ruleset.sheets`, domain/sheet_layout.py); a field no section shows
and no list hides is still shown under "Other", so a field a ruleset adds later is never lost from
view, and a game that declares no layout (a plugin) shows its sheet there whole. `--json` is the
projection's sheet exactly as it is.

Titles, labels and the values in words (`Phrase`) are said in the language spoken where the sheet is shown
(language/__init__.py); a name a player typed stays as typed, and English is the layout as written.
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType
from typing import Any

from ..domain.errors import UnknownName
from ..domain.rulesets import ruleset as ruleset_named
from ..domain.sheet_layout import N_, Phrase, Rows, Sheet, Term, said
from ..language import gettext, ngettext, pgettext


@cache
def _declared(ruleset: str) -> ModuleType | None:
    try:
        name = ruleset_named(ruleset).sheets
    except UnknownName:
        return None
    return importlib.import_module(name) if name else None


def sections(ruleset: str, kind: str, sheet: Sheet) -> list[tuple[str, Rows]]:
    """The sheet in the game's sections; whatever none of them reads or hides, under "Other"."""
    declared = _declared(ruleset)
    layout, hidden = (declared.LAYOUTS if declared else {}).get(kind, ([], {"name"}))
    reading = _Reading(sheet)
    shown = [(title, rows(reading)) for title, rows in layout]
    other = [(key.replace("_", " "), said(value)) for key, value in sheet.items()
             if key not in reading.read and key not in hidden]
    return [(_said(title), [(_said(label), in_words(value)) for label, value in rows])
            for title, rows in [*shown, (N_("Other"), other)] if rows]


def _said(word: str) -> str:
    """A section's title or a row's label in the language spoken: a game's own `Term` as that game says it."""
    return in_words(word) if isinstance(word, Term) else gettext(word)


def in_words(value: str) -> str:
    """A sheet's value in the language spoken: a `Phrase` from its template, anything else as it is."""
    if not isinstance(value, Phrase):
        return value
    if isinstance(value, Term):
        return pgettext(value.context, value.template)
    template = gettext(value.template) if value.plural is None else ngettext(value.template, value.plural,
                                                                             value.values["count"])
    return template.format(**{key: in_words(part) for key, part in value.values.items()})


class _Reading(dict):  # type: ignore[type-arg]
    """A sheet that notes which of its fields the sections read, so none is left unshown."""

    def __init__(self, sheet: Sheet) -> None:
        super().__init__(sheet)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


def key_figures(ruleset: str, kind: str, sheet: Sheet) -> dict[str, Any]:
    """The few numbers a GM looks for first in a listing of characters: Health wherever a sheet has it,
    else what the game declares."""
    if "max_health" in sheet:
        figures: dict[str, Any] = {"health": f"{sheet['health']}/{sheet['max_health']}"}
        for key in ("resolve", "roleplay_tokens", "standing"):
            if key in sheet:
                figures[key.replace("_", " ")] = sheet[key]
        return figures
    declared = _declared(ruleset)
    figures_of = getattr(declared, "key_figures", None)
    return figures_of(kind, sheet) if figures_of is not None else {}
