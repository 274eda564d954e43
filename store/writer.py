"""A command's rows committed on a thread of their own, while the caller decides the next command.

A command's COMMIT on SQLite is mostly waiting for the disk (fsync), during which the sqlite3
module lets go of the interpreter lock. `rollbook run` of a file uses that wait: its next command
is decided while the last one's commit is written (`Pipelined`, `commands/runner.py`). Each
command is still its own transaction, committed in order, one at a time, and told once stored.

The hand-over is timed on the interpreter lock. A thread woken while another computes waits for
the lock up to the switch interval (5 ms), far longer than a commit; so the caller waits for the
writer (`submit` returns) until the rows are inserted and COMMIT begins, and the writer waits for
the caller (`Write.result`) to finish deciding. Each side waits only while the other holds the
lock, so neither is kept from running by the other.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence

from eventsourcing.persistence import StoredEvent


class CommitsInBackground:
    """A recorder whose `insert_events(stored, committing=…)` calls `committing()` once the rows are
    in, just before COMMIT (`store/sqlite_recorder.py`).

    Not PostgreSQL's: psycopg's own work after the server commits (in Python, needing the interpreter
    lock) waits for the next decision to end, and a run measured slower pipelined than not."""


class Write:
    """One command's rows on their way into the store."""

    def __init__(self, stored: Sequence[StoredEvent]) -> None:
        self.stored = stored
        self.positions: Sequence[int] | None = None
        self.error: BaseException | None = None
        self.committing = threading.Event()
        self.done = threading.Event()

    def result(self) -> Sequence[int]:
        """Their positions once committed; the store's error if they were not."""
        self.done.wait()
        if self.error is not None:
            raise self.error
        return self.positions or []


class Writer:
    """One thread writing one command's rows at a time."""

    def __init__(self, recorder: CommitsInBackground) -> None:
        self.recorder = recorder
        self._writes: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="rollbook-writer", daemon=True)
        self._thread.start()

    def submit(self, stored: Sequence[StoredEvent]) -> Write:
        """Start writing `stored`; returns once its rows are in and its COMMIT begins (or it failed)."""
        write = Write(stored)
        self._writes.put(write)
        write.committing.wait()
        return write

    def close(self) -> None:
        """Stop the thread, after the write in hand."""
        self._writes.put(None)
        self._thread.join()

    def _work(self) -> None:
        while (write := self._writes.get()) is not None:
            try:
                write.positions = self.recorder.insert_events(  # type: ignore[attr-defined]
                    write.stored, committing=write.committing.set,
                )
            except BaseException as error:  # noqa: BLE001 - handed to the caller, who decides again
                write.error = error
            finally:
                write.committing.set()
                write.done.set()
