"""A Savage Worlds character's sheet (Implant): attributes, skills, defence, wounds with their penalty,
conditions, gear and bennies."""

from __future__ import annotations

from typing import Any

from ...sheet_layout import Layouts, Rows, Section, Sheet, fields, signed, spread


def _implant_wounds(sheet: Sheet) -> Rows:
    penalty = sheet.get("wound_penalty", 0)
    why = f" ({sheet['wounds']} wounds)" if penalty else ""
    return [("wounds", f"{sheet['wounds']} of {sheet['max_wounds']}"), ("wound penalty", f"{signed(-abs(penalty))}{why}")]


IMPLANT: list[Section] = [
    ("Attributes", spread("attributes")),
    ("Skills", spread("skills")),
    ("Defence", fields("parry", "toughness", "armour")),
    ("Wounds", _implant_wounds),
    ("Conditions", lambda s: [(k, "yes") for k in ("shaken", "dying", "out", "vulnerable", "distracted", "aiming")
                              if s.get(k)] or [("conditions", "—")]),
    ("Gear and bennies", fields("bennies", "energy_cells", "weapons", "disarmed")),
    ("Who", fields("player", "wild_card")),
]
IMPLANT_HIDDEN = {"name", "wound_penalty", "benny_pool", "unconscious_hours", "max_wounds"}


LAYOUTS: Layouts = {"character": (IMPLANT, IMPLANT_HIDDEN)}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    """Wounds and bennies."""
    return {"wounds": f"{sheet['wounds']}/{sheet['max_wounds']}", "bennies": sheet["bennies"]}
