"""Coin's rules pinned down with Rollbook's testing kit (the `campaign` fixture), on every store
`--rollbook-stores` names. Each campaign is also replayed after the test and must come out identical."""

from __future__ import annotations

import pytest

from rollbook.testing import ANY, events
from rollbook_coin import rules


@pytest.fixture
def table(campaign):
    """A Coin campaign with Ada (played by ada) and Bo (played by bo), in scene 1."""
    return campaign.of("coin").given(
        {"type": "create_character", "name": "Ada", "player": "ada"},
        {"type": "create_character", "name": "Bo", "player": "bo"},
        {"type": "start_scene", "title": "The bridge"},
    )


def flip(**fields):
    return {"type": "flip", "character": "Ada", "actor": "player:ada", **fields}


def test_a_character_starts_with_three_coins(table):
    assert table.sheet("Ada") == {"name": "Ada", "player": "ada", "coins": rules.STARTING_COINS}


@pytest.mark.parametrize(("face", "outcome"), [(3, "failure"), (4, "success"), (6, "success")])
def test_a_flip_meets_or_beats_the_target(table, face, outcome):
    table.dice(face).when(flip(target=4))
    table.then(events.DiceRolled(roll={**ANY_ROLL, "faces": [face], "total": face, "outcome": outcome}))


def test_a_staked_coin_adds_one_and_is_spent(table):
    table.dice(4).when(flip(target=5, stake=True))
    table.then(
        events.LimitUsed(limit="stake", scope="scene", instance="scene 1", holder="Ada"),
        events.CoinStaked(character="Ada"),
        events.DiceRolled(roll={**ANY_ROLL, "total": 5, "outcome": "success",
                                "modifiers": [{"source": "staked coin", "value": 1}]}),
    )
    assert table.sheet("Ada")["coins"] == rules.STARTING_COINS - 1


def test_a_coin_is_staked_once_per_scene(table):
    table.dice(4).given(flip(stake=True))
    table.when(flip(stake=True)).then_rejected(match=r"staking a coin: only once per scene .*C3")
    assert table.sheet("Ada")["coins"] == rules.STARTING_COINS - 1


def test_the_next_scene_allows_another_stake(table):
    table.dice(4).given(flip(stake=True), {"type": "end_scene"}, {"type": "start_scene"})
    table.dice(1).when(flip(stake=True))
    table.then(events.LimitUsed(instance="scene 2"), events.CoinStaked(), events.DiceRolled(roll=ANY))


def test_with_no_coin_left_there_is_nothing_to_stake(table):
    for _ in range(rules.STARTING_COINS):
        table.dice(6).given(flip(stake=True), {"type": "end_scene"}, {"type": "start_scene"})
    table.when(flip(stake=True)).then_rejected(match=r"Ada has no coin left to stake \(C4\)")


def test_a_stake_counts_per_scene_and_needs_one_open(campaign):
    campaign.of("coin").given({"type": "create_character", "name": "Ada", "player": "ada"})
    campaign.when(flip(stake=True)).then_rejected(match="counts per scene.*no scene is open")


def test_a_player_cannot_flip_for_another_players_character(table):
    table.when(flip(character="Bo")).then_rejected(match="player:ada cannot act for 'Bo'")


def test_the_campaigns_own_dice_decide_a_flip(table):
    table.when(flip(target=4))
    roll = table.rolls()[-1]
    assert roll["source"] == "hmac"
    assert roll["outcome"] == ("success" if roll["total"] >= 4 else "failure")


def test_the_odds_of_a_staked_flip(table):
    shown = table.odds(flip(target=5, stake=True))
    assert shown["fractions"] == {"success": "1/2", "failure": "1/2"}


def test_coin_has_scenes_and_no_chapters(table):
    table.when({"type": "start_chapter"}).then_rejected(match="start_chapter")


ANY_ROLL = {"id": ANY, "actor": ANY, "character": "Ada", "purpose": "flip", "notation": "1d6", "faces": ANY,
            "sides": ANY, "dice": ANY, "modifiers": ANY, "total": ANY, "outcome": ANY, "text": ANY, "source": ANY,
            "target": ANY}


def test_its_sheet_reads_in_its_own_sections_and_its_listing_shows_its_coins(table):
    from rollbook.projections.sheets import key_figures, sections

    sheet = table.sheet("Ada")
    assert sections("coin", "character", sheet) == [("Coins", [("coins", str(rules.STARTING_COINS))]),
                                                  ("Who", [("player", "ada")])]
    assert key_figures("coin", "character", sheet) == {"coins": rules.STARTING_COINS}
