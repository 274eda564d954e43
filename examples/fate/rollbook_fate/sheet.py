"""How a Fate character's sheet reads: skills on the ladder's words (F1-F2), fate points (F4), the stress
track and consequences (F6-F7), and whose he is. Named by `Ruleset.sheets`: the terminal, the pages and
the forum lines show it in these sections, and listings show his fate points and stress."""

from __future__ import annotations

from typing import Any

from rollbook.domain.sheet_layout import Layouts, Rows, Sheet, fields, said, spread

from . import rules


def _harm(sheet: Sheet) -> Rows:
    boxes = " ".join(f"[{'x' if checked else ' '}]{worth}" for worth, checked in zip(rules.STRESS_BOXES,
                                                                                        sheet["stress"], strict=True))
    return [("stress", boxes),
            *((severity, said(taken)) for severity, taken in sheet["consequences"].items()),
            ("taken out", said(sheet["taken_out"]))]


LAYOUTS: Layouts = {"character": ([
    ("Skills", spread("skills", rules.ladder)),
    ("Fate points", fields("fate_points")),
    ("Stress and consequences", _harm),
    ("Who", fields("player")),
], {"name"})}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    return {"fate_points": sheet["fate_points"], "stress": sum(sheet["stress"]), "taken_out": sheet["taken_out"]}
