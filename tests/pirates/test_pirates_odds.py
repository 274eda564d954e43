"""The odds of a check before it is rolled (§3): exact, from the live sheet, and what the rules roll."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rollbook.domain.errors import CommandRejected
from rollbook.testing import pirates
from rollbook.testing.odds import ROLLS, agrees, rolled_many

from .pirates_crew import crew

F = Fraction


def check(character: str = "Bo", stat: str = "audacity", **fields):
    return {"type": "roll_move", "character": character, "stat": stat, **fields}


def fractions(odds: dict) -> dict[str, Fraction]:
    return {name: Fraction(text) for name, text in odds["fractions"].items()}


def test_a_plus_one_check_is_10_16_10_in_36(campaign):
    crew(campaign)  # Bo: Audacity +1
    odds = campaign.odds(check())
    assert fractions(odds) == {"full_success": F(10, 36), "partial_success": F(16, 36), "miss": F(10, 36)}
    assert odds["exact"] is True
    assert odds["outcomes"]["partial_success"] == pytest.approx(16 / 36)
    assert odds["distribution"]["total"]["3"] == pytest.approx(1 / 36)  # 1+1 +1
    assert odds["modifiers"] == [{"source": "audacity", "value": 1}]


def test_luck_bonus_adds_its_plus_one_before_the_roll(campaign):
    crew(campaign)
    odds = campaign.odds(check(luck_bonus=True))
    assert fractions(odds) == {"full_success": F(15, 36), "partial_success": F(15, 36), "miss": F(6, 36)}
    assert campaign.sheet("Bo")["luck"] == 2  # asked, not spent


def test_a_serious_wound_takes_its_minus_one(campaign):
    crew(campaign)
    campaign.given(pirates.wounded("Bo", "serious"))
    odds = campaign.odds(check())
    assert fractions(odds) == {"full_success": F(6, 36), "partial_success": F(15, 36), "miss": F(15, 36)}


def test_compare_shows_what_the_luck_buys(campaign):
    crew(campaign)
    odds = campaign.odds(check(), compare={"luck_bonus": True})
    assert odds["compare"]["fields"] == {"luck_bonus": True}
    assert odds["compare"]["fractions"]["full_success"] == "5/12"
    assert odds["fractions"]["full_success"] == "5/18"


def test_advantage_is_three_dice_keep_the_two_highest(campaign):
    crew(campaign)
    campaign.given({"type": "scheme", "leader": "Anna", "goal": "board", "secrets": ["X1"], "dice": [5, 5]})
    odds = campaign.odds(check(advantage=True))
    highest_two_make_9 = sum(1 for faces in product(range(1, 7), repeat=3) if sum(sorted(faces)[1:]) + 1 >= 10)
    assert highest_two_make_9 == 113
    assert fractions(odds)["full_success"] == F(113, 216)
    assert campaign.sheet("Chaika")["chances"] == 3  # the chance is not spent by asking


def test_a_check_the_rules_would_refuse_says_why_and_writes_nothing(campaign):
    crew(campaign, bo_luck=0)
    before = campaign.events(bookkeeping=True)
    with pytest.raises(CommandRejected, match="Bo has 0 luck and cannot spend 1"):
        campaign.odds(check(luck_bonus=True))
    assert campaign.events(bookkeeping=True) == before


def test_a_player_asking_the_odds_of_another_players_pirate_is_refused(campaign):
    crew(campaign)
    with pytest.raises(CommandRejected, match="player:anna cannot act for 'Bo'"):
        campaign.odds(check(actor="player:anna"))


def test_a_command_that_rolls_nothing_has_no_odds(campaign):
    crew(campaign)
    with pytest.raises(CommandRejected, match="take_damage rolls no dice"):
        campaign.odds({"type": "take_damage", "character": "Bo", "harm": 1})


def test_faces_given_are_refused_odds_are_before_the_roll(campaign):
    crew(campaign)
    with pytest.raises(CommandRejected, match="leave the faces"):
        campaign.odds(check(dice=[3, 4]))


def test_meet_fate_is_2d6_without_modifiers(campaign):
    crew(campaign, bo_luck=0)
    campaign.given(*[pirates.wounded("Bo", "terrible") for _ in range(3)])
    campaign.given({"type": "take_damage", "character": "Bo", "harm": 1})  # no free slot, no luck: fate (L71)
    odds = campaign.odds({"type": "meet_fate", "character": "Bo"})
    assert fractions(odds) == {
        "escaped_lucky": F(1, 36), "escaped": F(5, 36), "player_chooses": F(15, 36), "gm_chooses": F(15, 36),
    }


@pytest.mark.parametrize("wounded", [False, True])
def test_the_rolled_checks_follow_the_odds(memory_campaign, wounded):
    """The real command, rolled 600 times with the campaign's seeded dice, lands as the odds say."""
    memory_campaign.of("pirates")
    memory_campaign.given(pirates.created("Bo", luck=600, audacity=1))
    if wounded:
        memory_campaign.given(pirates.wounded("Bo", "serious"))
    odds, rolls = rolled_many(memory_campaign, check(luck_bonus=True))
    assert len(rolls) == ROLLS
    assert agrees([r["outcome"] for r in rolls], odds["fractions"])
