"""The base of every Rollbook aggregate.

Two things are common to all of them:

- an event's timestamp is the time of the command that caused it (`at`, the original
  forum post time when history is imported), so re-executing a history gives the very
  same events; without `at` it is "now" (which freezegun can freeze in tests);
- events are journalled in the order they happen across aggregates, so a command that
  rolls for Anna and then takes Bo's luck is stored in that order.

Aggregates follow the eventsourcing convention used throughout: a public method decides
(validates against the state, rolls, raises `CommandRejected`), then calls a private
method decorated with `@event`, whose body only evolves the state. Replay runs only the
decorated bodies.
"""

from __future__ import annotations

from contextvars import ContextVar
from datetime import datetime
from typing import Any

from eventsourcing.domain import Aggregate
from eventsourcing.domain import datetime_now_with_tzinfo

command_time: ContextVar[datetime | None] = ContextVar("command_time", default=None)
event_journal: ContextVar[list[Any] | None] = ContextVar("event_journal", default=None)


class RollbookAggregate(Aggregate):
    class Event(Aggregate.Event):
        @staticmethod
        def create_timestamp() -> datetime:
            return command_time.get() or datetime_now_with_tzinfo()

    class Created(Event, Aggregate.Created):
        """Creation events take the command's time too."""

    @classmethod
    def _create(cls, event_class: type[Any], **kwargs: Any) -> Any:
        aggregate = super()._create(event_class, **kwargs)
        _journal(aggregate.pending_events[-1])
        return aggregate

    def trigger_event(self, event_class: type[Any], **kwargs: Any) -> None:
        super().trigger_event(event_class, **kwargs)
        _journal(self.pending_events[-1])


def _journal(new_event: Any) -> None:
    journal = event_journal.get()
    if journal is not None:
        journal.append(new_event)
