"""A command's COMMIT written on a thread of its own, while the caller decides the next command.

A command's COMMIT on SQLite is mostly waiting for the disk (fsync), during which the sqlite3
module lets go of the interpreter lock. `rollbook run` of a file uses that wait: the caller
inserts a command's rows (`SQLiteCommandRecorder.insert_uncommitted`, so a refusal is its own,
at once), hands the COMMIT to the writer, and decides the next command meanwhile (`Pipelined`,
`commands/runner.py`). Each command is still its own transaction, committed in order, one at a
time (the next one's rows wait for the store's write lock), and told once committed.

The hand-over is timed on the interpreter lock. A thread woken while another computes waits for
the lock up to the switch interval (5 ms), far longer than a commit; so `commit` returns only once
the writer is about to COMMIT (it lets go of the lock there), and the writer finishes once the
caller waits for it (`Write.result`). Each side waits only while the other holds the lock.

Not PostgreSQL: psycopg's own work after the server commits (in Python, needing the interpreter
lock) waits for the next decision to end, and a run measured slower pipelined than not.
"""

from __future__ import annotations

import queue
import threading

from .sqlite_recorder import Uncommitted


class Write:
    """One command's COMMIT, begun on the writer's thread."""

    def __init__(self, uncommitted: Uncommitted) -> None:
        self.uncommitted = uncommitted
        self.error: BaseException | None = None
        self.committing = threading.Event()
        self.done = threading.Event()

    def result(self) -> None:
        """Returns once committed; raises the store's error if it was not."""
        self.done.wait()
        if self.error is not None:
            raise self.error


class Writer:
    """One thread committing one command at a time."""

    def __init__(self) -> None:
        self._writes: queue.SimpleQueue[Write | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._work, name="rollbook-writer", daemon=True)
        self._thread.start()

    def commit(self, uncommitted: Uncommitted) -> Write:
        """Begin committing `uncommitted`; returns once the writer is at its COMMIT."""
        write = Write(uncommitted)
        self._writes.put(write)
        write.committing.wait()
        return write

    def close(self) -> None:
        """Stop the thread, after the commit in hand."""
        self._writes.put(None)
        self._thread.join()

    def _work(self) -> None:
        while (write := self._writes.get()) is not None:
            write.committing.set()
            try:
                write.uncommitted.commit()
            except BaseException as error:  # noqa: BLE001 - handed to the caller, who decides again
                write.error = error
            finally:
                write.done.set()
