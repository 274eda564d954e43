"""Character creation (§7, L120-L128) and the derived values (§2.3)."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.testing import ANY, events

from .implant_builders import VERA_SKILLS, boss, ganger, hero


def test_the_example_build_of_section_7(campaign: Any) -> None:
    campaign.of("implant")
    campaign.when(hero())
    campaign.then(
        events.MemberJoined(name="Vera", kind="character", player="vera"),
        events.Created(character="Vera", wild_card=True, max_wounds=2, armour=0, skills=ANY),
    )
    vera = campaign.sheet("Vera")
    assert vera["attributes"] == {"strength": "d4", "agility": "d4", "intellect": "d6", "vigor": "d4", "spirit": "d4"}
    assert vera["skills"] == {
        **VERA_SKILLS, "athletics": "d4", "persuasion": "d4", "common_knowledge": "d4", "stealth": "d4",
    }
    derived = (vera["parry"], vera["toughness"], vera["max_wounds"], vera["energy_cells"], vera["wounds"])
    assert derived == (4, 4, 2, 0, 0)


def test_toughness_under_the_other_reading_of_i1(campaign: Any) -> None:
    """I-1 (b): 2 + Vigor + armour = 6 for Vigor d4 (L126)."""
    campaign.of("implant", toughness="vigor").given(hero())
    assert campaign.sheet("Vera")["toughness"] == 6


def test_parry_without_fighting_is_two(campaign: Any) -> None:
    campaign.of("implant").given(hero(skills={}))
    assert campaign.sheet("Vera")["parry"] == 2


def test_fewer_than_ten_points_may_be_spent(campaign: Any) -> None:
    """I-26: unspent points are lost."""
    campaign.of("implant").when(hero(skills={"shooting": "d4"}))
    assert campaign.error is None


@pytest.mark.parametrize(
    ("fields", "match"),
    [
        ({"skills": {**VERA_SKILLS, "repair": "d4"}}, r"skills: the skills cost 11 points.*L123"),
        ({"skills": {"fighting": "d6"}}, r"skills.fighting: fighting d6 is above its attribute agility d4"),
        ({"skills": {"hacking": "d8"}}, r"skills.hacking: hacking d8 is above its attribute intellect d6"),
        ({"attributes": {"strength": "d6"}}, r"attributes.strength: strength starts at d4.*L121"),
        ({"attributes": {"intellect": "d4"}}, r"attributes.intellect: intellect starts at d6"),
        ({"wild_card": False}, r"wild_card: the player's character is a hero"),
        ({"armour": 1}, r"armour: no armour at the start \(L126\)"),
        ({"max_wounds": 3}, r"max_wounds: the maximum number of wounds is 2 \(L127\)"),
        ({"skills": {"fighting": "d20"}}, r"skills.fighting"),
        ({"skills": {"kung_fu": "d4"}}, r"skills.kung_fu"),
        ({"weapons": {"pistol": {"kind": "ranged", "damage": "2d7"}}}, r"weapons: weapon damage '2d7'"),
        ({"weapons": {"gun": {"kind": "ranged", "damage": "2d6", "rate_of_fire": 7}}}, r"rate of fire must be 1-6"),
        ({"weapons": {"knife": {"kind": "melee", "damage": "d4", "rate_of_fire": 2}}}, r"has no rate of fire"),
    ],
)
def test_creation_rules_refuse_and_write_nothing(campaign: Any, fields: dict[str, Any], match: str) -> None:
    campaign.of("implant").when(hero(**fields))
    campaign.then_rejected(match=match)


def test_a_player_creates_only_his_own_character(campaign: Any) -> None:
    campaign.of("implant").when({**hero(player="ann"), "actor": "player:bob"})
    campaign.then_rejected(match="player:bob can only create a character of their own")


def test_the_gms_characters_are_free_form(campaign: Any) -> None:
    campaign.of("implant").given(
        boss("Kessler", attributes={"agility": "d10", "vigor": "d12"}, skills={"fighting": "d12", "hacking": "d12"},
             armour=2, max_wounds=4),
    )
    kessler = campaign.sheet("Kessler")
    assert (kessler["parry"], kessler["toughness"], kessler["max_wounds"], kessler["wild_card"]) == (8, 10, 4, True)
    assert kessler["attributes"]["strength"] == "d4" and kessler["benny_pool"] == "gm"


def test_an_extra_has_no_maximum_of_wounds(campaign: Any) -> None:
    campaign.of("implant").given(ganger("A"))
    a = campaign.sheet("A")
    assert (a["wild_card"], a["max_wounds"], a["parry"], a["toughness"]) == (False, 0, 5, 5)
    campaign.when(ganger("B", max_wounds=2))
    campaign.then_rejected(match="an Extra is out at his first wound")


def test_important_npcs_endure_two_wounds_or_more(campaign: Any) -> None:
    campaign.of("implant").when(boss("Kessler", max_wounds=1))
    campaign.then_rejected(match="two wounds or more")


def test_a_name_is_taken_once(campaign: Any) -> None:
    campaign.of("implant").given(hero())
    campaign.when(ganger("Vera"))
    campaign.then_rejected(match="already exists")


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"toughness": "iron"}, r"options.toughness: rule option toughness must be one of 'half_vigor', 'vigor' \(I-1\)"),
        ({"distracted_rounds": 11}, r"options.distracted_rounds: .* a whole number 1..10 \(I-13\); got 11"),
    ],
)
def test_a_reading_the_digest_lacks_is_refused_at_creation(campaign: Any, options: dict[str, Any], match: str) -> None:
    campaign.when({"type": "create_campaign", "ruleset": "implant", "options": options})
    campaign.then_rejected(match=match)
