"""Where a command's aggregates come from and where its events go: the unit of work.

Each command is decided inside one `Transaction` (`with Transaction(unit) as work:`): what it
loads for change is `work.touched`, `work.commit` keeps its events, and leaving the block
without a commit rolls back, forgetting the touched aggregates, so a refused or overtaken
command leaves nothing half-changed behind. A transaction is made afresh for each command,
since a server's threads share one unit. The service decides every command the same way;
only the unit differs:

- `StoreUnit`: the event store — each command's events in one transaction (`rollbook post`, the server);
- `PipelinedUnit`: the same, each command's COMMIT written while the next command is decided
  (`rollbook run` of a file on SQLite);
- `BatchUnit`: many commands' events in one transaction at the end (imports; a dispute's
  corrected revision together with its ruling); itself a context manager whose `commit`
  stores the batch and whose exit without one drops it;
- `MemoryUnit`: no store at all — aggregates held in a dict, each command's stored events
  handed to a callback and dropped (`replay`, a dispute's `--dry-run`). Re-executing a
  long history this way costs no reads, no writes and no claim look-ups, and its memory
  is the campaign's aggregates, not its history.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol, Self
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import StoredEvent
from eventsourcing.utils import get_topic

from ..domain.campaign import Campaign
from ..domain.members import CommandClaim
from .app import EventStore, application
from .port import position_of
from .sqlite_recorder import SQLiteCommandRecorder
from .writer import Write, Writer

#: The topic every campaign's command record is stored under.
APPLIED_TOPIC = get_topic(Campaign.CommandApplied)


@dataclass(frozen=True)
class Recorded:
    """A recorded command, as a repeat of its id is told about it."""

    seq: int
    command: dict[str, Any]
    #: Its CommandApplied's event position (`rollbook log`), where the unit knows positions.
    position: int | None = None


class UnitOfWork(Protocol):
    #: True if `keep` itself refuses a command whose claim is already stored (the store's
    #: unique key on aggregate and version): then nobody needs to look before deciding.
    claims_enforced: bool

    def load(self, aggregate_id: UUID) -> Aggregate | None: ...

    def is_recorded(self, claim_id: UUID) -> bool: ...

    def recorded(self, claim_id: UUID, campaign_id: UUID) -> Recorded | None:
        """The command recorded under a claim, if this unit can still read it."""
        ...

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        """Keep one command's events (all or nothing); the position of its last event, if stored."""
        ...

    def forget(self, aggregate_ids: Iterable[UUID]) -> None:
        """Drop aggregates a refused command may have changed half-way."""
        ...

    def overtaken(self, aggregate_id: UUID, version: int) -> bool:
        """Whether the store holds events of the aggregate after `version` (another process wrote them)."""
        ...

    def adopt(self, stored: Sequence[StoredEvent]) -> None:
        """Take events that were never decided (a test's given history) as they are."""
        ...


class RollsBack(ABC):
    """A block (`with`) that rolls back unless it committed: on a refusal, a conflict, any error."""

    _done = False

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if not self._done:
            self.rollback()

    @abstractmethod
    def rollback(self) -> None: ...


class Transaction(RollsBack):
    """One command's work in a unit: committed whole, or rolled back."""

    def __init__(self, unit: UnitOfWork) -> None:
        self.unit = unit
        #: Every aggregate the command loaded (the `Table` fills it): what a rollback forgets.
        self.touched: dict[UUID, Aggregate] = {}

    def commit(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        position = self.unit.keep(events, stored, aggregates)
        self._done = True
        return position

    def rollback(self) -> None:
        self._done = True
        self.unit.forget(self.touched)


class StoreUnit:
    claims_enforced = True

    def __init__(self, store: EventStore) -> None:
        self.app = application(store)

    def load(self, aggregate_id: UUID) -> Aggregate | None:
        try:
            return self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None

    def is_recorded(self, claim_id: UUID) -> bool:
        return bool(self.app.recorder.select_events(claim_id, limit=1))

    def recorded(self, claim_id: UUID, campaign_id: UUID) -> Recorded | None:
        # A claim is stored in its command's transaction, before the command's CommandApplied:
        # the first CommandApplied of the campaign from the claim's position on is its record.
        start = position_of(self.app, claim_id, 1)
        while start is not None:
            page = self.app.recorder.select_notifications(start, 100, topics=(APPLIED_TOPIC,))
            for notification in page:
                if notification.originator_id == campaign_id:
                    applied = self.app.mapper.to_domain_event(notification)
                    return Recorded(applied.seq, applied.command, notification.id)
            start = page[-1].id + 1 if page else None
        return None

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        positions = self.app.record(events, stored, aggregates)
        return positions[-1] if positions else None

    def row_of(self, event: Any) -> StoredEvent:
        """The row this store writes for `event` (one a subclass keeps in a command's own transaction)."""
        return self.app.mapper.to_stored_event(event)

    def forget(self, aggregate_ids: Iterable[UUID]) -> None:
        self.app.forget(aggregate_ids)

    def overtaken(self, aggregate_id: UUID, version: int) -> bool:
        return bool(self.app.recorder.select_events(aggregate_id, gt=version, limit=1))

    def adopt(self, stored: Sequence[StoredEvent]) -> None:
        self.app.recorder.insert_events(list(stored))
        self.app.forget({s.originator_id for s in stored})


class StoringAlso(StoreUnit):
    """The store's unit of work, storing more new aggregates, of one event each, in each command's own transaction
    (a Discord interaction's signature, the id a post's key was given): all stored, or none."""

    def __init__(self, unit: StoreUnit, *aggregates: Aggregate) -> None:
        super().__init__(unit.app)
        self.rows = [unit.row_of(_only_event(aggregate)) for aggregate in aggregates]

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        # First, so that the command's own rows keep their places (the claim, its events, then CommandApplied).
        positions = self.app.record(events, [*self.rows, *stored], aggregates)
        return positions[-1] if positions else None


def _only_event(aggregate: Aggregate) -> Any:
    [event] = aggregate.collect_events()
    return event


class Overtaken(Exception):
    """The command before could not be committed as it was decided: what it changed is forgotten,
    and whatever was decided on it (this command) is decided again once it is settled."""


class PipelinedUnit(StoreUnit):
    """The event store, one transaction per command, its COMMIT written while the next command is decided.

    `keep` hands a command's rows to the `Writer`, which inserts them once the last command is
    committed and begins their COMMIT: they are refused at once, as by `StoreUnit`, if a version
    or claim is taken. It then caches the command's aggregates as it left them, where the next
    command finds them. If the last commit failed (the store stopped taking writes), the rows are
    not inserted and `keep` raises `Overtaken`, so this command's transaction rolls back too. At
    most one commit is in flight, always the last command's; `take_write` hands it to the caller,
    who tells the command once `settle` has seen it committed. A command that makes an aggregate
    due for a snapshot is stored at once, as by `StoreUnit`: the snapshot follows its own
    command's commit.
    """

    def __init__(self, store: EventStore, writer: Writer) -> None:
        super().__init__(store)
        self.writer = writer
        self._in_flight: tuple[Write, dict[UUID, Aggregate]] | None = None
        self._submitted: Write | None = None

    @staticmethod
    def serves(store: EventStore) -> bool:
        """A store whose recorder leaves a transaction open to commit (SQLite)."""
        return isinstance(application(store).recorder, SQLiteCommandRecorder)

    @classmethod
    def writing_to(cls, store: EventStore) -> PipelinedUnit:
        """The unit with a writer of its own on the store's recorder (SQLite: see `serves`); `writer.close()` ends it."""
        return cls(store, Writer(application(store).recorder))  # type: ignore[arg-type]  # SQLite: see `serves`

    def load(self, aggregate_id: UUID) -> Aggregate | None:
        # What the commit in flight changed, though the cache let it go (an ended scene), as it left it.
        if self._in_flight is not None and aggregate_id in self._in_flight[1]:
            return self._in_flight[1][aggregate_id]
        return super().load(aggregate_id)

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        if self.app.snapshot_due(events):
            self.settle()
            return super().keep(events, stored, aggregates)
        write = self.writer.write(stored, after=self._in_flight[0] if self._in_flight is not None else None)
        self.settle()  # done by now: if it failed, `write` was not inserted, and this command is decided again
        if write.refused is not None:
            raise write.refused
        self._submitted = write
        changed = {a.id: a for a in aggregates}
        self._in_flight = (write, changed)
        for aggregate in changed.values():
            aggregate.collect_events()
        self.app.remember(changed.values())
        return write.positions[-1] if write.positions else None

    def take_write(self) -> Write | None:
        """The commit `keep` began since the last call, if any."""
        submitted, self._submitted = self._submitted, None
        return submitted

    def settle(self, write: Write | None = None) -> None:
        """Wait for the commit in flight (only if it is `write`, where given); if it failed, forget
        what its command changed and raise `Overtaken`."""
        if self._in_flight is None or (write is not None and self._in_flight[0] is not write):
            return
        (write, changed), self._in_flight = self._in_flight, None
        try:
            write.result()
        except BaseException as failure:
            self.forget(changed)
            raise Overtaken(str(failure)) from failure


@dataclass
class BatchUnit(RollsBack):
    """Commands decide one by one on the state the earlier ones left; stored together by `commit`.

    `with BatchUnit(under) as batch:` drops what the batch holds if the block is left
    without `batch.commit()`, or the commit fails (another writer got there first).
    """

    under: StoreUnit
    #: A batch's claims reach the store only at its commit, so a repeated id is looked for before
    #: deciding. True: nobody looks, and a stored claim makes the commit fail on the store's unique
    #: key instead, for the whole batch; a caller that says so applies the batch again one command
    #: at a time (`run --group-commit` while its file brings new commands).
    claims_enforced: bool = False
    events: list[Any] = field(default_factory=list)
    stored: list[StoredEvent] = field(default_factory=list)
    aggregates: dict[UUID, Aggregate] = field(default_factory=dict)
    #: The batch's claims (a command stores its claim's event, not the aggregate): claim id -> command id.
    claims: dict[UUID, str] = field(default_factory=dict)

    def load(self, aggregate_id: UUID) -> Aggregate | None:
        if aggregate_id in self.aggregates:
            return self.aggregates[aggregate_id]
        return self.under.load(aggregate_id)

    def is_recorded(self, claim_id: UUID) -> bool:
        return claim_id in self.claims or self.under.is_recorded(claim_id)

    def recorded(self, claim_id: UUID, campaign_id: UUID) -> Recorded | None:
        if claim_id not in self.claims:
            return self.under.recorded(claim_id, campaign_id)
        command_id = self.claims[claim_id]
        for event in self.events:
            if isinstance(event, Campaign.CommandApplied) and event.command_id == command_id and event.originator_id == campaign_id:
                return Recorded(event.seq, event.command)
        return None

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        self.events += events
        self.stored += stored
        self.claims.update((e.originator_id, e.command_id) for e in events if isinstance(e, CommandClaim.Recorded))
        for aggregate in aggregates:
            self.aggregates[aggregate.id] = aggregate
        return None

    def forget(self, aggregate_ids: Iterable[UUID]) -> None:
        """Drop what a refused command changed half-way; an aggregate the batch holds is rebuilt
        from the store and the batch's own events, as the earlier commands left it."""
        forgotten = set(aggregate_ids)
        self.under.forget(forgotten)
        for aggregate_id in forgotten & self.aggregates.keys():
            aggregate = self.under.load(aggregate_id)
            for record in self.stored:
                if record.originator_id == aggregate_id:
                    aggregate = self.under.app.mapper.to_domain_event(record).mutate(aggregate)
            if aggregate is None:
                del self.aggregates[aggregate_id]
            else:
                self.aggregates[aggregate_id] = aggregate

    def overtaken(self, aggregate_id: UUID, version: int) -> bool:
        """Never: a batch decides on what it holds, the store's and its own, and is stored whole or not at all."""
        return False

    def adopt(self, stored: Sequence[StoredEvent]) -> None:
        for record in stored:
            event = self.under.app.mapper.to_domain_event(record)
            if isinstance(event, CommandClaim.Recorded):
                self.claims[event.originator_id] = event.command_id
            else:
                self.aggregates[event.originator_id] = event.mutate(self.load(event.originator_id))
        self.stored += stored

    def commit(self) -> None:
        if self.stored:
            self.under.keep(self.events, self.stored, self.aggregates.values())
        self._done = True

    def rollback(self) -> None:
        self._done = True
        self.under.forget(self.aggregates)


class MemoryUnit:
    """Aggregates in a dict, nothing stored: every command's events go to `committed` and are dropped.

    Claims are not kept, not even their ids: what it re-executes is a recorded history, where
    each id is recorded once (the store refuses a second claim), so no command repeats one and
    memory grows with the campaign's members, not its commands. With no store to reload
    from, a refused command's aggregates are dropped: use it where a refusal ends the run
    (replay), not where later commands go on (a dispute's corrected history).
    """

    claims_enforced = False

    def __init__(
        self, store: EventStore,
        committed: Callable[[Sequence[Any], Sequence[StoredEvent]], None] | None = None,
    ) -> None:
        self.app = application(store)
        self.committed = committed
        self.aggregates: dict[UUID, Aggregate] = {}

    def load(self, aggregate_id: UUID) -> Aggregate | None:
        return self.aggregates.get(aggregate_id)

    def is_recorded(self, claim_id: UUID) -> bool:
        """Never: a recorded history holds each id once (see the class)."""
        return False

    def recorded(self, claim_id: UUID, campaign_id: UUID) -> None:
        """Nothing: the history is not kept (a replay re-executes each recorded id once)."""
        return None

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        for aggregate in aggregates:
            aggregate.collect_events()
            self.aggregates[aggregate.id] = aggregate
        if self.committed is not None:
            self.committed(events, stored)
        return None

    def forget(self, aggregate_ids: Iterable[UUID]) -> None:
        for aggregate_id in list(aggregate_ids):
            self.aggregates.pop(aggregate_id, None)

    def overtaken(self, aggregate_id: UUID, version: int) -> bool:
        """Never: a replay's aggregates are its own."""
        return False

    def adopt(self, stored: Sequence[StoredEvent]) -> None:
        events = [self.app.mapper.to_domain_event(s) for s in stored]
        for event in events:
            aggregate = self.aggregates.get(event.originator_id)
            mutated = event.mutate(aggregate)
            if mutated is not None and not isinstance(mutated, CommandClaim):
                self.aggregates[mutated.id] = mutated
        if self.committed is not None:
            self.committed(events, stored)
