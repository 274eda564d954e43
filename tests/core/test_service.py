"""The service's promises: all or nothing, idempotent ids, permissions, event times, the hash chain."""

from datetime import datetime, timezone

import pytest
from freezegun import freeze_time
from rollbook.store.unit_of_work import BatchUnit, MemoryUnit, StoreUnit
from rollbook.domain.chain import GENESIS_CHAIN
from rollbook.domain.ids import member_id
from rollbook.store import Store
from rollbook.testing import events, new_campaign, pirates


def stored_count(campaign):
    return campaign.store.app.recorder.max_notification_id() or 0


def test_a_refused_command_writes_nothing_even_after_deciding_part_of_it(campaign):
    # Three points of harm, two absorbed with luck Anna does not have: refused before any change.
    campaign.given(pirates.created("Anna", luck=1))
    before = campaign.events(bookkeeping=True)
    campaign.when({"type": "take_damage", "character": "Anna", "harm": 3, "absorb_with_luck": 2})
    campaign.then_rejected(match="has 1 luck and cannot absorb 2")
    assert campaign.events(bookkeeping=True) == before
    assert campaign.sheet("Anna")["luck"] == 1


def test_a_command_refused_midway_leaves_no_trace_in_the_cache(campaign):
    # The luck is spent in memory before the roll finds its faces missing; nothing may survive.
    campaign.given(pirates.created("Anna", luck=1, audacity=2))
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "audacity", "luck_bonus": True, "dice": [3]})
    campaign.then_rejected(match="rolls 2 dice .*, but 1 face was given")
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "audacity", "luck_bonus": True, "dice": [3, 4]})
    campaign.then(
        events.LimitUsed(limit="luck_roll_bonus", holder="Anna"),
        events.LuckSpent(character="Anna", amount=1, purpose="roll_bonus"),
        events.DiceRolled(),
        events.MoveBegun(character="Anna"),
        events.MoveRolled(character="Anna", total=10, outcome="full_success"),
    )
    assert campaign.sheet("Anna")["luck"] == 0


def test_a_recorded_id_is_skipped_not_applied_twice(campaign):
    campaign.given(pirates.created("Anna", luck=3))
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 1})
    count = stored_count(campaign)
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 1})
    campaign.then()
    assert stored_count(campaign) == count
    assert campaign.sheet("Anna")["wounds"]["light"] == 1


def test_a_recorded_id_given_again_with_a_different_command_is_refused_naming_what_differs(campaign):
    campaign.given(pirates.created("Anna", luck=3))
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 1})
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 2})
    campaign.then_rejected(match=r"id: id 'hit-1' is already recorded as command 3 of test-campaign .*harm: recorded 1, given 2")
    assert campaign.sheet("Anna")["wounds"]["light"] == 1


def test_a_command_dated_before_the_campaigns_last_one_is_refused(campaign):
    campaign.at("2026-03-01T20:00:00Z").given(pirates.created("Anna"))
    campaign.at("2026-03-01T19:59:59Z").when({"type": "take_damage", "character": "Anna", "harm": 1})
    campaign.then_rejected(match=r"at: 2026-03-01T19:59:59\+00:00 is earlier than the campaign's last command "
                                 r"\(2026-03-01T20:00:00\+00:00\)")


def test_a_recorded_id_is_skipped_even_where_the_rules_would_now_refuse_it(campaign):
    # No look-up before deciding: the repeat is decided, refused (no luck left), then found recorded.
    campaign.given(pirates.created("Anna", luck=2))
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 2, "absorb_with_luck": 2})
    count = stored_count(campaign)
    campaign.when({"type": "take_damage", "id": "hit-1", "character": "Anna", "harm": 2, "absorb_with_luck": 2})
    campaign.then()
    assert stored_count(campaign) == count and campaign.sheet("Anna")["luck"] == 0


def test_given_history_is_taken_as_it_is_by_every_unit_of_work(campaign):
    campaign.given(pirates.created("Anna", luck=2))
    anna = member_id(campaign.name, "character", "Anna")
    stored = campaign.store.app.recorder.select_events(anna)
    in_memory = MemoryUnit(campaign.store.app)
    in_memory.adopt(stored)
    target = Store.open("memory://")
    batch = BatchUnit(StoreUnit(target.app))
    batch.adopt(stored)
    assert in_memory.load(anna).sheet()["luck"] == batch.load(anna).sheet()["luck"] == 2
    assert target.app.recorder.select_events(anna) == []  # a batch writes when it is flushed
    batch.commit()
    assert target.app.recorder.select_events(anna) == stored
    assert StoreUnit(target.app).load(anna).sheet()["luck"] == 2


def test_unknown_character_is_named(campaign):
    campaign.given(pirates.created("Anna"))
    campaign.when({"type": "take_damage", "character": "Nobody", "harm": 1})
    campaign.then_rejected(match=r"character: no character named 'Nobody'.*known: Anna")


def test_a_player_cannot_act_for_another_players_character(campaign):
    campaign.given(pirates.created("Anna", player="anna"), pirates.created("Bo", player="bo", luck=1))
    campaign.when({"type": "roll_move", "actor": "player:bo", "character": "Anna", "stat": "guile", "dice": [1, 1]})
    campaign.then_rejected(match="player:bo cannot act for 'Anna'")


def test_only_the_gm_moves_the_timeline_and_an_auditor_does_not_play(campaign):
    campaign.given(pirates.created("Anna", player="anna"))
    campaign.when({"type": "start_chapter", "actor": "player:anna"})
    campaign.then_rejected(match="only the GM may start_chapter")
    campaign.when({"type": "take_damage", "actor": "auditor:kim", "character": "Anna", "harm": 1})
    campaign.then_rejected(match="auditor:kim may dispute rolls but not play")


def test_events_carry_the_command_time_or_the_frozen_clock(campaign):
    campaign.at("2026-03-01T19:00:00Z").given(pirates.created("Anna"))
    campaign.at("2026-03-01T20:00:00Z").when({"type": "take_damage", "character": "Anna", "harm": 1})
    wounded = [row for row in campaign.reader.log("test-campaign") if row["type"] == "Wounded"]
    assert wounded[0]["at"] == datetime(2026, 3, 1, 20, 0, tzinfo=timezone.utc).isoformat()


@freeze_time("2026-05-04 12:00:00", tz_offset=0)
def test_freezegun_times_are_stored_and_read_back():
    campaign = new_campaign("pirates")
    campaign.given(pirates.created("Anna"))
    campaign.reader.catch_up()
    log = list(campaign.reader.log("test-campaign"))
    assert {row["at"] for row in log} == {"2026-05-04T12:00:00+00:00"}
    assert campaign.events()[0]["type"] == "Created"


def test_every_command_is_chained_to_the_previous_one(campaign):
    campaign.given(pirates.created("Anna"), pirates.created("Bo"))
    applied = [e for e in campaign.events(bookkeeping=True) if e["type"] == "CommandApplied"]
    assert [e["seq"] for e in applied] == [1, 2, 3]
    assert len({e["chain"] for e in applied} | {GENESIS_CHAIN}) == 4


@pytest.mark.parametrize("faces, outcome", [([4, 5], "full_success"), ([3, 3], "partial_success"), ([1, 3], "miss")])
def test_the_outcome_band_is_the_total(campaign, faces, outcome):
    campaign.given(pirates.created("Anna", audacity=2))
    campaign.when({"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": faces})
    assert campaign.rolls()[-1]["outcome"] == outcome
