"""A benny's reroll keeps the better result (L64), and what the better result decides follows."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.testing import events

from .implant_builders import act, attack, boss, hero, last_roll, turn


def reroll(character: str, dice: list[int]) -> dict[str, Any]:
    return {"type": "spend_benny", "character": character, "purpose": "reroll", "dice": dice}


@pytest.fixture
def fight(campaign: Any) -> Any:
    """Vera (three bennies) against Kessler (the GM has one benny), round 1."""
    return campaign.of("implant").given(
        hero(), boss("Kessler"), {"type": "start_scene"}, {"type": "start_battle", "enemies": ["Kessler"]},
    )


def test_a_better_spirit_check_ends_shaken(fight: Any) -> None:
    fight.given({"type": "take_damage", "character": "Vera", "damage": 4}, turn("Vera", [1, 2]))
    assert fight.sheet("Vera")["shaken"]
    fight.when(reroll("Vera", [4, 3, 2]))
    fight.then(
        events.BennySpent(purpose="reroll"), events.DiceRolled(), events.CheckRerolled(character="Vera"),
        events.Unshaken(character="Vera", by="spirit"),
    )


def test_a_better_vigor_check_ends_dying(fight: Any) -> None:
    fight.given({"type": "take_damage", "character": "Vera", "damage": 20}, turn("Vera", [1, 2]))
    act(fight, reroll("Vera", [4, 4, 4, 1, 2]))
    vera = fight.sheet("Vera")
    assert (vera["dying"], vera["wounds"], vera["shaken"]) == (False, 2, True)


def test_a_better_soak_removes_more_of_the_attacks_wounds(fight: Any) -> None:
    fight.given(
        {"type": "take_damage", "character": "Vera", "damage": 12},
        {"type": "soak", "character": "Vera", "dice": [1, 2]},
    )
    assert fight.sheet("Vera")["wounds"] == 2
    act(fight, reroll("Vera", [4, 4, 2, 1]))
    assert (last_roll(fight)["total"], last_roll(fight)["raises"]) == (10, 1)
    assert (fight.sheet("Vera")["wounds"], fight.sheet("Vera")["bennies"]) == (0, 1)


def test_a_better_healing_check_heals(fight: Any) -> None:
    fight.given({"type": "end_battle"}, {"type": "take_damage", "character": "Vera", "damage": 8},
                {"type": "heal", "healer": "Vera", "patient": "Vera", "dice": [2, 3]})
    assert fight.sheet("Vera")["wounds"] == 1
    act(fight, reroll("Vera", [4, 1, 2]))
    assert fight.sheet("Vera")["wounds"] == 0


def test_a_better_natural_healing_check_heals(fight: Any) -> None:
    fight.given({"type": "end_battle"}, {"type": "take_damage", "character": "Vera", "damage": 8},
                {"type": "end_day", "dice": [1, 2]})
    act(fight, reroll("Vera", [4, 1, 2]))
    assert fight.sheet("Vera")["wounds"] == 0


def test_a_better_taunt_distracts(fight: Any) -> None:
    fight.given(turn("Kessler"), {"type": "taunt", "character": "Kessler", "target": "Vera", "dice": [1, 2]})
    assert not fight.sheet("Vera")["distracted"]
    act(fight, reroll("Kessler", [5, 3]))
    assert fight.sheet("Vera")["distracted"] and fight.campaign_sheet()["gm_bennies"] == 0


def test_a_better_strength_check_keeps_the_weapon(fight: Any) -> None:
    fight.given(turn("Vera"), attack("Vera", "Kessler", "ranged", [4, 4, 1, 2, 2, 3],
                                     options={"called_shot": "weapon", "target_weapon": "knife"}))
    assert fight.sheet("Kessler")["disarmed"] == ["knife"]
    act(fight, reroll("Kessler", [5, 1]))
    assert fight.sheet("Kessler")["disarmed"] == []


def test_a_worse_reroll_changes_nothing_but_the_benny(fight: Any) -> None:
    fight.given({"type": "take_damage", "character": "Vera", "damage": 4}, turn("Vera", [3, 2]))
    fight.when(reroll("Vera", [1, 2]))
    fight.then(events.BennySpent(purpose="reroll"), events.DiceRolled(), events.CheckRerolled(kept="t7"))
    assert fight.sheet("Vera")["shaken"] and last_roll(fight)["kept"] is False
