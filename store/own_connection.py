"""The writer's own connection (store/writer.py): its transactions are plain BEGIN, the rows, COMMIT.

The library's recorders take a connection from their pool and put it back for every transaction (a
get and a put under the pool's locks, and a context stack: a sixth of a pipelined command's CPU on
SQLite). The writer is one thread writing one transaction after another, so it keeps one connection
for good, opened as the library opens its own, and inserts with the library's statements: the same
tables, rows, positions and errors (`library_error`) as `insert_events`.

A transaction may hold several commands' rows (the server's group commit): each command's go in
all or nothing, a refused command's undone alone (a savepoint) and the others' kept.
"""

from __future__ import annotations

import sqlite3
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import ExitStack
from typing import Any

import eventsourcing.persistence
from eventsourcing.persistence import PersistenceError, StoredEvent
from eventsourcing.sqlite import SQLITE3_DEFAULT_LOCK_TIMEOUT

from .sqlite_recorder import SQLiteCommandRecorder

def library_error(error: BaseException) -> PersistenceError:
    """The library's error for a driver's, as its recorders raise it: the DB-API class of the same name
    (IntegrityError for a taken version, OperationalError for a locked or full store, ...)."""
    for kind in type(error).__mro__:
        library = getattr(eventsourcing.persistence, kind.__name__, None)
        if isinstance(library, type) and issubclass(library, PersistenceError):
            return library(str(error))
    return PersistenceError(str(error))


class OwnConnection(ABC):
    """One thread's connection for the writer's transactions (see the module)."""

    #: The driver's errors, raised as the library's.
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)

    def __init__(self) -> None:
        #: Whether a write transaction is open, and whether it holds rows already.
        self._open = self._holds_rows = False

    def insert(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
        """Insert one command's rows in the open write transaction (begun if none is); their positions. A
        refusal (a version or claim taken) undoes these rows only, and is raised as `insert_events` raises it."""
        try:
            if not self._open:
                self._reopen_if_broken()
                self._execute(self.BEGIN)
                self._open = True
            if not self._holds_rows:
                positions = self._insert(stored_events)
            else:  # rows of other commands are in: a refusal of these must leave them be
                self._execute("SAVEPOINT command")
                try:
                    positions = self._insert(stored_events)
                except BaseException:
                    self._execute("ROLLBACK TO SAVEPOINT command")
                    raise
                finally:
                    self._execute("RELEASE SAVEPOINT command")
        except self.errors as error:
            if not self._holds_rows:
                self.rollback()
            raise library_error(error) from error
        self._holds_rows = True
        return positions

    def commit(self) -> None:
        """COMMIT the open transaction; if it fails it is rolled back, and the error raised as the library raises it."""
        self._open = self._holds_rows = False
        try:
            self._execute("COMMIT")
        except self.errors as error:
            self._rollback()
            raise library_error(error) from error

    def rollback(self) -> None:
        self._open = self._holds_rows = False
        self._rollback()

    BEGIN = "BEGIN"

    def _reopen_if_broken(self) -> None:
        """Before a transaction: a connection the server closed (a restart, a timeout) is replaced."""

    @abstractmethod
    def _execute(self, statement: str) -> None: ...

    @abstractmethod
    def _insert(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]: ...

    @abstractmethod
    def _rollback(self) -> None: ...

    @abstractmethod
    def close(self) -> None: ...


class SQLiteOwnConnection(OwnConnection):
    """Opened as the library's pool opens one: the same file, lock timeout, autocommit between transactions."""

    BEGIN = "BEGIN IMMEDIATE"  # the write lock at once: a writer waits for it here, not half-way

    def __init__(self, recorder: Any) -> None:
        super().__init__()
        pool = recorder.datastore.pool
        self._recorder = recorder
        self._sqlite = sqlite3.connect(pool.db_name, uri=True, check_same_thread=False, isolation_level=None,
                                       timeout=pool.lock_timeout or SQLITE3_DEFAULT_LOCK_TIMEOUT)
        self._cursor = self._sqlite.cursor()

    def _execute(self, statement: str) -> None:
        self._cursor.execute(statement)

    def _insert(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
        return self._recorder._insert_events(self._cursor, stored_events)

    def _rollback(self) -> None:
        self._sqlite.rollback()

    def close(self) -> None:
        self._sqlite.close()


class PostgresOwnConnection(OwnConnection):
    """A connection of the library's pool, kept for good (its type adapters registered by the library)."""

    def __init__(self, recorder: Any) -> None:
        super().__init__()
        import psycopg  # only with a PostgreSQL store

        self.errors = (psycopg.Error,)
        self._recorder = recorder
        self._kept = ExitStack()
        self._connection = self._kept.enter_context(recorder.datastore.get_connection())

    def _reopen_if_broken(self) -> None:
        if self._connection.closed or self._connection.broken:
            self._kept.close()  # the pool takes the broken connection back and drops it
            self._connection = self._kept.enter_context(self._recorder.datastore.get_connection())

    def _execute(self, statement: str) -> None:
        self._connection.execute(statement)

    def _insert(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
        with self._connection.cursor() as cursor:
            self._recorder._insert_stored_events(cursor, stored_events)  # locks the table, as the library does
            return self._recorder._fetch_ids_after_insert_events(cursor, stored_events)

    def _rollback(self) -> None:
        self._connection.execute("ROLLBACK")

    def close(self) -> None:
        self._kept.close()


def own_connection(recorder: Any) -> OwnConnection:
    """The writer's connection to the recorder's store (SQLite or PostgreSQL: see `writes`)."""
    return SQLiteOwnConnection(recorder) if isinstance(recorder, SQLiteCommandRecorder) else PostgresOwnConnection(recorder)


def writes(recorder: Any) -> bool:
    """Whether the writer can keep a connection to the recorder's store: SQLite or PostgreSQL, not memory."""
    if isinstance(recorder, SQLiteCommandRecorder):
        return True
    postgres = sys.modules.get("eventsourcing.postgres")  # loaded where the store is PostgreSQL
    return postgres is not None and isinstance(recorder, postgres.PostgresApplicationRecorder)
