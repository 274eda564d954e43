"""A post decided on a write still in flight, which turns out failed half-way through the decision (issue 48's
group commit, found by two server processes on PostgreSQL): the post must be decided again, never stored on
what the failed write left in memory (it would store command N+1 after no command N: a gap in the chain)."""

import copy

import pytest
from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.store import Store
from rollbook.store.grouped import GroupedUnit
from rollbook.store.unit_of_work import Overtaken
from rollbook.store.writer import Write

PIRATE = {"type": "create_character", "player": "anna", "luck": 1,
          "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}}


class HeldWriter:
    """A writer whose writes stay in flight until the test says how they ended."""

    def __init__(self) -> None:
        self.writes: list[Write] = []

    def submit(self, stored, after=None) -> Write:
        write = Write(stored, after)
        self.writes.append(write)
        return write

    def fail(self, write: Write) -> None:
        write.refused = RuntimeError("another process stored this version first")
        write.begun.set()
        write.done.set()


def command(body: dict) -> object:
    return parse_command({"campaign": "gap", **body}, ruleset_of=lambda _: "pirates")


def test_a_write_found_failed_half_way_through_a_decision_makes_the_post_decided_again(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path / 'gap.db'}")
    try:
        plain = Rollbook(store)
        for n, body in enumerate([{"type": "create_campaign", "ruleset": "pirates"}, {**PIRATE, "name": "Anna"},
                                  {**PIRATE, "name": "Bo"}, {"type": "start_chapter"}]):
            plain.execute(command({**body, "id": f"setup-{n}"}))
        writer = HeldWriter()
        unit = GroupedUnit(store, writer)  # type: ignore[arg-type]  # a writer held by the test
        grouped = copy.copy(plain)
        grouped.unit = unit
        grouped.execute(command({"type": "gain_money", "to": "Anna", "chests": 1, "reason": "loot", "id": "first"}))
        [first] = writer.writes  # in flight: the campaign in memory holds its command
        loads = []
        held_load = GroupedUnit.load

        def load(self, aggregate_id):  # the failure is seen after the campaign was read as `first` left it
            if loads and not first.done.is_set:
                writer.fail(first)
            loads.append(aggregate_id)
            return held_load(self, aggregate_id)

        GroupedUnit.load = load  # type: ignore[method-assign]
        try:
            with pytest.raises(Overtaken):
                grouped.execute(command({"type": "gain_money", "to": "Bo", "chests": 1, "reason": "loot",
                                         "id": "second"}))
        finally:
            GroupedUnit.load = held_load  # type: ignore[method-assign]
        assert len(loads) > 1 and len(writer.writes) == 1  # nothing of `second` was handed to the writer
        applied = plain.execute(command({"type": "gain_money", "to": "Bo", "chests": 1, "reason": "loot",
                                         "id": "second"}))
        assert applied.status == "applied" and plain.campaign("gap").seq == 5  # after setup's 4: no gap
    finally:
        store.close()
