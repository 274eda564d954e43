"""Builders for the pirate tests: the crew of the digest's examples, and short command helpers."""

from __future__ import annotations

from typing import Any

from rollbook.testing import pirates


def crew(campaign: Any, *, anna_luck: int = 2, bo_luck: int = 2, **options: Any) -> Any:
    """Anna (player anna) and Bo (player bo) of §18, and the ship Chaika, in a campaign with `options`."""
    campaign.of("pirates", **options)
    campaign.given(
        pirates.created("Anna", player="anna", luck=anna_luck, audacity=2, guile=1, foresight=1, reputation=-1),
        pirates.created("Bo", player="bo", luck=bo_luck, audacity=1, guile=1),
        pirates.ship("Chaika", navigation=2, firepower=1, displacement=1, hull=4, secrets=["X1", "X2"]),
    )
    return campaign


def roll(character: str, stat: str, dice: list[int], **fields: Any) -> dict[str, Any]:
    return {"type": "roll_move", "character": character, "stat": stat, "dice": dice, **fields}


def harm(character: str, points: int = 1, **fields: Any) -> dict[str, Any]:
    return {"type": "take_damage", "character": character, "harm": points, **fields}


def luck(character: str, purpose: str, roll_id: str | None = None, **fields: Any) -> dict[str, Any]:
    command = {"type": "spend_luck", "character": character, "purpose": purpose, **fields}
    if roll_id is not None:
        command["roll"] = roll_id
    return command


def step(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}
