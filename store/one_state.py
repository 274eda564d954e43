"""One consistent state of a store that another process is writing: every read in the block sees the
store as it was at one moment (`verify` of a live server's store).

`verify` reads a campaign many times over (its chain, the whole store once, snapshots, projections);
read each in its own transaction while `rollbook run` or `serve` writes, and a claim stored after the
chain was read looks like "a claim of a command id that no recorded command has". So the block's reads
share one transaction: on SQLite one read transaction (WAL: the snapshot of its first read, while writers
go on), on PostgreSQL one REPEATABLE READ, READ ONLY transaction (the snapshot of its first query). The
library's datastore is given that one connection for the block's reads; a write asked for meanwhile (on
SQLite) takes a connection of its own. A store in memory is one process's: nothing to do.

Tables are created (the views', the tiles') before the block: a read-only transaction creates nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.application import Application


@contextmanager
def one_state(app: Application) -> Iterator[None]:
    module = str(app.env.get("PERSISTENCE_MODULE", ""))
    if module == "eventsourcing.sqlite":
        with _sqlite(app.recorder.datastore):  # type: ignore[attr-defined]
            yield
    elif module == "eventsourcing.postgres":
        with _postgres(app.recorder.datastore):  # type: ignore[attr-defined]
            yield
    else:
        yield


@contextmanager
def _sqlite(datastore: Any) -> Iterator[None]:
    reading = datastore.transaction
    with datastore.get_connection(commit=False) as connection:
        cursor = connection.cursor()
        cursor.execute("BEGIN")
        cursor.execute("SELECT count(*) FROM sqlite_master")  # the snapshot is taken at the first read

        @contextmanager
        def pinned(*, commit: bool) -> Iterator[Any]:
            if commit:
                with reading(commit=True) as own:
                    yield own
                return
            yield connection.cursor()

        datastore.transaction = pinned
        try:
            yield
        finally:
            del datastore.transaction
            connection.rollback()


@contextmanager
def _postgres(datastore: Any) -> Iterator[None]:
    with datastore.get_connection() as connection:
        connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        # A long check between two queries is not an idle session to be cut off.
        connection.execute("SET LOCAL idle_in_transaction_session_timeout = 0")

        @contextmanager
        def pinned() -> Iterator[Any]:
            yield connection

        datastore.get_connection = pinned
        try:
            yield
        finally:
            del datastore.get_connection
            connection.execute("ROLLBACK")
