"""A gladiator's sheet (PDQ): attributes and skills, signature moves, Health, motivation and tokens; an
enemy's Health and standing."""

from __future__ import annotations

from ...sheet_layout import Layouts, Section, fields, spread


GLADIATOR: list[Section] = [
    ("Attributes and skills", lambda s: [*spread("attributes")(s), ("main skill", s["main_skill"]),
                                         *spread("skills")(s), *fields("ordinary_skills", "class_skill", "style")(s)]),
    ("Signature moves", spread("signature_moves")),
    ("Health", lambda s: [("health", f"{s['health']} of {s['max_health']}"), *fields("beaten")(s)]),
    ("Motivation and tokens", fields("motivation", "motivation_used", "roleplay_tokens")),
    ("Who", fields("player")),
]
ENEMY: list[Section] = [
    ("Health", lambda s: [("health", f"{s['health']} of {s['max_health']}"),
                          *fields("standing", "members", "member_health", "beaten")(s)]),
]


LAYOUTS: Layouts = {"character": (GLADIATOR, {"name"}), "enemy": (ENEMY, {"name", "squad"})}
