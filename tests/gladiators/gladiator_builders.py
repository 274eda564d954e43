"""Command builders for the gladiator tests: Marcus of the digest (§3.2) and variations of him."""

from __future__ import annotations

from typing import Any

MARCUS_MOVES = {"Lunge": "attack", "Parry": "defence", "Pommel strike": "attack", "Sidestep": "defence"}


def gladiator(name: str = "Marcus", **fields: Any) -> dict[str, Any]:
    """A create_character command: Marcus of §3.2 (MaxHealth 25) unless fields say otherwise."""
    command = {
        "type": "create_character",
        "name": name,
        "attributes": {"Strength": "very_good", "Agility": "very_good"},
        "main_skill": "Fencing",
        "style": "offensive",
        "signature_moves": dict(MARCUS_MOVES),
        "skills": {"Wrestling": "expert", "Riding": "expert"},
        "class_skill": {"name": "Shield", "applies_to": "defence"},
        "motivation": 4,
    }
    command.update(fields)
    return command


def enemy(name: str = "Barbarians", health: int = 8, members: int | None = None) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "create_enemy", "name": name, "health": health}
    if members is not None:
        command["members"] = members
    return command


def turn(dice: list[int], tactic: str = "strong_attack", **fields: Any) -> dict[str, Any]:
    """A combat turn of Marcus against the Barbarians with §3.2's rulings (Strength to attack, Agility to defence)."""
    command = {
        "type": "combat_turn",
        "character": "Marcus",
        "enemy": "Barbarians",
        "tactic": tactic,
        "attack_related": ["Strength"],
        "defence_related": ["Agility"],
        "gm_attack": 10,
        "gm_defence": 10,
        "dice": dice,
    }
    command.update(fields)
    return command


START = {"type": "start_battle"}
END = {"type": "end_battle"}
