"""Builders for superhero-game tests: characters with neutral defaults, a campaign in a battle."""

from __future__ import annotations

from typing import Any

ABILITIES = ("strength", "agility", "stamina", "intellect", "perception", "will")


def hero(name: str, *, role: str = "hero", player: str | None = None, rank: int = 3, **fields: Any) -> dict[str, Any]:
    """A create_character command; Abilities by name (`agility=5`), the rest at `rank`."""
    abilities = {a: fields.pop(a, rank) for a in ABILITIES}
    command = {"type": "create_character", "name": name, "role": role, "abilities": abilities, **fields}
    if player is not None:
        command["player"] = player
    return command


def minions(name: str, danger_rank: int, count: int) -> dict[str, Any]:
    return {"type": "create_character", "name": name, "role": "minion", "danger_rank": danger_rank, "count": count}


BLAST = {"rank": 6, "uses": ["attack"], "lethal": True}
STUN = {"rank": 6, "uses": ["attack"], "lethal": False, "effect": "stun"}


def in_battle(*characters: dict[str, Any]) -> list[dict[str, Any]]:
    """The characters, then a story, an issue, a scene, a battle and its first page."""
    return [*characters, {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"},
            {"type": "start_battle"}, {"type": "next_page"}]


def in_scene(*characters: dict[str, Any]) -> list[dict[str, Any]]:
    return [*characters, {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}]
