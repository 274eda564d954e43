"""Repeat detection (commands/repeats.py), against a unit of work that holds what a test says it holds."""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import pytest

from rollbook.commands.parse import parse_command
from rollbook.commands.repeats import as_recorded, repeats, rerun
from rollbook.domain.errors import CommandRejected
from rollbook.domain.ids import command_claim_id
from rollbook.store.failures import IntegrityError, PersistenceError
from rollbook.store.unit_of_work import Recorded

HIT = {"type": "take_damage", "campaign": "tortuga", "character": "Anna", "harm": 1}


def command(**fields: Any):
    return parse_command({**HIT, **fields}, ruleset_of=lambda campaign: "pirates")


@dataclass
class Unit:
    """The part of a unit of work repeats read: whether a claim is recorded, and its command."""

    claims_enforced: bool = False
    commands: dict[UUID, Recorded] = field(default_factory=dict)
    unreadable: bool = False

    def is_recorded(self, claim_id: UUID) -> bool:
        if self.unreadable:
            raise PersistenceError("the store is gone")
        return claim_id in self.commands

    def recorded(self, claim_id: UUID, campaign_id: UUID) -> Recorded | None:
        return self.commands.get(claim_id)


def holding(given, seq: int = 3, position: int | None = None, **unit: Any) -> Unit:
    recorded = Recorded(seq, as_recorded(given, given.id), position)
    return Unit(commands={command_claim_id("tortuga", given.id): recorded}, **unit)


def test_the_record_keeps_the_id_and_the_time_as_isoformat_writes_it():
    at = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)
    recorded = as_recorded(command(id="c1", at=at.isoformat()), "c1")
    assert recorded["id"] == "c1" and recorded["at"] == "2026-03-01T20:00:00+00:00"
    assert "at" not in as_recorded(command(), "c-new")


def test_only_a_command_given_an_id_repeats_one():
    unit = holding(command(id="c1"))
    assert not repeats(unit, command(), "c1", "tortuga")
    assert repeats(unit, command(id="c1"), "c1", "tortuga")
    assert not repeats(unit, command(id="c2"), "c2", "tortuga")


def test_where_the_store_refuses_a_repeated_claim_a_repeat_is_looked_for_only_after_a_failure():
    unit = holding(command(id="c1"), claims_enforced=True)
    assert not repeats(unit, command(id="c1"), "c1", "tortuga")  # no look before deciding
    assert repeats(unit, command(id="c1"), "c1", "tortuga", IntegrityError("claimed"))
    assert repeats(unit, command(id="c1"), "c1", "tortuga", CommandRejected("done already"))
    assert repeats(unit, command(id="c1"), "c1", "tortuga", PersistenceError("read-only"))


def test_where_it_was_looked_for_before_a_failure_is_no_repeat():
    unit = holding(command(id="c1"))
    assert not repeats(unit, command(id="c1"), "c1", "tortuga", IntegrityError("overtaken"))


def test_a_store_that_cannot_even_be_read_lets_the_writes_own_error_speak():
    unit = holding(command(id="c1"), claims_enforced=True, unreadable=True)
    assert not repeats(unit, command(id="c1"), "c1", "tortuga", PersistenceError("disk full"))


def test_the_same_command_again_is_a_rerun_of_the_recorded_one_even_given_later():
    first = command(id="c1", at="2026-03-01T20:00:00+00:00")
    unit = holding(first)
    assert rerun(unit, first, "c1", "tortuga") == unit.commands[command_claim_id("tortuga", "c1")]
    assert rerun(unit, command(id="c1"), "c1", "tortuga").seq == 3  # no `at`: run later, the same command


def test_another_command_under_a_recorded_id_is_refused_with_what_differs_and_where():
    unit = holding(command(id="c1", at="2026-03-01T20:00:00+00:00"), seq=3, position=17)
    with pytest.raises(CommandRejected) as refused:
        rerun(unit, command(id="c1", harm=2), "c1", "tortuga")
    assert refused.value.field == "id"
    assert refused.value.message == (
        "id 'c1' is already recorded as command 3 of tortuga (position 17), at 2026-03-01T20:00:00+00:00, "
        "with a different command: harm: recorded 1, given 2")


def test_a_repeat_the_unit_cannot_read_back_is_a_rerun_of_nothing_it_can_show():
    assert rerun(Unit(), command(id="c1"), "c1", "tortuga") is None
