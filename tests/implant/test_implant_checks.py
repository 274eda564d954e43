"""The check (§3): trait die + wild die, the same modifiers on both, aces, raises, critical failure."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.domain.rulesets.implant import rules
from rollbook.testing import ANY, events

from .implant_builders import act, boss, ganger, hero, last_roll


def check(character: str, trait: str, dice: list[int], **fields: Any) -> dict[str, Any]:
    return {"type": "trait_check", "character": character, "trait": trait, "dice": dice, **fields}


def test_the_sources_own_example_d10_10_10_6_is_26_and_5_raises(campaign: Any) -> None:
    """L18-L19: a d10 showing 10, 10, 6 → 26; against TN 4 → 26 / 4 − 1 = 5.5 → 5 raises."""
    campaign.of("implant").given(boss("Runner", skills={"athletics": "d10"}))
    act(campaign, check("Runner", "athletics", [10, 10, 6, 2], tn=4))
    roll = last_roll(campaign)
    assert roll["dice"][0]["faces"] == [10, 10, 6]
    assert (roll["total"], roll["success"], roll["raises"], roll["critical_failure"]) == (26, True, 5, False)
    assert roll["text"] == "d10! + wild d6! = [10!10!6, ~~2~~] = 26"


def test_the_sources_example_without_a_wild_die(campaign: Any) -> None:
    campaign.of("implant").given(ganger("Runner", skills={"athletics": "d10"}))
    act(campaign, check("Runner", "athletics", [10, 10, 6]))
    assert (last_roll(campaign)["total"], last_roll(campaign)["raises"]) == (26, 5)


def test_example_1_athletics_d4_trait_3_wild_5(campaign: Any) -> None:
    campaign.of("implant").given(hero())
    campaign.when(check("Vera", "athletics", [3, 5]))
    campaign.then(events.DiceRolled(roll=ANY), events.CheckMade(character="Vera", check=ANY))
    roll = last_roll(campaign)
    assert (roll["total"], roll["success"], roll["raises"]) == (5, True, 0)
    assert [d["kept"] for d in roll["dice"]] == [False, True]


def test_example_2_hacking_d6_exploding_twice_with_a_wound(campaign: Any) -> None:
    campaign.of("implant").given(hero(), {"type": "take_damage", "character": "Vera", "damage": 8})
    assert campaign.sheet("Vera")["wounds"] == 1
    act(campaign, check("Vera", "hacking", [6, 6, 4, 2]))
    roll = last_roll(campaign)
    assert roll["modifiers"] == [{"source": "wounds", "value": -1}]
    assert (roll["total"], roll["success"], roll["raises"]) == (15, True, 2)


def test_example_3_untrained_lockpicking_double_one_is_a_critical_failure(campaign: Any) -> None:
    campaign.of("implant").given(hero())
    act(campaign, check("Vera", "lockpicking", [1, 1]))
    roll = last_roll(campaign)
    assert roll["notation"] == "d4! + wild d6!"
    assert roll["modifiers"] == [{"source": "untrained", "value": -2}]
    assert (roll["total"], roll["success"], roll["critical_failure"], roll["outcome"]) == (
        -1, False, True, "critical_failure"
    )


def test_a_critical_failure_fails_even_when_modifiers_reach_the_tn(campaign: Any) -> None:
    """I-23: both natural 1s are a critical failure whatever the modifiers."""
    campaign.of("implant").given(hero())
    act(campaign, check("Vera", "athletics", [1, 1], modifier=10))
    roll = last_roll(campaign)
    assert roll["total"] == 11 and not roll["success"] and roll["critical_failure"]


def test_an_extra_rolls_no_wild_die_and_never_fails_critically(campaign: Any) -> None:
    campaign.of("implant").given(ganger("A"))
    act(campaign, check("A", "fighting", [1]))
    roll = last_roll(campaign)
    assert len(roll["dice"]) == 1 and not roll["critical_failure"] and not roll["success"]


@pytest.mark.parametrize(("reading", "raises"), [("source", 0), ("standard", 1)])
def test_example_4_fighting_d8_9_against_parry_5(campaign: Any, reading: str, raises: int) -> None:
    """I-2: the source's 9 // 5 − 1 = 0 against standard (9 − 5) // 4 = 1."""
    campaign.of("implant", raises=reading).given(boss("Kessler", skills={"fighting": "d8"}))
    act(campaign, check("Kessler", "fighting", [3, 6, 3], tn=5))
    assert (last_roll(campaign)["total"], last_roll(campaign)["raises"]) == (9, raises)


def test_example_5_strength_d6_and_dagger_d4_13_against_toughness_4(campaign: Any) -> None:
    campaign.of("implant").given(
        hero(), boss("Kessler"), {"type": "start_scene"}, {"type": "start_battle", "enemies": ["Kessler"]},
        {"type": "start_turn", "character": "Kessler"},
        {"type": "attack", "attacker": "Kessler", "target": "Vera", "kind": "melee", "weapon": "knife", "dice": [4, 2]},
    )
    act(campaign, {"type": "roll_damage", "dice": [6, 1, 4, 2]})
    roll = last_roll(campaign)
    assert (roll["total"], roll["raises"], roll["notation"]) == (13, 2, "1d6!+1d4!")
    vera = campaign.sheet("Vera")
    assert (vera["shaken"], vera["wounds"], vera["dying"]) == (True, 2, False)


def test_the_untrained_penalty_and_the_modifiers_apply_to_both_dice(campaign: Any) -> None:
    """I-10: the wild die carries the trait die's modifiers, so the better die decides."""
    campaign.of("implant").given(hero())
    act(campaign, check("Vera", "survival", [3, 4], modifier=1))
    roll = last_roll(campaign)
    assert roll["total"] == 4 - 2 + 1
    assert roll["modifiers"] == [{"source": "untrained", "value": -2}, {"source": "situation", "value": 1}]


def test_distracted_is_minus_two_on_skill_checks_only(campaign: Any) -> None:
    campaign.of("implant").given(
        hero(), boss("Kessler"), {"type": "start_scene"}, {"type": "start_battle", "enemies": ["Kessler"]},
        {"type": "start_turn", "character": "Kessler"},
        {"type": "taunt", "character": "Kessler", "target": "Vera", "dice": [5, 1]},
    )
    assert campaign.sheet("Vera")["distracted"]
    act(campaign, check("Vera", "notice", [4, 1]))
    assert last_roll(campaign)["modifiers"] == [{"source": "distracted", "value": -2}]
    act(campaign, check("Vera", "spirit", [3, 1]))
    assert last_roll(campaign)["modifiers"] == []


def test_every_check_against_a_vulnerable_character_gets_plus_two(campaign: Any) -> None:
    campaign.of("implant").given(
        hero(), boss("Kessler"), {"type": "start_scene"}, {"type": "start_battle", "enemies": ["Kessler"]},
        {"type": "start_turn", "character": "Vera"},
        {"type": "attack", "attacker": "Vera", "target": "Kessler", "kind": "melee", "options": {"wild": True},
         "dice": [1, 2]},
        {"type": "start_turn", "character": "Kessler"},
    )
    assert campaign.sheet("Vera")["vulnerable"]
    act(campaign, check("Kessler", "intimidation", [2, 3], against="Vera"))
    assert last_roll(campaign)["modifiers"] == [
        {"source": "untrained", "value": -2}, {"source": "Vera vulnerable", "value": 2},
    ]
    act(campaign, {"type": "attack", "attacker": "Kessler", "target": "Vera", "kind": "melee", "dice": [2, 1]})
    assert last_roll(campaign)["modifiers"] == [{"source": "Vera vulnerable", "value": 2}]
    assert last_roll(campaign)["success"]


def test_the_wound_penalty_is_capped_at_minus_three(campaign: Any) -> None:
    campaign.of("implant").given(boss("Tank", max_wounds=6), {"type": "take_damage", "character": "Tank", "damage": 25})
    assert campaign.sheet("Tank")["wounds"] == 4
    act(campaign, check("Tank", "fighting", [5, 1]))
    assert last_roll(campaign)["modifiers"] == [{"source": "wounds", "value": -3}]


@pytest.mark.parametrize(
    ("result", "tn", "source", "standard"),
    [(26, 4, 5, 5), (3, 4, 0, 0), (4, 4, 0, 0), (8, 4, 1, 1), (9, 5, 0, 1), (10, 5, 1, 1), (12, 5, 1, 1),
     (15, 5, 2, 2)],
)
def test_raises_under_both_readings(result: int, tn: int, source: int, standard: int) -> None:
    assert rules.raises(result, tn, "source") == source
    assert rules.raises(result, tn, "standard") == standard


def test_a_benny_rerolls_a_check_and_keeps_the_better(campaign: Any) -> None:
    campaign.of("implant").given(hero(), {"type": "start_scene"}, check("Vera", "notice", [2, 3]))
    act(campaign, {"type": "spend_benny", "character": "Vera", "purpose": "reroll", "dice": [6, 2, 1]})
    roll = last_roll(campaign)
    assert (roll["total"], roll["kept"], roll["rerolls"], roll["purpose"]) == (8, True, "t4", "reroll:trait_check")
    assert campaign.sheet("Vera")["bennies"] == 2
    act(campaign, {"type": "spend_benny", "character": "Vera", "purpose": "reroll", "dice": [1, 2]})
    assert last_roll(campaign)["kept"] is False


def test_a_critical_failure_cannot_be_rerolled(campaign: Any) -> None:
    campaign.of("implant").given(hero(), {"type": "start_scene"}, check("Vera", "notice", [1, 1]))
    campaign.when({"type": "spend_benny", "character": "Vera", "purpose": "reroll", "dice": [6, 6]})
    campaign.then_rejected(match="critical failure cannot be rerolled")


def test_attribute_checks_reroll_only_under_the_recommended_reading(campaign: Any) -> None:
    """I-16: the literal reading rerolls skill checks only."""
    campaign.of("implant", benny_reroll="skill_checks").given(
        hero(), {"type": "start_scene"}, check("Vera", "spirit", [2, 2]),
    )
    campaign.when({"type": "spend_benny", "character": "Vera", "purpose": "reroll", "dice": [3, 3]})
    campaign.then_rejected(match="skill checks only")


def test_an_unknown_option_value_is_refused_at_create_campaign(campaign: Any) -> None:
    campaign.when({"type": "create_campaign", "ruleset": "implant", "options": {"toughness": "double"}})
    campaign.then_rejected(match="options")
    assert "toughness" in str(campaign.error)


def test_the_options_are_recorded_in_the_campaigns_first_event(campaign: Any) -> None:
    campaign.of("implant", toughness="vigor", raises="standard")
    first = campaign.events()[0]
    assert first["options"] == {**rules.OPTIONS.defaults(), "toughness": "vigor", "raises": "standard"}
    assert campaign.campaign_sheet()["options"]["toughness"] == "vigor"
