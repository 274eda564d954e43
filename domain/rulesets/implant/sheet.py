"""A Savage Worlds character's sheet (Implant): attributes, skills, defence, wounds with their penalty,
conditions, gear and bennies.

Terms: характеристики и навыки L4; ранения L112-L114 (another game's are раны); Фишки L62; стойкость, броня L105;
шок L65; энергоячейки L68; обезоружить L95; уязвимый L82; штраф L92 (implant-savage-worlds.ru.txt).
"""

from __future__ import annotations

from typing import Any

from ...errors import NC_
from ...sheet_layout import (N_, YES, Layouts, Phrase, Rows, Section, Sheet, Term, fields, listed, out_of, said, signed,
                             spread)


def _implant_wounds(sheet: Sheet) -> Rows:
    penalty = sheet.get("wound_penalty", 0)
    shown = signed(-abs(penalty))
    if penalty:
        shown = Phrase(N_("{penalty} ({count} wounds)"), N_("{penalty} ({count} wounds)"), penalty=shown, count=sheet["wounds"])
    return [(N_("wounds"), out_of(sheet["wounds"], sheet["max_wounds"])),
            (Term("implant", NC_("implant", "wound penalty")), shown)]


#: The fields a weapon is kept with (commands.Weapon): one of that shape is said in words, any other as it is.
_WEAPON = {"kind", "damage", "rate_of_fire"}


def _weapons(sheet: Sheet) -> Rows:
    """Each weapon in words: «pistol (дальний бой, урон 2d6, скорострельность 1)» (L88, L100-L101); the English
    is the row as the sheet printed it before there were languages (tests/language/golden/sheets)."""
    if "weapons" not in sheet:
        return []
    weapons = [_weapon(name, w) if set(w) == _WEAPON else f"{name} {said(w)}" for name, w in sheet["weapons"].items()]
    return [(N_("weapons"), listed(weapons) if weapons else said({}))]


def _weapon(name: str, weapon: Sheet) -> str:
    if weapon["rate_of_fire"] is None:  # a melee weapon's: none to say in words
        return Phrase(N_("{name} kind {kind}, damage {damage}, rate of fire —"), name=name, kind=Phrase(weapon["kind"]),
                      damage=weapon["damage"])
    return Phrase(N_("{name} kind {kind}, damage {damage}, rate of fire {rate}"), name=name, kind=Phrase(weapon["kind"]),
                  damage=weapon["damage"], rate=weapon["rate_of_fire"])


IMPLANT: list[Section] = [
    (N_("Attributes"), spread("attributes")),
    (N_("Skills"), spread("skills")),
    (N_("Defence"), fields("parry", "toughness", "armour")),
    (Term("implant", NC_("implant", "Wounds")), _implant_wounds),  # ранения, not another game's раны
    (N_("Conditions"), lambda s: [(k, YES) for k in ("shaken", "dying", "out", "vulnerable", "distracted", "aiming")
                                  if s.get(k)] or [(N_("conditions"), "—")]),
    (N_("Gear and bennies"), lambda s: [*fields("bennies", "energy_cells")(s), *_weapons(s), *fields("disarmed")(s)]),
    (N_("Who"), fields("player", "wild_card")),
]
IMPLANT_HIDDEN = {"name", "wound_penalty", "benny_pool", "unconscious_hours", "max_wounds"}


LAYOUTS: Layouts = {"character": (IMPLANT, IMPLANT_HIDDEN)}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    """Wounds and bennies."""
    return {"wounds": f"{sheet['wounds']}/{sheet['max_wounds']}", "bennies": sheet["bennies"]}
