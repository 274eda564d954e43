"""Implant's hot paths visit only whom the rules need (the roster index, issue 22): a scene's start
renews the bennies of the players' characters alone, a battle's end the statuses of those written
since the last one, so the GM's growing cast of extras costs nothing where it has nothing to do."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.testing import events
from tests.loads import counted_loads

from .implant_builders import act, boss, ganger, hero, turn

CAST = ("Vera", "A", "B", "Kessler")


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
