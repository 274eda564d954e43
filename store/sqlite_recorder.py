"""The SQLite recorder a Rollbook store writes with: a command's events in one `executemany`.

The library's `SQLiteApplicationRecorder` inserts a transaction's events one `execute` at a time,
to read each row's position from `lastrowid`, which makes the four to six events of a command
cost well over raw `sqlite3` for the same rows. Here they go in with one
`executemany`, and their positions are read once: in one write transaction, with no row given
a rowid of its own and no AUTOINCREMENT, SQLite numbers new rows one past the largest rowid, so
a batch's rows take consecutive positions ending at `last_insert_rowid()`.

The writer (`store/writer.py`) inserts with `_insert_events` on a connection of its own
(`store/own_connection.py`).

Chosen by the library's own setting (`APPLICATION_RECORDER_TOPIC`, see `store.environment_for`);
reading is the library's, unchanged. `tests/core/test_store_record.py` holds it to the library's
recorder: the same rows, positions and refusals.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor


class SQLiteCommandRecorder(SQLiteApplicationRecorder):
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
