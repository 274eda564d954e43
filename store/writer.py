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
of their own (`SQLiteCommandRecorder.insert_uncommitted`) and begins its COMMIT, letting go of
the lock: `write` returns with the rows in, or refused (a version or claim taken), at once, as
`insert_events` would refuse them. Rows decided on a COMMIT that failed are not inserted
(`write`'s `after`): their command is decided again.

Not PostgreSQL: psycopg's own work after the server commits (in Python, needing the interpreter
lock) would wait for the next decision to end, so pipelining there slows a run instead.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence

from eventsourcing.persistence import StoredEvent

from .sqlite_recorder import SQLiteCommandRecorder, Uncommitted


class Signal:
    """Set once by one thread, waited for by others: a lock held until set. `threading.Event` does the
    same with a condition variable and a new lock for every wait, a cost paid twice per command here."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lock.acquire()

    def set(self) -> None:
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

    def result(self) -> None:
        """Returns once committed; raises the store's error if it was not."""
        self.done.wait()
        if self.error is not None:
            raise self.error


class Writer:
    """One thread inserting and committing one command at a time, in the order given."""

    def __init__(self, recorder: SQLiteCommandRecorder) -> None:
        self._recorder = recorder
        self._writes: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="rollbook-writer", daemon=True)
        self._thread.start()

    def write(self, stored: Sequence[StoredEvent], after: Write | None = None) -> Write:
        """Insert `stored` once the write before is committed, and begin its COMMIT; returns once the
        rows are in (their COMMIT begun) or refused, and the write before is done. Not inserted
        if `after`, the write they were decided on, failed to commit."""
        write = Write(stored, after)
        self._writes.put(write)
        write.begun.wait()
        return write

    def close(self) -> None:
        """Stop the thread, after the commit in hand."""
        self._writes.put(None)
        self._thread.join()

    def _work(self) -> None:
        while (write := self._writes.get()) is not None:
            uncommitted = self._insert(write)
            write.begun.set()
            if uncommitted is not None:
                try:
                    uncommitted.commit()
                except BaseException as error:  # noqa: BLE001 - handed to the caller, who decides again
                    write.error = error
            write.done.set()

    def _insert(self, write: Write) -> Uncommitted | None:
        """The write's rows inserted, their transaction left open; None if they were not (see `Write`)."""
        (after, write.after), (stored, write.stored) = (write.after, None), (write.stored, ())  # kept no longer
        if after is not None and after.error is not None:
            return None  # decided on what a failed COMMIT left: the caller decides it again
        try:
            uncommitted = self._recorder.insert_uncommitted(stored)
        except BaseException as refusal:  # noqa: BLE001 - handed to the caller, as insert_events raises it
            write.refused = refusal
            return None
        write.positions = uncommitted.positions
        return uncommitted
