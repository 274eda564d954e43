"""A command's claim is stored as the event creating its aggregate would be, made without the aggregate:
its bytes are hashed into the campaign's chain and compared by replay and verify, so they must not change."""

from __future__ import annotations

from datetime import UTC, datetime

from rollbook.domain.aggregate import command_time
from rollbook.domain.ids import command_claim_id
from rollbook.domain.members import CommandClaim
from rollbook.store import Store


def test_a_claim_made_without_its_aggregate_is_stored_byte_for_byte_as_the_aggregate_s_event() -> None:
    store = Store.open("memory://")
    token = command_time.set(datetime(2026, 3, 2, 19, 10, tzinfo=UTC))
    try:
        by_aggregate = CommandClaim(campaign="black-sails", command_id="anna-1").collect_events()[0]
        by_event = CommandClaim.recorded(command_claim_id("black-sails", "anna-1"), "black-sails", "anna-1")
    finally:
        command_time.reset(token)
    old, new = store.app.mapper.to_stored_event(by_aggregate), store.app.mapper.to_stored_event(by_event)
    assert (new.originator_id, new.originator_version, new.topic) == (old.originator_id, 1, old.topic)
    assert new.state == old.state and b"anna-1" in new.state
    store.close()
