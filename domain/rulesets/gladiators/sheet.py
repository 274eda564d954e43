"""A gladiator's sheet (PDQ): attributes and skills, signature moves, Health, motivation and tokens; an
enemy's Health and standing."""

from __future__ import annotations

from ...sheet_layout import N_, Layouts, Section, fields, out_of, spread


GLADIATOR: list[Section] = [
    (N_("Attributes and skills"), lambda s: [*spread("attributes")(s), (N_("main skill"), s["main_skill"]),
                                         *spread("skills")(s), *fields("ordinary_skills", "class_skill", "style")(s)]),
    (N_("Signature moves"), spread("signature_moves")),
    (N_("Health"), lambda s: [(N_("health"), out_of(s["health"], s["max_health"])), *fields("beaten")(s)]),
    (N_("Motivation and tokens"), fields("motivation", "motivation_used", "roleplay_tokens")),
    (N_("Who"), fields("player")),
]
ENEMY: list[Section] = [
    (N_("Health"), lambda s: [(N_("health"), out_of(s["health"], s["max_health"])),
                              *fields("standing", "members", "member_health", "beaten")(s)]),
]


LAYOUTS: Layouts = {"character": (GLADIATOR, {"name"}), "enemy": (ENEMY, {"name", "squad"})}
