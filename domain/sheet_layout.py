"""How a game's sheet reads, declared by the game itself: sections of (label, value) rows read
from a sheet as the projections keep it, and the fields it keeps for its own bookkeeping.

A ruleset names the module of its layout (`Ruleset.sheets`): its `LAYOUTS`, kind -> (sections,
hidden fields), and `key_figures(kind, sheet)`, the few numbers a GM looks for first in a listing.
`projections/sheets.py` reads them for the terminal, the pages, the API and the forum lines alike.
Pure functions of a sheet: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

Sheet = Mapping[str, Any]
Rows = list[tuple[str, str]]
Section = tuple[str, Callable[[Sheet], Rows]]
#: kind -> (its sections, the fields no section shows and none should: bookkeeping)
Layouts = Mapping[str, tuple[list[Section], set[str]]]


def said(value: Any) -> str:
    """A value in words: numbers as they are, yes/no, lists and maps as phrases, — for nothing."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(said(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {said(v)}" for k, v in value.items())
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def fields(*names: str, labels: Mapping[str, str] | None = None) -> Callable[[Sheet], Rows]:
    def rows(sheet: Sheet) -> Rows:
        return [((labels or {}).get(n, n.replace("_", " ")), said(sheet[n])) for n in names if n in sheet]
    return rows


def spread(name: str, show: Callable[[Any], str] = said) -> Callable[[Sheet], Rows]:
    """One row per entry of a map field (a stat, an ability, a skill each on its line)."""
    def rows(sheet: Sheet) -> Rows:
        return [(key.replace("_", " "), show(value)) for key, value in (sheet.get(name) or {}).items()]
    return rows
