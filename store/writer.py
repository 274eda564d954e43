"""A command's rows inserted and committed on a thread of its own, while the caller decides the next command.

A command's COMMIT on SQLite is mostly waiting for the disk (fsync), during which the sqlite3
module lets go of the interpreter lock. `rollbook run` of a file uses that wait: the caller hands
a command's rows to the writer (`write`) and decides the next command meanwhile (`Pipelined`,
`commands/transactions.py`). Each command is still its own transaction, committed in order, one at a
time, and told once committed.

The hand-over is timed on the interpreter lock. A thread woken while another computes waits for
the lock up to the switch interval (5 ms), far longer than a commit, and each wake-up costs tens
of microseconds; so the two threads meet once per command, while the caller waits. In that one
meeting the writer ends the last command's COMMIT, inserts this command's rows in a transaction
of their own (on its own connection, store/own_connection.py) and begins its COMMIT, letting go of
the lock: `write` returns with the rows in, or refused (a version or claim taken), at once, as
`insert_events` would refuse them. Rows decided on a COMMIT that failed, or on rows refused, are
not inserted (`write`'s `after`): their command is decided again.

The server's posts share COMMITs instead (`submit`, `store/grouped.py`): each hands its rows over
and waits for them to be committed, not inserted; every write handed over during one COMMIT is
inserted, each command's rows all or nothing, and committed with the others in the next one. A
post is answered once its write is `done` without a `failure`.

Not PostgreSQL: psycopg's own work after the server commits (in Python, needing the interpreter
lock) would wait for the next decision to end, so pipelining there slows a run instead.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Sequence

from eventsourcing.persistence import ApplicationRecorder, StoredEvent

from .own_connection import own_connection


class Signal:
    """Set once by one thread, waited for by others: a lock held until set. `threading.Event` does the
    same with a condition variable and a new lock for every wait, a cost paid twice per command here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()
        self.is_set = False

    def set(self) -> None:
        self.is_set = True
        self._lock.release()

    def wait(self) -> None:
        with self._lock:
            pass


class Write:
    """One command's rows: inserted and being committed on the writer's thread, or refused."""

    def __init__(self, stored: Sequence[StoredEvent], after: Write | None) -> None:
        self.stored, self.after = stored, after
        self.positions: Sequence[int] = ()
        #: The store's refusal of the rows (not inserted), as `insert_events` raises it.
        self.refused: BaseException | None = None
        self.error: BaseException | None = None
        #: Set once the rows are in and their COMMIT begun, or they were not inserted.
        self.begun = Signal()
        #: Set once the COMMIT is over, or the rows were not inserted.
        self.done = Signal()

    @property
    def failure(self) -> BaseException | None:
        """Why the rows are not stored: refused, not inserted, or their COMMIT failed; None once committed."""
        return self.error if self.error is not None else self.refused

    def result(self) -> None:
        """Returns once committed; raises the store's error (or refusal) if it was not."""
        self.done.wait()
        if self.failure is not None:
            raise self.failure


class Writer:
    """One thread inserting and committing commands' rows in the order given: one command a
    transaction as `write` hands them over, or as many as `submit` queued during the last COMMIT."""

    def __init__(self, recorder: ApplicationRecorder) -> None:
        self._connection = own_connection(recorder)
        self._writes: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="rollbook-writer", daemon=True)
        self._thread.start()

    def write(self, stored: Sequence[StoredEvent], after: Write | None = None) -> Write:
        """Insert `stored` once the write before is committed, and begin its COMMIT; returns once the
        rows are in (their COMMIT begun) or refused, and the write before is done. Not inserted
        if `after`, the write they were decided on, failed."""
        write = self.submit(stored, after)
        write.begun.wait()
        return write

    def submit(self, stored: Sequence[StoredEvent], after: Write | None = None) -> Write:
        """Hand `stored` over to be inserted and committed with whatever else is handed over before
        the COMMIT in hand ends; returns at once (`done` tells the rest). Not inserted if `after` failed."""
        write = Write(stored, after)
        self._writes.put(write)
        return write

    def close(self) -> None:
        """Stop the thread, after the writes handed over."""
        self._writes.put(None)
        self._thread.join()
        self._connection.close()

    def _work(self) -> None:
        working = True
        while working:
            writes = [self._writes.get()]
            with contextlib.suppress(queue.Empty):
                while writes[-1] is not None:
                    writes.append(self._writes.get_nowait())
            if writes[-1] is None:
                working = False
                writes.pop()
            inserted = [write for write in writes if self._insert(write)]
            if inserted:
                try:
                    self._connection.commit()
                except BaseException as error:  # noqa: BLE001 - handed to the callers, who decide again
                    for write in inserted:
                        write.error = error
            for write in writes:
                write.done.set()

    def _insert(self, write: Write) -> bool:
        """Insert the write's rows, its transaction left open; False if they were not (see `Write`)."""
        (after, write.after), (stored, write.stored) = (write.after, None), (write.stored, ())  # kept no longer
        try:
            if after is not None and after.failure is not None:
                write.error = after.failure  # decided on what is not stored: the caller decides it again
                return False
            try:
                write.positions = self._connection.insert(stored)
            except BaseException as refusal:  # noqa: BLE001 - handed to the caller, as insert_events raises it
                write.refused = refusal
                return False
            return True
        finally:
            write.begun.set()
