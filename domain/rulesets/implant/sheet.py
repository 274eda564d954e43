"""A Savage Worlds character's sheet (Implant): attributes, skills, defence, wounds with their penalty,
conditions, gear and bennies.

Terms: характеристики и навыки L4; Фишки L62; стойкость, броня L105; шок L65; энергоячейки L68; обезоружить L95;
уязвимый L82; штраф L92 (implant-savage-worlds.ru.txt).
"""

from __future__ import annotations

from typing import Any

from ...sheet_layout import N_, YES, Layouts, Phrase, Rows, Section, Sheet, fields, out_of, signed, spread


def _implant_wounds(sheet: Sheet) -> Rows:
    penalty = sheet.get("wound_penalty", 0)
    shown = signed(-abs(penalty))
    if penalty:
        shown = Phrase(N_("{penalty} ({count} wounds)"), N_("{penalty} ({count} wounds)"), penalty=shown, count=sheet["wounds"])
    return [(N_("wounds"), out_of(sheet["wounds"], sheet["max_wounds"])), (N_("wound penalty"), shown)]


IMPLANT: list[Section] = [
    (N_("Attributes"), spread("attributes")),
    (N_("Skills"), spread("skills")),
    (N_("Defence"), fields("parry", "toughness", "armour")),
    (N_("Wounds"), _implant_wounds),
    (N_("Conditions"), lambda s: [(k, YES) for k in ("shaken", "dying", "out", "vulnerable", "distracted", "aiming")
                                  if s.get(k)] or [(N_("conditions"), "—")]),
    (N_("Gear and bennies"), fields("bennies", "energy_cells", "weapons", "disarmed")),
    (N_("Who"), fields("player", "wild_card")),
]
IMPLANT_HIDDEN = {"name", "wound_penalty", "benny_pool", "unconscious_hours", "max_wounds"}


LAYOUTS: Layouts = {"character": (IMPLANT, IMPLANT_HIDDEN)}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    """Wounds and bennies."""
    return {"wounds": f"{sheet['wounds']}/{sheet['max_wounds']}", "bennies": sheet["bennies"]}
