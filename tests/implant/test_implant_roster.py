"""Implant's hot paths visit only whom the rules need (the roster index, issue 22): a scene's start
renews the bennies of the players' characters alone, a battle's end the statuses of those written
since the last one, a day's end the wounded (written since the day before ended) and the hours the
knocked out (written since the day ended), so the GM's growing cast of extras costs nothing where it
has nothing to do."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.domain.campaign import Campaign
from rollbook.testing import events
from tests.loads import counted_loads

from .implant_builders import act, boss, ganger, hero, turn

CAST = ("Vera", "A", "B", "Kessler", "Zed")


@pytest.fixture
def loads(campaign: Any) -> list[str]:
    """The characters a command loads from the store (those not already at its table)."""
    return counted_loads(campaign, "implant", CAST)


def test_a_scene_start_loads_only_the_players_characters(campaign: Any, loads: list[str]) -> None:
    campaign.given(hero(), ganger("A"), ganger("B"), boss("Kessler"))
    loads.clear()
    campaign.when({"type": "start_scene"})
    campaign.then(events.ScopeStarted(scope="scene"), events.Started(), events.BenniesRenewed(character="Vera"))
    assert loads == ["Vera"]


def test_a_battle_end_visits_only_the_characters_written_since_the_last(campaign: Any, loads: list[str]) -> None:
    campaign.given(hero(), ganger("A"), ganger("B"), boss("Kessler"), {"type": "start_scene"})
    campaign.given({"type": "start_battle", "enemies": ["A"]}, {"type": "end_battle"})
    campaign.given({"type": "start_battle", "enemies": ["A", "B"]})
    act(campaign, turn("Vera"))
    act(campaign, {"type": "aim", "character": "Vera"})
    loads.clear()
    campaign.when({"type": "end_battle"})
    campaign.then(events.CombatStatusesEnded(character="Vera"), events.CombatCleared(), events.ScopeEnded(scope="battle"))
    assert loads == ["Vera"]
    campaign.given({"type": "start_battle", "enemies": ["A"]}, {"type": "end_battle"})
    campaign.given({"type": "start_battle", "enemies": ["A"]})
    loads.clear()
    campaign.when({"type": "end_battle"})
    assert loads == []


def settled(campaign: Any) -> None:
    """Two days go by untouched: from now on a day's end finds only whom the days after write."""
    campaign.given({"type": "end_day"}, {"type": "end_day"})


def test_a_day_end_visits_the_wounded_and_who_was_treated_owes_his_check_the_next_day(
    campaign: Any, loads: list[str],
) -> None:
    """L118 («Если персонаж не получает лечения, то каждый игровой день он должен делать проверку на
    выносливость»; I-27): treated today, Kessler is skipped today, unwritten, and checks tomorrow."""
    campaign.given(hero(), ganger("A"), ganger("B"), boss("Kessler"))
    settled(campaign)
    campaign.given({"type": "take_damage", "character": "Kessler", "damage": 10})
    act(campaign, {"type": "heal", "healer": "Vera", "patient": "Kessler", "dice": [1, 2]})  # fails: still wounded
    loads.clear()
    campaign.when({"type": "end_day"})
    campaign.then(events.DayEnded())
    assert loads == ["Vera", "Kessler"]
    loads.clear()
    campaign.when({"type": "end_day", "dice": [5, 2]})
    campaign.then(events.DiceRolled(), events.CheckMade(character="Kessler"),
                  events.NaturallyHealed(character="Kessler", change=-1), events.DayEnded())
    assert loads == ["Vera", "Kessler"]  # written the day before: the healer too, who has nothing to do
    loads.clear()
    campaign.when({"type": "end_day"})
    campaign.then(events.DayEnded())  # healed: nobody checks
    assert loads == ["Kessler"]


def test_with_the_campaigns_own_dice_a_wounded_extra_checks_every_day_until_healed(
    campaign: Any, loads: list[str],
) -> None:
    """Seeded dice: whatever they show, each day's end makes the one Vigor check of the one wounded."""
    campaign.given(hero(), ganger("A"), ganger("B"), boss("Kessler"))
    settled(campaign)
    campaign.given({"type": "take_damage", "character": "Kessler", "damage": 10})
    for _ in range(3):
        loads.clear()
        act(campaign, {"type": "end_day"})
        checks = [e for e in campaign.events() if e["type"] == "NaturallyHealed"]
        assert loads == ["Kessler"] and checks and checks[-1]["character"] == "Kessler"
        if campaign.sheet("Kessler")["wounds"] == 0:
            break
    assert all(e["character"] == "Kessler" for e in campaign.events() if e["type"] == "CheckMade")


def test_a_player_who_treats_another_players_character_spares_him_that_days_check(
    campaign: Any, loads: list[str],
) -> None:
    """Vera's player heals Zed, another player's character: Zed skips the day's check, owes the next."""
    campaign.given(hero(), hero("Zed", player="zed"), ganger("A"), ganger("B"))
    settled(campaign)
    campaign.given({"type": "take_damage", "character": "Zed", "damage": 8})
    act(campaign, {"type": "heal", "healer": "Vera", "patient": "Zed", "actor": "player:vera", "dice": [1, 2]})
    campaign.when({"type": "end_day"})
    campaign.then(events.DayEnded())
    loads.clear()
    campaign.when({"type": "end_day", "dice": [4, 1, 2]})
    campaign.then(events.DiceRolled(), events.CheckMade(character="Zed"),
                  events.NaturallyHealed(character="Zed", change=-1, wounds=0), events.DayEnded())
    assert loads == ["Vera", "Zed"]  # both written the day before (the healing), not the gangers


def test_hours_go_by_for_the_knocked_out_only(campaign: Any, loads: list[str]) -> None:
    """L93: d6 hours unconscious; the hours visit those written since the day ended, not everyone."""
    campaign.given(hero(), ganger("A"), ganger("B"), boss("Kessler"))
    settled(campaign)
    campaign.given({"type": "take_damage", "character": "A", "damage": 10, "nonlethal": True, "dice": [4]})
    assert campaign.sheet("A")["unconscious_hours"] == 4
    loads.clear()
    campaign.when({"type": "pass_time", "hours": 3})
    campaign.then(events.TimePassed(character="A", unconscious_hours=1))
    assert loads == ["A"]
    campaign.given({"type": "end_day"})  # the day's end wakes him
    assert campaign.sheet("A")["unconscious_hours"] is None
    campaign.given({"type": "end_day"})
    loads.clear()
    campaign.when({"type": "pass_time", "hours": 1})
    campaign.then()
    assert loads == []


def test_a_snapshot_from_before_the_days_were_indexed_counts_everyone_as_stirred(campaign: Any) -> None:
    campaign.of("implant").given(hero(), ganger("A"), boss("Kessler"), {"type": "end_day"})
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    kept = {**folded, "stirred": {"end:battle": dict(folded["stirred"]["end:battle"])}}  # version 3's index
    type(aggregate).upcast_v3_v4(kept)
    assert list(kept["stirred"]["end:day"]) == list(kept["stirred"]["end:day:two"]) == ["Vera", "A", "Kessler"]
    assert Campaign.snapshot_agrees(kept, folded)
    # One who left out a wounded character written the day before would skip his check: it does not agree.
    assert not Campaign.snapshot_agrees({**folded, "stirred": {**folded["stirred"], "end:day:two": {}}}, folded)
