"""The event store read back for what Rollbook shows: an aggregate's events, the log, decoded.

The layers above ask for events by aggregate and version, or by position, and get the
domain events the store's mapper decodes; which recorder query answers, and how it pages,
stays here. Each read asks the recorder the same queries the callers asked themselves
before, so what they show is unchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Container, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any
from uuid import UUID

from .app import EventStore, application

# The library's types the layers above hold, named here so that they need not import its persistence:
# a stored event (a row), what reading an aggregate that was never stored raises, and what a row
# that does not decode raises.
from eventsourcing.application import AggregateNotFoundError as AggregateNotFoundError
from eventsourcing.persistence import MapperDeserialisationError as MapperDeserialisationError
from eventsourcing.persistence import StoredEvent as StoredEvent
from eventsourcing.domain import Aggregate as Aggregate


def head(store: EventStore) -> int:
    """The last stored position (0 when empty)."""
    app = application(store)
    return app.recorder.max_notification_id() or 0


def aggregate(store: EventStore, aggregate_id: UUID, version: int | None = None, *, fold: Any = None) -> Any:
    """The aggregate as its stored events leave it (at `version`, if given: else its latest), folded by
    `fold` (the library's projector function) if given; raises `AggregateNotFoundError` if it was never stored."""
    if fold is None:
        return application(store).repository.get(aggregate_id, version=version)
    return application(store).repository.get(aggregate_id, version=version, projector_func=fold)


def events_of(store: EventStore, originator: UUID) -> Iterator[Any]:
    """Every event of the aggregate, decoded, in order."""
    return application(store).events.get(originator)  # type: ignore[no-any-return]


def events_between(store: EventStore, originator: UUID, first: int, last: int) -> list[Any]:
    """The aggregate's events of versions `first` to `last`, decoded, in order."""
    app = application(store)
    to_domain_event = app.mapper.to_domain_event
    return [to_domain_event(stored) for stored in app.recorder.select_events(originator, gt=first - 1, lte=last)]


def latest_first(store: EventStore, originator: UUID, topic_suffix: str, page: int | None) -> Iterator[Any]:
    """The aggregate's events whose topic ends with `topic_suffix`, decoded, the latest first; read
    `page` events at a time (None: all at once), so that a search that ends early reads only the end
    of a long history. Only the events of that topic are decoded."""
    app = application(store)
    below: int | None = None
    while stored_page := app.recorder.select_events(originator, desc=True, limit=page, lte=below):
        for stored in stored_page:
            if stored.topic.endswith(topic_suffix):
                yield app.mapper.to_domain_event(stored)
        if page is None:
            return
        below = stored_page[-1].originator_version - 1


def last_event(store: EventStore, originator: UUID) -> Any | None:
    """The aggregate's latest event, decoded; None if it has none."""
    app = application(store)
    latest = app.recorder.select_events(originator, desc=True, limit=1)
    return app.mapper.to_domain_event(latest[0]) if latest else None


def logged(
    store: EventStore, *, start: int = 0, stop: int | None = None, page: int,
    topics: Sequence[str] = (), originators: Container[UUID] | None = None,
) -> Iterator[tuple[int, UUID, int, Any]]:
    """The log after position `start`, up to `stop` (None: its end), read `page` notifications at a
    time, of the `topics` given (none: all): `(position, originator, version, event)` of the
    aggregates in `originators` (None: all), the others not decoded."""
    app = application(store)
    position = start
    while batch := app.recorder.select_notifications(
        position, page, stop=stop, topics=topics, inclusive_of_start=False
    ):
        for notification in batch:
            if originators is None or notification.originator_id in originators:
                event = app.mapper.to_domain_event(notification)
                yield notification.id, notification.originator_id, notification.originator_version, event
        position = batch[-1].id


def subscription_after(store: EventStore, after: int) -> AbstractContextManager[Any]:
    """The log's notifications after position `after`, handed over as they are committed, for as long as
    the block lasts (the library's subscription: PostgreSQL's LISTEN/NOTIFY); `stop()` ends it."""
    app = application(store)
    return app.recorder.subscribe(gt=after)  # type: ignore[no-any-return]


# --- rows as stored: what verification, export and copies compare byte for byte --------------


def stored_events(
    store: EventStore, originator: UUID, *,
    gt: int | None = None, lte: int | None = None, desc: bool = False, limit: int | None = None,
) -> Sequence[StoredEvent]:
    """The aggregate's stored rows of versions above `gt` up to `lte`, as the library's recorder selects them."""
    app = application(store)
    return app.recorder.select_events(originator, gt=gt, lte=lte, desc=desc, limit=limit)


def has_events(store: EventStore, originator: UUID, after: int | None = None) -> bool:
    """Whether the aggregate has any event stored (after version `after`, if given)."""
    app = application(store)
    return bool(app.recorder.select_events(originator, gt=after, limit=1))


def latest_versions(store: EventStore, originators: Sequence[UUID]) -> dict[UUID, int]:
    """Each aggregate's latest stored version (one with no event is left out): on SQLite and PostgreSQL one
    query for them all, so that a request checking several aggregates pays one round trip, not one each."""
    recorder = application(store).recorder
    # Each library module is looked at only if loaded: a store of the other kind never imports it (nor psycopg).
    sqlite, postgres = sys.modules.get("eventsourcing.sqlite"), sys.modules.get("eventsourcing.postgres")
    if sqlite is not None and isinstance(recorder, sqlite.SQLiteAggregateRecorder):
        marks = ",".join("?" * len(originators))
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT originator_id, MAX(originator_version) AS version FROM "
                           f"{recorder.events_table_name} WHERE originator_id IN ({marks}) GROUP BY originator_id",
                           [originator.hex for originator in originators])
            return {UUID(row["originator_id"]): row["version"] for row in cursor.fetchall()}
    if postgres is not None and isinstance(recorder, postgres.PostgresAggregateRecorder):
        from psycopg.sql import SQL, Identifier

        query = SQL("SELECT originator_id, MAX(originator_version) AS version FROM {schema}.{table} "
                    "WHERE originator_id = ANY(%s) GROUP BY originator_id").format(
            schema=Identifier(recorder.datastore.schema), table=Identifier(recorder.events_table_name))
        with recorder.datastore.get_connection() as connection, connection.cursor() as cursor:
            cursor.execute(query, [list(originators)], prepare=True)
            return {row["originator_id"]: row["version"] for row in cursor.fetchall()}
    latest = {originator: recorder.select_events(originator, desc=True, limit=1) for originator in originators}
    return {originator: rows[0].originator_version for originator, rows in latest.items() if rows}


def stored_pages(store: EventStore, originator: UUID, page: int) -> Iterator[Sequence[StoredEvent]]:
    """The aggregate's stored rows in version order, `page` at a time."""
    app = application(store)
    version = 0
    while rows := app.recorder.select_events(originator, gt=version, limit=page):
        yield rows
        version = rows[-1].originator_version


def stored_log(store: EventStore, page: int, start: int = 0) -> Iterator[Any]:
    """Every stored row after position `start` in notification (commit) order, read `page` at a time;
    each row has its position as `id`."""
    app = application(store)
    position = start
    while rows := app.recorder.select_notifications(position, page, inclusive_of_start=False):
        yield from rows
        position = rows[-1].id


def stored_snapshots(store: EventStore, originator: UUID) -> Sequence[StoredEvent]:
    """The aggregate's stored snapshots, in version order (none if the store takes no snapshots)."""
    app = application(store)
    return () if app.snapshots is None else app.snapshots.recorder.select_events(originator)


def decoded(store: EventStore, stored: Any) -> Any:
    """The domain event (or snapshot) of a stored row, as the store's mapper decodes it."""
    app = application(store)
    return app.mapper.to_domain_event(stored)


def decoded_state(store: EventStore, state: bytes) -> Any:
    """A stored row's state as plain data (its fields), decrypted and decompressed as the store's mapper
    does, without building an event."""
    app = application(store)
    mapper = app.mapper
    if mapper.cipher:
        state = mapper.cipher.decrypt(state)
    if mapper.compressor:
        state = mapper.compressor.decompress(state)
    return mapper.transcoder.decode(state)


def encoded(store: EventStore, event: Any) -> StoredEvent:
    """The row the store's mapper makes of a domain event (or snapshot)."""
    app = application(store)
    return app.mapper.to_stored_event(event)


def stored_notifications(store: EventStore, start: int, limit: int, stop: int | None = None) -> Sequence[Any]:
    """Up to `limit` stored rows from position `start` on (to `stop`, if given), in notification order; each has
    its position as `id`."""
    app = application(store)
    return app.recorder.select_notifications(start, limit, stop=stop)
