"""The SQLite recorder a Rollbook store writes with: a command's events in one `executemany`.

The library's `SQLiteApplicationRecorder` inserts a transaction's events one `execute` at a time,
to read each row's position from `lastrowid`, which makes the four to six events of a command
cost well over raw `sqlite3` for the same rows. Here they go in with one
`executemany`, and their positions are read once: in one write transaction, with no row given
a rowid of its own and no AUTOINCREMENT, SQLite numbers new rows one past the largest rowid, so
a batch's rows take consecutive positions ending at `last_insert_rowid()`.

The writer (`store/writer.py`) inserts on a connection of its own (`OwnConnection`): plain BEGIN,
`executemany` and COMMIT, without the library's pool (a get and a put under its locks, and a context
stack, for every transaction). It tells its callers the rows are in, or refused, before it waits for
the COMMIT, and may insert several commands' rows before one COMMIT (the server's group commit).

Chosen by the library's own setting (`APPLICATION_RECORDER_TOPIC`, see `store.environment_for`);
reading is the library's, unchanged. `tests/core/test_store_record.py` holds it to the library's
recorder: the same rows, positions and refusals.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any
from uuid import UUID

import eventsourcing.persistence
from eventsourcing.persistence import PersistenceError, StoredEvent
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT, SQLiteApplicationRecorder, SQLiteCursor


class OwnConnection:
    """The writer's own connection to the store's file, opened as the library's pool opens one (the same
    file, lock timeout, autocommit between transactions); the tables, the statement and the errors are
    the library's. One thread at a time: the writer's."""

    def __init__(self, recorder: SQLiteCommandRecorder) -> None:
        pool = recorder.datastore.pool
        self._recorder = recorder
        self._sqlite = sqlite3.connect(pool.db_name, uri=True, check_same_thread=False, isolation_level=None,
                                       timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        self._cursor = self._sqlite.cursor()
        #: Whether a write transaction is open, and whether it holds rows already.
        self._open = self._holds_rows = False

    def insert(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
        """Insert one command's rows in the open write transaction (begun if none is); their positions. A
        refusal (a version or claim taken) undoes these rows only, and is raised as `insert_events` raises it."""
        try:
            if not self._open:
                self._cursor.execute("BEGIN IMMEDIATE")
                self._open = True
            if not self._holds_rows:
                positions = self._recorder._insert_events(self._cursor, stored_events)
            else:  # rows of other commands are in: a refusal of these must leave them be
                self._cursor.execute("SAVEPOINT command")
                try:
                    positions = self._recorder._insert_events(self._cursor, stored_events)
                except BaseException:
                    self._cursor.execute("ROLLBACK TO command")
                    raise
                finally:
                    self._cursor.execute("RELEASE command")
        except sqlite3.Error as error:
            if not self._holds_rows:
                self.rollback()
            raise _library_error(error) from error
        self._holds_rows = True
        return positions

    def commit(self) -> None:
        """COMMIT the open transaction; if it fails it is rolled back, and the error raised as the library raises it."""
        self._open = self._holds_rows = False
        try:
            self._cursor.execute("COMMIT")
        except sqlite3.Error as error:
            self._sqlite.rollback()
            raise _library_error(error) from error

    def rollback(self) -> None:
        self._open = self._holds_rows = False
        self._sqlite.rollback()

    def close(self) -> None:
        self._sqlite.close()


def _library_error(error: sqlite3.Error) -> PersistenceError:
    """The library's error for sqlite3's (the same DB-API name: IntegrityError for a taken version, ...)."""
    kind = getattr(eventsourcing.persistence, type(error).__name__, PersistenceError)
    return kind(error) if isinstance(kind, type) and issubclass(kind, PersistenceError) else PersistenceError(error)


class SQLiteCommandRecorder(SQLiteApplicationRecorder):
    def own_connection(self) -> OwnConnection:
        """A connection of the caller's own, for the writer's plain transactions."""
        return OwnConnection(self)

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int]:
        if not stored_events:
            return []
        c.executemany(
            self.insert_events_statement,
            [
                (
                    s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id,
                    s.originator_version,
                    s.topic,
                    s.state,
                )
                for s in stored_events
            ],
        )
        c.execute("SELECT last_insert_rowid()")
        last = c.fetchone()[0]
        return list(range(last - len(stored_events) + 1, last + 1))
