"""A gladiator's sheet (PDQ): attributes and skills, signature moves, Health, motivation and tokens; an
enemy's Health and standing.

Terms: характеристики «Хорошие», «Очень хорошо», «Великолепно» L3; основной навык (уровень мастера) L4;
стиль, наступательный или оборонительный L5; коронные приёмы, атакующие или оборонительные L6; уровень
эксперта, уровень специалиста L7; класс L10 (gladiators-pdq.ru.txt).
"""

from __future__ import annotations

from ...sheet_layout import N_, Layouts, Section, fields, out_of, spread, word


GLADIATOR: list[Section] = [
    (N_("Attributes and skills"), lambda s: [*spread("attributes", word)(s), (N_("main skill"), s["main_skill"]),
                                             *spread("skills", word)(s), *fields("ordinary_skills", "class_skill")(s),
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
