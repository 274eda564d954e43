"""A sheet as the page lays it out: its figures first, then one box per group, changes marked.

The projections' sheets are nested documents (`rollbook sheet --json`); a page shows them as
a paper sheet would: the plain figures (luck, health, player) together, then each group
(stats, wounds, conditions, …) in a box of its own. A value that differs from the previous
step of the scrubber is marked, so a GM sees at once what a command changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Bookkeeping the rules keep on a sheet that means nothing on paper.
INTERNAL = {"name", "below_zero", "voyage", "lowered", "stunts"}


def label(key: str) -> str:
    return key.replace("_", " ")


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of a document by its path (`stats.audacity`), to compare two sheets."""
    if isinstance(value, dict):
        leaves: dict[str, Any] = {}
        for key, inner in value.items():
            leaves.update(flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return leaves
    return {prefix: value}


def changed_paths(before: dict[str, Any] | None, after: dict[str, Any]) -> set[str]:
    """The paths whose values differ (all of them for a sheet that did not exist before)."""
    now = flatten(after)
    if before is None:
        return set(now)
    then = flatten(before)
    return {path for path in now.keys() | then.keys() if now.get(path) != then.get(path)}


@dataclass
class Row:
    name: str
    value: Any
    changed: bool


@dataclass
class Group:
    title: str
    rows: list[Row] = field(default_factory=list)
    table: list[dict[str, Any]] | None = None
    changed: bool = False


@dataclass
class SheetLayout:
    kind: str
    name: str
    figures: list[Row]
    groups: list[Group]

    @property
    def changed(self) -> bool:
        return any(r.changed for r in self.figures) or any(g.changed for g in self.groups)


def text_of(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(text_of(v) for v in value) or "none"
    if isinstance(value, dict):
        return "; ".join(f"{label(k)} {text_of(v)}" for k, v in value.items()) or "none"
    return str(value)


def layout(kind: str, sheet: dict[str, Any], changed: set[str]) -> SheetLayout:
    figures: list[Row] = []
    groups: list[Group] = []
    for key, value in sheet.items():
        if key in INTERNAL:
            continue
        marked = any(p == key or p.startswith(key + ".") for p in changed)
        if isinstance(value, dict) and value:
            rows = [Row(label(k), text_of(v), any(p == f"{key}.{k}" or p.startswith(f"{key}.{k}.") for p in changed))
                    for k, v in value.items() if k not in INTERNAL]
            groups.append(Group(label(key), rows=rows, changed=marked))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            groups.append(Group(label(key), table=[{label(k): text_of(v) for k, v in item.items()} for item in value],
                                changed=marked))
        else:
            figures.append(Row(label(key), text_of(value), marked))
    return SheetLayout(kind=kind, name=str(sheet.get("name", "?")), figures=figures, groups=groups)
