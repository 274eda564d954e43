"""A gladiator's sheet (PDQ): attributes and skills, signature moves, Health, motivation and tokens; an
enemy's Health and standing.

Terms: характеристики «Хорошие», «Очень хорошо», «Великолепно» L3; основной навык (уровень мастера) L4;
стиль, наступательный или оборонительный L5; коронные приёмы, атакующие или оборонительные L6; уровень
эксперта, уровень специалиста L7; класс L10 (gladiators-pdq.ru.txt).
"""

from __future__ import annotations

from ...sheet_layout import N_, Layouts, Phrase, Rows, Section, Sheet, fields, out_of, spread, word
from . import rules

#: The class skill in words: +4 to the rolls of its side (L10: «навык работы со щитом (+4 к броскам на защиту)»).
#: The English is the row as the sheet printed it before there were languages (tests/language/golden/sheets).
_CLASS_SKILL = {rules.ATTACK: N_("name {name}, applies to attack"),
                rules.DEFENCE: N_("name {name}, applies to defence")}


def _class_skill(sheet: Sheet) -> Rows:
    if "class_skill" not in sheet:
        return []
    skill = sheet["class_skill"]
    return [(N_("class skill"), Phrase(_CLASS_SKILL[skill["applies_to"]], name=skill["name"]))]


GLADIATOR: list[Section] = [
    (N_("Attributes and skills"), lambda s: [*spread("attributes", word)(s), (N_("main skill"), s["main_skill"]),
                                             *spread("skills", word)(s), *fields("ordinary_skills")(s), *_class_skill(s),
                                             (N_("style"), word(s["style"]))]),
    (N_("Signature moves"), spread("signature_moves", word)),
    (N_("Health"), lambda s: [(N_("health"), out_of(s["health"], s["max_health"])), *fields("beaten")(s)]),
    (N_("Motivation and tokens"), fields("motivation", "motivation_used", "roleplay_tokens")),
    (N_("Who"), fields("player")),
]
ENEMY: list[Section] = [
    (N_("Health"), lambda s: [(N_("health"), out_of(s["health"], s["max_health"])),
                              *fields("standing", "members", "member_health", "beaten")(s)]),
]


LAYOUTS: Layouts = {"character": (GLADIATOR, {"name"}), "enemy": (ENEMY, {"name", "squad"})}
