"""The event store read page by page for the projections: only the rows they look at.

A row is `(position, originator, version, topic, state)`; `originator` is a key for the
aggregate that stays the same for one store (its id as stored, or the library's id).

The library's `select_notifications` builds a `Notification` and parses a UUID for every
row, including the command claims (a quarter of all rows), which projections skip. On
SQLite that was a third of a rebuild's reading, so there the rows are selected directly
from the library's table, claims left out by the query, the id kept as its stored text
and parsed only for the few aggregates that are folded or read. A page is a range of
positions rather than a number of rows, so a page with skipped rows still moves on.
Every other store (PostgreSQL returns UUIDs already; memory) goes through the library.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from typing import Any

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder

Row = Sequence[Any]  # position, originator, version, topic, state


class LibraryPages:
    """Pages from `select_notifications`, skipped topics filtered out here."""

    def __init__(self, app: Application, skipped_topics: Collection[str]) -> None:
        self.recorder = app.recorder
        self.skipped = frozenset(skipped_topics)

    def read(self, start: int, limit: int) -> tuple[list[Row], int]:
        """The rows of interest after `start`, and the position they reach (`start` if none)."""
        notifications = self.recorder.select_notifications(start, limit, inclusive_of_start=False)
        if not notifications:
            return [], start
        return self.rows(notifications), int(notifications[-1].id)

    def rows(self, notifications: Sequence[Any]) -> list[Row]:
        skipped = self.skipped
        return [
            (n.id, n.originator_id, n.originator_version, n.topic, n.state)
            for n in notifications
            if n.topic not in skipped
        ]

    def originator_id(self, originator: Hashable) -> Any:
        return originator

    def stored_event(self, row: Row) -> StoredEvent:
        """What the library's mapper decodes."""
        return StoredEvent(
            originator_id=self.originator_id(row[1]), originator_version=row[2], topic=row[3], state=row[4]
        )


class SQLitePages(LibraryPages):
    """Rows straight from the library's SQLite table (rowid is the position)."""

    def __init__(self, app: Application, skipped_topics: Collection[str]) -> None:
        super().__init__(app, skipped_topics)
        recorder = self.recorder
        assert isinstance(recorder, SQLiteApplicationRecorder)
        self.datastore = recorder.datastore
        self.convert = recorder.convert_originator_id
        skipped = ", ".join("?" * len(self.skipped)) or "NULL"
        self.statement = (
            f"SELECT rowid, originator_id, originator_version, topic, state FROM {recorder.events_table_name} "
            f"WHERE rowid > ? AND rowid <= ? AND topic NOT IN ({skipped}) ORDER BY rowid"
        )

    def read(self, start: int, limit: int) -> tuple[list[Row], int]:
        end = min(start + limit, self.recorder.max_notification_id() or 0)
        if end <= start:
            return [], start
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self.statement, (start, end, *self.skipped))
            return cursor.fetchall(), end

    def originator_id(self, originator: Hashable) -> Any:
        return self.convert(originator)  # type: ignore[arg-type]


def pages_for(app: Application, skipped_topics: Collection[str]) -> LibraryPages:
    if type(app.recorder) is SQLiteApplicationRecorder:
        return SQLitePages(app, skipped_topics)
    return LibraryPages(app, skipped_topics)
