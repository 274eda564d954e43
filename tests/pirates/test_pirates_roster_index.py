"""The campaign's roster index (issue 22): a boundary visits only the members written since its rule
last ran, an open move is found by its roll, so a command costs the same in a long campaign; and
the index decides as visiting everyone did, also when rebuilt from a snapshot taken before it."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.domain.campaign import Campaign
from rollbook.domain.campaign_roster import ROSTER_INDEX
from rollbook.testing import events, pirates
from tests.loads import counted_loads

CREW = [pirates.created(name, luck=2) for name in ("Anna", "Bo", "Cid", "Dag", "Eve")]


def step(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


@pytest.fixture
def loads(campaign) -> list[str]:
    """The names of the members a command loads from the store (those not already at its table)."""
    return counted_loads(campaign, "pirates", ("Anna", "Bo", "Cid", "Dag", "Eve"))


def test_a_chapter_end_visits_only_the_pirates_written_since_the_last_one(campaign, loads) -> None:
    campaign.given(*CREW, step("start_chapter"), step("end_chapter"), step("start_chapter"))
    campaign.given(pirates.wounded("Bo", "light"), pirates.wounded("Dag", "terrible"))
    loads.clear()
    campaign.when(step("end_chapter"))
    campaign.then(events.LightWoundsHealed(character="Bo", count=1), events.FateCalled(character="Dag"),
                  events.ScopeEnded(scope="chapter"))
    assert loads == ["Bo", "Dag"]
    # Untouched since, Dag's wound is still untreated: each chapter's end calls his fate again; Bo,
    # whom the last one healed, is visited once more (written by it), then no longer.
    for visited in (["Bo", "Dag"], ["Dag"]):
        campaign.given(step("start_chapter"))
        loads.clear()
        campaign.when(step("end_chapter"))
        campaign.then(events.FateCalled(character="Dag"), events.ScopeEnded(scope="chapter"))
        assert loads == visited


def test_a_scene_end_and_a_new_enemy_visit_only_who_changed(campaign, loads) -> None:
    campaign.given(*CREW, step("start_chapter"), step("start_scene", enemy="Navy"), step("end_scene"))
    campaign.given(step("start_scene", enemy="Army"), step("gain_ambush_token", character="Cid", enemy="Army"))
    loads.clear()
    campaign.when(step("end_scene"))
    assert loads == ["Cid"]
    loads.clear()
    campaign.when(step("start_scene", enemy="Army"))  # the same enemy: Cid keeps his token (L56)
    assert loads == []
    campaign.given(step("end_scene"))
    loads.clear()
    campaign.when(step("start_scene", enemy="Navy"))
    campaign.then(events.ScopeStarted(), events.Started(), events.AmbushTokensBurned(character="Cid", count=1),
                  events.EnemyFaced())
    assert loads == ["Cid"]


def test_luck_on_a_roll_loads_only_the_pirate_who_rolled_it(campaign, loads) -> None:
    campaign.given(*CREW, step("start_chapter"))
    campaign.dice(3, 4).given(step("roll_move", id="bo-1", character="Bo", stat="audacity"))
    campaign.dice(3, 4).given(step("roll_move", id="eve-1", character="Eve", stat="audacity"))
    loads.clear()
    campaign.when(step("spend_luck", character="Cid", roll="bo-1", purpose="help"))
    campaign.then(events.LimitUsed(holder="Cid"), events.LuckSpent(character="Cid"),
                  events.MoveModified(character="Bo", roll="bo-1"), events.RollModified(roll="bo-1"))
    assert loads == ["Cid", "Bo"]
    campaign.dice(5, 5).given(step("roll_move", id="bo-2", character="Bo", stat="guile"))
    campaign.when(step("spend_luck", character="Cid", roll="bo-1", purpose="help"))
    campaign.then_rejected(match="roll 'bo-1' is not the open move of any pirate")


def test_a_snapshot_from_before_the_index_is_rebuilt_wide_and_still_agrees_with_the_fold(campaign) -> None:
    campaign.of("pirates")
    campaign.given(*CREW, step("start_chapter"), pirates.wounded("Bo", "light"))
    campaign.dice(3, 4).given(step("roll_move", id="bo-1", character="Bo", stat="audacity"))
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    rebuilt = {k: v for k, v in folded.items() if k not in ROSTER_INDEX}
    type(aggregate).upcast_v1_v2(rebuilt)
    assert rebuilt["member_of"] == folded["member_of"]
    assert list(rebuilt["stirred"]["end:chapter"]) == ["Anna", "Bo", "Cid", "Dag", "Eve"]
    restored = object.__new__(type(aggregate))
    restored.__dict__.update(rebuilt)
    assert restored.open_move_of("bo-1") == ["Anna", "Bo", "Cid", "Dag", "Eve"]  # whoever may hold it
    assert Campaign.snapshot_agrees(rebuilt, folded)
    # A snapshot that leaves out a member the fold counts as stirred, or Bo's open move, would skip
    # him: it does not agree.
    assert not Campaign.snapshot_agrees({**folded, "stirred": {**folded["stirred"], "end:chapter": {}}}, folded)
    assert not Campaign.snapshot_agrees({**rebuilt, "moves_unknown": {}}, folded)
