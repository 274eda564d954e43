"""Character creation (§7): the sheet's shape is checked at create_character, health by L15."""

from __future__ import annotations

import pytest

from rollbook.testing import ANY, events

from .gladiator_builders import MARCUS_MOVES, enemy, gladiator


def test_marcus_is_created_with_25_health(campaign):
    campaign.of("gladiators")
    campaign.when(gladiator(player="marcus"))
    campaign.then(
        events.MemberJoined(name="Marcus", kind="character", player="marcus"),
        events.Created(character="Marcus", max_health=25, motivation=4),
    )
    sheet = campaign.sheet("Marcus")
    assert {k: sheet[k] for k in ("health", "max_health", "motivation", "motivation_used", "roleplay_tokens")} == {
        "health": 25, "max_health": 25, "motivation": 4, "motivation_used": False, "roleplay_tokens": 0,
    }
    assert sheet["signature_moves"] == MARCUS_MOVES


@pytest.mark.parametrize(
    ("attributes", "skills", "motivation", "health"),
    [
        # §2.4's table: the four attribute choices, the three skill packages all count 8.
        ({"Strength": "very_good", "Agility": "very_good"}, {"Wrestling": "expert", "Riding": "expert"}, 4, 25),
        ({"Strength": "great"}, {"A": "specialist", "B": "specialist", "C": "specialist", "D": "specialist"}, 2, 23),
        ({"Endurance": "very_good", "Agility": "very_good"}, {"A": "expert", "B": "specialist", "C": "specialist"}, 6, 30),
        ({"Выносливость": "great", "Agility": "good"}, {"A": "expert", "B": "expert"}, 6, 33),
        ({"endurance": "great"}, {"A": "expert", "B": "expert"}, 2, 29),
    ],
)
def test_health_is_raised_attributes_skills_motivation_plus_one(campaign, attributes, skills, motivation, health):
    campaign.of("gladiators")
    campaign.when(gladiator(attributes=attributes, skills=skills, motivation=motivation))
    campaign.then(events.MemberJoined(), events.Created(max_health=health))
    assert campaign.sheet("Marcus")["health"] == health


def test_style_signature_moves_and_class_skill_do_not_count_toward_health(campaign):
    campaign.of("gladiators")
    campaign.given(gladiator("Defender", style="defensive", class_skill={"name": "Shield", "applies_to": "attack"}))
    assert campaign.sheet("Defender")["max_health"] == 25


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"signature_moves": {**MARCUS_MOVES, "Headbutt": "attack"}}, r"signature_moves: 5 signature moves.*exactly 4.*\(L6\)"),
        ({"signature_moves": {"Lunge": "attack", "Parry": "defence", "Sidestep": "defence"}}, r"3 signature moves.*L6"),
        ({"attributes": {"Strength": "great", "Agility": "great"}}, r"attributes: 2 attribute\(s\) Great.*\(L3\)"),
        ({"attributes": {"Strength": "great", "Agility": "very_good"}}, r"1 attribute\(s\) Great and 1 Very good.*L3"),
        ({"attributes": {"Strength": "very_good"}}, r"0 attribute\(s\) Great and 1 Very good.*L3"),
        ({"attributes": {"A": "very_good", "B": "very_good", "C": "very_good"}}, r"L3"),
        ({"attributes": {"Strength": "good"}}, r"L3"),
        ({"skills": {"Wrestling": "expert"}}, r"skills: 1 Expert and 0 Specialist.*\(L7; G-19\)"),
        ({"skills": {"A": "expert", "B": "expert", "C": "specialist"}}, r"L7"),
        ({"skills": {"A": "specialist", "B": "specialist"}}, r"L7"),
        ({"skills": {"Fencing": "expert", "Riding": "expert"}}, r"Fencing is the main skill.*L7"),
        ({"skills": {"Strength": "expert", "Riding": "expert"}}, r"Strength named both an attribute and a skill"),
        ({"motivation": 1}, r"motivation: motivation \+1.*from \+2 to \+6 \(L9\)"),
        ({"motivation": 7}, r"L9"),
    ],
)
def test_an_invalid_character_is_refused_naming_the_rule(campaign, fields, message):
    campaign.of("gladiators")
    before = campaign.events()
    campaign.when(gladiator(**fields))
    campaign.then_rejected(match=message)
    assert campaign.events() == before
    assert "Marcus" not in campaign.campaign_sheet()["members"]


@pytest.mark.parametrize(
    "fields",
    [
        {"style": "aggressive"},
        {"signature_moves": {**MARCUS_MOVES, "Lunge": "feint"}},
        {"attributes": {"Strength": "legendary"}},
        {"class_skill": {"name": "Shield"}},
    ],
)
def test_a_malformed_sheet_is_refused_by_the_command_model(campaign, fields):
    campaign.of("gladiators")
    campaign.when(gladiator(**fields))
    campaign.then_rejected()


def test_additional_skills_up_to_a_package_under_g19_option(campaign):
    campaign.of("gladiators", additional_skills="up_to")
    campaign.when(gladiator(attributes={"Strength": "great"}, skills={}, motivation=2))
    campaign.then(events.MemberJoined(), events.Created(max_health=15))
    campaign.when(gladiator("Livia", skills={"A": "expert", "B": "specialist"}))
    campaign.then(events.MemberJoined(), events.Created(max_health=6 + 6 + 6 + 4 + 1))
    campaign.when(gladiator("Titus", skills={"A": "expert", "B": "specialist", "C": "specialist", "D": "specialist"}))
    campaign.then_rejected(match=r"at most 2 Experts.*L7")


def test_only_the_gm_creates_a_gladiator(campaign):
    # The GM assigns the class from the biography (L10) and approves the motivation (G-17).
    campaign.of("gladiators")
    campaign.when({**gladiator(player="marcus"), "actor": "player:marcus"})
    campaign.then_rejected(match="only the GM may create_character")


def test_a_name_is_taken_once(campaign):
    campaign.of("gladiators")
    campaign.given(gladiator())
    campaign.when(enemy("Marcus"))
    campaign.then_rejected(match="character 'Marcus' already exists")


def test_a_squad_has_the_summed_health_of_its_members(campaign):
    campaign.of("gladiators")
    campaign.when(enemy("Barbarians", health=8, members=3))
    campaign.then(events.MemberJoined(kind="enemy"), events.Created(enemy="Barbarians", health_per_member=8, members=3))
    assert campaign.sheet("Barbarians") == {
        "name": "Barbarians", "health": 24, "standing": 3, "beaten": False,
        "max_health": 24, "members": 3, "member_health": [8, 8, 8], "squad": True,
    }
    campaign.when(enemy("Champion", health=20))
    campaign.then(events.MemberJoined(), events.Created(enemy="Champion", members=1, campaign=ANY))
    assert campaign.sheet("Champion")["standing"] == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"additional_skills": "sometimes"}, r"options.additional_skills: .* must be one of 'exact', 'up_to' \(G-19\); got 'sometimes'"),
        ({"beaten_at": 500}, r"options.beaten_at: .* must be a whole number -100..100 \(G-10\); got 500"),
        ({"beaten_at": "zero"}, r"options.beaten_at"),
        ({"beaten_at": True}, r"options.beaten_at"),
        ({"first_strike": "never"}, r"options.first_strike: .*'first_turn', 'simultaneous'"),
        ({"heroic": True}, r"options: unknown rule options \['heroic'\]"),
    ],
)
def test_a_bad_option_is_refused_at_creation(campaign, options, message):
    campaign.when({"type": "create_campaign", "ruleset": "gladiators", "options": options})
    campaign.then_rejected(match=message)


def test_the_recommended_readings_are_recorded_in_the_first_event(campaign):
    campaign.of("gladiators", first_strike="simultaneous")
    first = campaign.events()[0]
    assert first["type"] == "Created"
    assert first["options"] == {
        "motivation_refresh": "never", "first_strike": "simultaneous", "one_time_modifiers": "after_roll",
        "additional_skills": "exact", "beaten_at": 0,
    }
