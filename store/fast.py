"""The store port's fast paths, one per backend: the library's tables and structures read directly.

Each answers exactly what `LibraryPort` (the reference) answers; `tests/core/test_store_port.py`
holds them to it on every backend.

- Positions: each backend answers "which version at position P" and "where is version V"
  with one indexed query (memory: the recorder's own index), where the public API can
  only scan the log.
- Rows on SQLite: `select_notifications` builds a `Notification` and parses a UUID for every
  row, including the command claims (a quarter of all rows), which projections skip. That
  was a third of a rebuild's reading, so the rows are selected from the library's table,
  claims left out by the query, the id kept as its stored text and parsed only for the few
  aggregates that are folded or read. A page is a range of positions rather than a number
  of rows, so a page of skipped rows still moves on. PostgreSQL returns UUIDs already and
  memory builds no rows: both read through the library.
- Fields: a stored event is decoded with `json.loads` and its timestamp alone only while the
  transcoder is the library's JSON one unchanged (same decode, same object hook) and the
  mapper neither encrypts nor compresses.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import JSONTranscoder

from .reference import LibraryPort, Pages, Row


class FastPort(LibraryPort):
    def timestamp_transcodings(self) -> dict[str, Any] | None:
        mapper = self.app.mapper
        transcoder = mapper.transcoder
        plain_json = (
            isinstance(transcoder, JSONTranscoder)
            and type(transcoder).decode is JSONTranscoder.decode
            and type(transcoder)._decode_obj is JSONTranscoder._decode_obj
        )
        if not plain_json or mapper.cipher is not None or mapper.compressor is not None:
            return None
        return transcoder.names  # type: ignore[attr-defined, no-any-return]


class MemoryPort(FastPort):
    """POPO positions are the recorder's list indexes + 1, in version order for one aggregate."""

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        versions = self._index().get(str(originator_id), {})
        found = [v for v, index in versions.items() if index + 1 <= position]
        return max(found) if found else None

    def position_of(self, originator_id: UUID, version: int) -> int | None:
        index = self._index().get(str(originator_id), {}).get(version)
        return None if index is None else index + 1

    def _index(self) -> dict[str, dict[int, int]]:
        return self.app.recorder._stored_events_index  # type: ignore[attr-defined, no-any-return]


class SQLitePages(Pages):
    """Rows straight from the library's SQLite table (rowid is the position)."""

    def __init__(self, app: Application, skipped_topics: Collection[str]) -> None:
        super().__init__(app, skipped_topics)
        recorder: Any = self.recorder
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


class SQLitePort(FastPort):
    def __init__(self, app: Application) -> None:
        super().__init__(app)
        recorder: Any = app.recorder
        self.datastore = recorder.datastore
        table = recorder.events_table_name
        self.version_statement = f"SELECT MAX(originator_version) FROM {table} WHERE originator_id = ? AND rowid <= ?"
        self.position_statement = f"SELECT rowid FROM {table} WHERE originator_id = ? AND originator_version = ?"

    def pages(self, skipped_topics: Collection[str]) -> Pages:
        return SQLitePages(self.app, skipped_topics)

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        return self._one(self.version_statement, (originator_id.hex, position))

    def position_of(self, originator_id: UUID, version: int) -> int | None:
        return self._one(self.position_statement, (originator_id.hex, version))

    def _one(self, statement: str, params: tuple[Any, ...]) -> Any:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            row = cursor.fetchone()
            return row[0] if row else None


class PostgresPort(FastPort):
    def __init__(self, app: Application) -> None:
        super().__init__(app)
        recorder: Any = app.recorder
        self.datastore = recorder.datastore
        table = f'"{self.datastore.schema}".{recorder.events_table_name}'
        self.version_statement = (
            f"SELECT MAX(originator_version) FROM {table} WHERE originator_id = %s AND notification_id <= %s"
        )
        self.position_statement = (
            f"SELECT notification_id FROM {table} WHERE originator_id = %s AND originator_version = %s"
        )

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        return self._one(self.version_statement, (originator_id, position))

    def position_of(self, originator_id: UUID, version: int) -> int | None:
        return self._one(self.position_statement, (originator_id, version))

    def _one(self, statement: str, params: tuple[Any, ...]) -> Any:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement, params)
            row = cursor.fetchone()
            return next(iter(row.values())) if row else None


#: The fast ports, by the library's application recorder they read behind (named, not
#: imported: importing the PostgreSQL module would cost every read verb's start-up).
PORTS: dict[str, type[LibraryPort]] = {
    "eventsourcing.sqlite.SQLiteApplicationRecorder": SQLitePort,
    "eventsourcing.postgres.PostgresApplicationRecorder": PostgresPort,
    "eventsourcing.popo.POPOApplicationRecorder": MemoryPort,
}


def fast_port(app: Application) -> LibraryPort:
    """The fast port for the app's recorder (or a subclass of the library's); else the reference."""
    for klass in type(app.recorder).__mro__:
        port = PORTS.get(f"{klass.__module__}.{klass.__qualname__}")
        if port is not None:
            return port(app)
    return LibraryPort(app)
