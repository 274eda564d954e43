"""A sheet as the page lays it out: the game's own sections (as the CLI shows them), changes marked.

The sections are the game's own (`Ruleset.sheets`, read by `projections/sheets.py`): one layout per game, so a sheet
reads the same in both. A row whose words differ from the previous step of the scrubber is
marked, so a GM sees at once what a command changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..projections.sheets import sections


@dataclass
class Row:
    name: str
    value: str
    changed: bool


@dataclass
class Group:
    title: str
    rows: list[Row]

    @property
    def changed(self) -> bool:
        return any(row.changed for row in self.rows)


@dataclass
class SheetLayout:
    kind: str
    name: str
    groups: list[Group]

    @property
    def changed(self) -> bool:
        return any(group.changed for group in self.groups)


def layout(ruleset: str, kind: str, sheet: dict[str, Any], before: dict[str, Any] | None, *, compare: bool) -> SheetLayout:
    """The sheet in sections; with `compare`, each row that differs from `before` (or all, if it is new) is marked."""
    then = {(title, name): value for title, rows in sections(ruleset, kind, before) for name, value in rows} \
        if before is not None else {}
    groups = [Group(title, [Row(name, value, compare and then.get((title, name)) != value) for name, value in rows])
              for title, rows in sections(ruleset, kind, sheet)]
    return SheetLayout(kind=kind, name=str(sheet.get("name", "?")), groups=groups)
