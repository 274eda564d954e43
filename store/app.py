"""The event store: an eventsourcing Application configured for Rollbook.

What it adds to the library's Application:

- `record`: saves one command's events in the order they happened across aggregates,
  in one transaction, transcoding each event once (the same bytes feed the command's
  hash chain and the store);
- a transcoder that stores any datetime subclass as a datetime, so freezegun's
  `FakeDatetime` works in tests without special-casing them;
- snapshots of every aggregate class at an interval, so looking up any version of a
  long-lived campaign reads a snapshot and a few events, not the whole history; a campaign's
  snapshot stores its roster's full chunks once (`roster_chunks`), so it does not grow with
  the roster.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, TypeAlias

from eventsourcing.application import AggregateNotFoundError, Application, Repository
from eventsourcing.domain import Aggregate, EventSourcingError, OriginatorVersionError
from eventsourcing.persistence import (
    ApplicationRecorder, IntegrityError, JSONTranscoder, Mapper, MapperDeserialisationError, PersistenceError,
    StoredEvent, Transcoder,
)
from eventsourcing.utils import TopicError

from ..domain.errors import DamagedHistory
from .failures import describe, is_store_failure
from .logs import Log
from .roster_chunks import RosterChunkError, RosterChunks, SealingMapper
from .schema_lock import creating_tables

#: What folding a stored event may raise when the store was damaged or edited: bytes that do not
#: decode (ValueError), a version out of its place or a topic no module has (the library's errors), an
#: event whose method finds the aggregate not as its command left it (AssertionError, KeyError), or
#: an event without the fields its method takes (TypeError).
FOLD_FAILURES: tuple[type[BaseException], ...] = (
    EventSourcingError, TopicError, ValueError, AssertionError, KeyError, TypeError)

SNAPSHOT_INTERVAL = 200

log = Log("rollbook.store")


class RollbookTranscoder(JSONTranscoder):
    def _encode_obj(self, o: Any) -> dict[str, Any]:
        # Any datetime subclass (freezegun's FakeDatetime) is stored as a plain datetime.
        # Its class cannot be converted here: freezegun swaps every reference to datetime.
        if isinstance(o, datetime) and type(o) not in self.types:
            return {"_type_": "datetime_iso", "_data_": o.isoformat()}
        return super()._encode_obj(o)


class FoldingRepository(Repository[Any]):
    """The library's repository, but a snapshot whose roster chunks do not check out is passed over.

    A snapshot is a copy, the events are the record: an aggregate whose snapshot cannot be read
    whole (a chunk edited or removed in the store, which `verify` reports) is folded from its events.
    """

    def _reconstruct_aggregate(self, aggregate_id: Any, version: int | None, projector_func: Any) -> Any:
        projector_func = _folding(aggregate_id, projector_func)
        try:
            return super()._reconstruct_aggregate(aggregate_id, version, projector_func)
        except RosterChunkError as broken:
            log.error("snapshot.unreadable", aggregate=str(aggregate_id), problem=str(broken))
        aggregate = projector_func(None, self.event_store.get(originator_id=aggregate_id, lte=version))
        if aggregate is None:
            raise AggregateNotFoundError(f"Aggregate {aggregate_id!r} version {version!r} not found.")
        return aggregate


def _folding(aggregate_id: Any, projector_func: Any) -> Any:
    """The library's fold, but an event that cannot be read or folded is said in one line
    (`DamagedHistory`, naming the aggregate and the version), not a traceback from deep inside it."""

    def fold(initial: Any, events: Iterable[Any]) -> Any:
        last = [getattr(initial, "version", 0)]

        def counted() -> Iterable[Any]:
            for event in events:
                yield event
                last[0] = event.originator_version

        try:
            return projector_func(initial, counted())
        except RosterChunkError:
            raise  # a snapshot's chunks: the repository folds from the events instead
        except FOLD_FAILURES as error:
            if is_store_failure(error):
                raise  # the events are read as they are folded: a database gone away is not a damaged history
            raise DamagedHistory("the stored events of aggregate {aggregate} cannot be folded past version {version}: "
                                 "the event after it: {why}", aggregate=aggregate_id, version=last[0],
                                 why=why_unfolded(error)) from None

    return fold


def why_unfolded(error: BaseException) -> str:
    """What went wrong folding an event, in one line: bytes that are not JSON, or the library's or the
    event method's own words (an assertion says nothing: its type is named)."""
    if isinstance(error, MapperDeserialisationError):
        return f"its bytes do not decode ({describe(error.__cause__ or error)})"
    if isinstance(error, OriginatorVersionError) and len(error.args) == 2:
        return f"it is v{error.args[0]}, where v{error.args[1]} should come next: an event before it is gone"
    said = describe(error) if str(error) else "the event does not follow from the ones before it"
    return f"{type(error).__name__}: {said}"


class RollbookApplication(Application):
    name = "Rollbook"
    env = {
        "IS_SNAPSHOTTING_ENABLED": "y",
        "AGGREGATE_CACHE_MAXSIZE": "4096",
        # The service evicts whatever a refused or conflicting command touched, so the
        # cache can hand out its objects without copying them and needs no fast-forward.
        "AGGREGATE_CACHE_FASTFORWARD": "n",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        "SQLITE_LOCK_TIMEOUT": "30",
    }

    def __init__(self, env: Any = None) -> None:
        super().__init__(env)
        self.chunks = RosterChunks(self.snapshots.recorder, self.mapper) if self.snapshots is not None else None
        if isinstance(self.mapper, SealingMapper):
            self.mapper.chunks = self.chunks

    def construct_repository(self) -> Repository[Any]:
        repository = super().construct_repository()
        repository.__class__ = FoldingRepository  # the same repository, built by the library from the env
        return repository

    def construct_mapper(self) -> Mapper[Any]:
        mapper = super().construct_mapper()
        return SealingMapper(mapper.transcoder, mapper.compressor, mapper.cipher)

    def construct_recorder(self) -> ApplicationRecorder:
        # Creates the tables: on PostgreSQL one process at a time (see schema_lock).
        with creating_tables(getattr(self.factory, "datastore", None)):
            return super().construct_recorder()

    def construct_transcoder(self) -> Transcoder:
        transcoder = RollbookTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def stored(self, events: Iterable[Any]) -> list[StoredEvent]:
        return [self.mapper.to_stored_event(e) for e in events]

    def record(
        self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]
    ) -> list[int]:
        """Store one command's events, already transcoded, in one transaction; their positions."""
        positions = self.recorder.insert_events(list(stored)) or []
        touched: dict[Any, Aggregate] = {}
        for aggregate in aggregates:
            aggregate.collect_events()
            touched[aggregate.id] = aggregate
        self.remember(touched.values())
        self._snapshot(events, touched)
        return list(positions)

    def remember(self, aggregates: Iterable[Aggregate]) -> None:
        """Cache aggregates as their stored events left them, where the next command looks first;
        one that is no longer `cacheable` (an ended scene) leaves the cache."""
        cache = self.repository.cache
        if cache is None:
            return
        for aggregate in aggregates:
            if getattr(aggregate, "cacheable", True):
                cache.put(aggregate.id, aggregate)
            else:
                with contextlib.suppress(KeyError):
                    cache.get(aggregate.id, evict=True)

    def snapshot_due(self, events: Sequence[Any]) -> set[Any]:
        """The aggregates that storing `events` makes due for a snapshot (see `_snapshot`)."""
        if self.snapshots is None:
            return set()
        return {e.originator_id for e in events if e.originator_version % SNAPSHOT_INTERVAL == 0}

    def _snapshot(self, events: Sequence[Any], aggregates: dict[Any, Aggregate]) -> None:
        """Snapshot each aggregate that reached a multiple of SNAPSHOT_INTERVAL in this command.

        The snapshot is taken of the aggregate in memory, the state these events left it in
        (the cache hands that very object to the next command), instead of reading it back
        from the store as the library's `save()` does: that read cost a fold of up to 200
        events per snapshot, and every snapshot its own transaction.
        """
        due = self.snapshot_due(events)
        if not due:
            return
        snapshots = [
            getattr(type(aggregate), "Snapshot", type(self).snapshot_class).take(aggregate)
            for aggregate_id, aggregate in aggregates.items()
            if aggregate_id in due
        ]
        if snapshots:
            try:
                self.put_snapshots(snapshots)
            except PersistenceError as failure:
                # The command's events are committed: it is recorded, whatever becomes of a copy of
                # its state. Raised, this would pass for the command's own failure (retried, or told
                # "already recorded"); skipped, the next load folds a few more events.
                log.error("snapshot.skipped", aggregates=[str(s.originator_id) for s in snapshots],
                          version=[s.originator_version for s in snapshots], problem=str(failure))

    def snapshot_rows(self, snapshot: Any, pending: Mapping[Any, str] | None = None) -> list[StoredEvent]:
        """The rows that store `snapshot`: the roster chunks it seals that are not yet stored
        (nor `pending`, rows of this kind not stored yet, by id with their digests), then the snapshot itself."""
        chunks, sealed = self.chunks.seal(snapshot, pending) if self.chunks is not None else ([], snapshot)
        return [*chunks, self.mapper.to_stored_event(sealed)]

    def put_snapshots(self, snapshots: Sequence[Any]) -> None:
        """Store snapshots and the roster chunks they seal, in one transaction.

        Another process may store the same chunk first (chunks are sealed by whichever snapshot
        reaches them): the store is asked again, and the snapshots stored with what it holds.
        """
        assert self.snapshots is not None and self.chunks is not None
        for attempt in range(2):
            pending: dict[Any, str] = {}
            rows: list[StoredEvent] = []
            for snapshot in snapshots:
                rows += self.snapshot_rows(snapshot, pending)
                pending.update(self.chunks.digests(rows))
            try:
                self.snapshots.recorder.insert_events(rows)
            except IntegrityError:
                if attempt:
                    raise
                self.chunks.forget()
                continue
            self.chunks.stored(rows)
            return

    def insert_copied(self, rows: Sequence[StoredEvent]) -> None:
        """Rows copied as an export holds them (no command is decided here), in one transaction."""
        self.recorder.insert_events(rows)

    def insert_copied_snapshots(self, rows: Sequence[StoredEvent]) -> None:
        """Snapshots (and the roster chunks they seal) copied with their events, in one transaction; none
        if the first is stored already (a rerun of the same copy), nor where the store takes no snapshots."""
        if self.snapshots is None or self.chunks is None:
            return
        first = rows[0]
        version = first.originator_version
        if self.snapshots.recorder.select_events(first.originator_id, gt=version - 1, lte=version):
            return
        self.snapshots.recorder.insert_events(rows)
        self.chunks.stored(rows)

    def forget(self, aggregate_ids: Iterable[Any]) -> None:
        """Drop cached aggregates that a refused or conflicting command may have changed."""
        if self.repository.cache is None:
            return
        for aggregate_id in aggregate_ids:
            with contextlib.suppress(KeyError):
                self.repository.cache.get(aggregate_id, evict=True)


class HoldsEvents(Protocol):
    """What the layers above hold of the event store: a `Store` (store/__init__.py), never its application."""

    @property
    def app(self) -> RollbookApplication: ...


#: An event store as store/'s reads, units and tables take it: the `Store` the layers above hold, or,
#: inside store/, its application itself.
EventStore: TypeAlias = "RollbookApplication | HoldsEvents"


def application(store: EventStore) -> RollbookApplication:
    """The application an event store stands for: a `Store`'s, or the application itself."""
    return store if isinstance(store, Application) else store.app  # type: ignore[return-value]
