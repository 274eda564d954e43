"""One consistent state of a store that another process is writing: every read in the block sees the
store as it was at one moment (`verify` of a live server's store).

`verify` reads a campaign many times over (its chain, the whole store once, snapshots, projections);
read each in its own transaction while `rollbook run` or `serve` writes, and a claim stored after the
chain was read looks like "a claim of a command id that no recorded command has". So the block's reads
share one transaction: on SQLite one read transaction (WAL: the snapshot of its first read, while writers
go on), on PostgreSQL one REPEATABLE READ, READ ONLY transaction (the snapshot of its first query). The
library's datastore is given that one connection for the block's reads, in the block's thread only (a
server's other threads read and write as before); a write asked for meanwhile (on SQLite) takes a connection of
its own. A store in memory is one process's: nothing to do.

Tables are created (the views', the tiles') before the block: a read-only transaction creates nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


from .app import EventStore, application


#: One block at a time in a process: the datastore is given one block's connection (two verifies of a server wait).
_one_block = threading.Lock()


@contextmanager
def one_state(store: EventStore) -> Iterator[None]:
    app = application(store)
    module = str(app.env.get("PERSISTENCE_MODULE", ""))
    if module not in ("eventsourcing.sqlite", "eventsourcing.postgres"):
        yield
        return
    pinned = _sqlite if module == "eventsourcing.sqlite" else _postgres
    with _one_block, pinned(app.recorder.datastore):  # type: ignore[attr-defined]
        yield


@contextmanager
def _sqlite(datastore: Any) -> Iterator[None]:
    reading, reader = datastore.transaction, threading.get_ident()
    with datastore.get_connection(commit=False) as connection:
        cursor = connection.cursor()
        cursor.execute("BEGIN")
        cursor.execute("SELECT count(*) FROM sqlite_master")  # the snapshot is taken at the first read

        @contextmanager
        def pinned(*, commit: bool) -> Iterator[Any]:
            if commit or threading.get_ident() != reader:
                with reading(commit=commit) as own:
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
    connecting, reader = datastore.get_connection, threading.get_ident()
    with connecting() as connection:
        connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        # A long check between two queries is not an idle session to be cut off.
        connection.execute("SET LOCAL idle_in_transaction_session_timeout = 0")

        @contextmanager
        def pinned() -> Iterator[Any]:
            if threading.get_ident() != reader:
                with connecting() as own:
                    yield own
                return
            yield connection

        datastore.get_connection = pinned
        try:
            yield
        finally:
            del datastore.get_connection
            connection.execute("ROLLBACK")
