"""Command builders for the Implant tests: Vera and the gangers of the digest's §11."""

from __future__ import annotations

from typing import Any

#: The example build of §7: 10 points.
VERA_SKILLS = {
    "fighting": "d4", "shooting": "d4", "driving": "d4", "healing": "d4", "research": "d4",
    "notice": "d6", "hacking": "d6", "cybernetics": "d6",
}
PISTOL = {"pistol": {"kind": "ranged", "damage": "2d6", "rate_of_fire": 1}}
KNIFE = {"knife": {"kind": "melee", "damage": "d4"}}
GANGER_ATTRIBUTES = {"strength": "d6", "agility": "d4", "intellect": "d4", "vigor": "d6", "spirit": "d4"}


def hero(name: str = "Vera", **fields: Any) -> dict[str, Any]:
    """The player's character of §11 (player "vera"), built by the creation rules."""
    command = {"type": "create_character", "name": name, "player": "vera", "skills": dict(VERA_SKILLS),
               "weapons": dict(PISTOL)}
    command.update(fields)
    return command


def ganger(name: str, **fields: Any) -> dict[str, Any]:
    """An Extra of §11: Fighting d6, Strength d6, Vigor d6, knife; Parry 5, Toughness 5."""
    command = {"type": "create_character", "name": name, "wild_card": False,
               "attributes": dict(GANGER_ATTRIBUTES), "skills": {"fighting": "d6"}, "weapons": dict(KNIFE)}
    command.update(fields)
    return command


def boss(name: str = "Kessler", **fields: Any) -> dict[str, Any]:
    """An important NPC of the GM: a wild card with the gangers' traits."""
    command = {"type": "create_character", "name": name, "attributes": dict(GANGER_ATTRIBUTES),
               "skills": {"fighting": "d6", "shooting": "d6", "taunt": "d6"}, "weapons": {**KNIFE, **PISTOL}}
    command.update(fields)
    return command


def fight(*enemies: str) -> list[dict[str, Any]]:
    """A scene with a combat against `enemies`; round 1 is running."""
    return [{"type": "start_scene"}, {"type": "start_battle", "enemies": list(enemies)}]


def turn(character: str, dice: list[int] | None = None) -> dict[str, Any]:
    command: dict[str, Any] = {"type": "start_turn", "character": character}
    if dice is not None:
        command["dice"] = dice
    return command


def attack(attacker: str, target: str, kind: str, dice: list[int], **fields: Any) -> dict[str, Any]:
    return {"type": "attack", "attacker": attacker, "target": target, "kind": kind, "dice": dice, **fields}


def damage(dice: list[int]) -> dict[str, Any]:
    return {"type": "roll_damage", "dice": dice}


def act(campaign: Any, command: dict[str, Any]) -> Any:
    """`when` that must be applied."""
    campaign.when(command)
    assert campaign.error is None, campaign.error
    return campaign


def last_roll(campaign: Any) -> dict[str, Any]:
    return campaign.rolls()[-1]
