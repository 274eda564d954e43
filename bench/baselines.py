"""What Rollbook is compared with, measured on the same machine in the same run.

- `Shape`: how many events each command of a campaign stored, in which aggregates, and
  how big each one was, read back from a store Rollbook wrote. The baselines replay that
  shape, so they save the same number of events per save with similar payload sizes.
- `bare_saves`: a bare eventsourcing Application (no snapshots, default transcoder)
  saving the shape: one save per command, or `batch` commands per save.
- `raw_sqlite`: the same rows inserted with the `sqlite3` module, one transaction per
  command or all in one: the physical limit of the disk and of SQLite.
- `bare_read_decode`: reading every notification of a store and decoding it with the
  library's mapper: the floor of any projection rebuild.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

COMMAND_APPLIED = "CommandApplied"


@dataclass
class Shape:
    """Per command: (aggregate number, stored state bytes) of each event it stored, in order."""

    saves: list[list[tuple[int, int]]]
    topic_bytes: int

    @property
    def events(self) -> int:
        return sum(len(s) for s in self.saves)

    @property
    def mean_state_bytes(self) -> float:
        return sum(n for s in self.saves for _, n in s) / max(self.events, 1)

    @classmethod
    def of(cls, app: Application) -> Shape:
        """Read a Rollbook store back: each command's events end with its `CommandApplied`."""
        numbers: dict[UUID, int] = {}
        saves: list[list[tuple[int, int]]] = []
        current: list[tuple[int, int]] = []
        topic_bytes = count = 0
        position = 0
        while True:
            batch = app.recorder.select_notifications(position, 2000, inclusive_of_start=False)
            if not batch:
                break
            for n in batch:
                number = numbers.setdefault(n.originator_id, len(numbers))
                current.append((number, len(n.state)))
                topic_bytes += len(n.topic)
                count += 1
                if n.topic.endswith(COMMAND_APPLIED):
                    saves.append(current)
                    current = []
            position = batch[-1].id
        if current:
            saves.append(current)
        return cls(saves, topic_bytes // max(count, 1))


class Thing(Aggregate):
    """A generic aggregate whose events carry an opaque payload of a given size."""

    @event("Created")
    def __init__(self, data: str) -> None:
        pass

    @event("Happened")
    def happened(self, data: str) -> None:
        pass


class BareApplication(Application):
    name = "Bare"


class _Pads(dict[int, str]):
    """Payload strings by target stored size, less the library's own envelope of an event."""

    def __init__(self, app: Application) -> None:
        super().__init__()
        probe = Thing("")
        self.envelope = len(app.mapper.to_stored_event(probe.collect_events()[0]).state)

    def __missing__(self, size: int) -> str:
        pad = self[size] = "x" * max(size - self.envelope, 0)
        return pad


def bare_saves(env: dict[str, str], shape: Shape, *, batch: int = 1) -> float:
    """Seconds for a bare Application to save the shape's events, `batch` commands per save."""
    app = BareApplication(env=env)
    try:
        pads = _Pads(app)
        things: dict[int, Thing] = {}
        pending: dict[int, Thing] = {}
        started = time.perf_counter()
        for index, save in enumerate(shape.saves, start=1):
            for number, size in save:
                thing = things.get(number)
                if thing is None:
                    thing = things[number] = Thing(pads[size])
                else:
                    thing.happened(pads[size])
                pending[number] = thing
            if index % batch == 0:
                app.save(*pending.values())
                pending = {}
        if pending:
            app.save(*pending.values())
        return time.perf_counter() - started
    finally:
        app.close()


def raw_sqlite(path: Path, shape: Shape, *, per_command: bool) -> float:
    """Seconds to insert the shape's rows with `sqlite3` (WAL, default synchronous, like the library)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute(
            "CREATE TABLE stored_events (originator_id TEXT, originator_version INTEGER, topic TEXT, "
            "state BLOB, PRIMARY KEY (originator_id, originator_version))"
        )
        ids = {}
        versions: dict[int, int] = {}
        topic = "x" * shape.topic_bytes
        blobs: dict[int, bytes] = {}
        rows_per_save: list[list[tuple[Any, ...]]] = []
        for save in shape.saves:
            rows = []
            for number, size in save:
                versions[number] = versions.get(number, 0) + 1
                originator = ids.setdefault(number, UUID(int=number + 1).hex)
                blob = blobs.get(size) or blobs.setdefault(size, b"x" * size)
                rows.append((originator, versions[number], topic, blob))
            rows_per_save.append(rows)
        statement = "INSERT INTO stored_events VALUES (?, ?, ?, ?)"
        started = time.perf_counter()
        if per_command:
            for rows in rows_per_save:
                connection.execute("BEGIN")
                connection.executemany(statement, rows)
                connection.execute("COMMIT")
        else:
            connection.execute("BEGIN")
            for rows in rows_per_save:
                connection.executemany(statement, rows)
            connection.execute("COMMIT")
        return time.perf_counter() - started
    finally:
        connection.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def bare_read_decode(app: Application, *, batch_size: int = 1000) -> tuple[float, int]:
    """Seconds to read and decode every notification of `app`'s store; and how many there were."""
    started = time.perf_counter()
    count = position = 0
    to_domain_event = app.mapper.to_domain_event
    while True:
        notifications = app.recorder.select_notifications(position, batch_size, inclusive_of_start=False)
        if not notifications:
            break
        for notification in notifications:
            to_domain_event(notification)
        count += len(notifications)
        position = notifications[-1].id
    return time.perf_counter() - started, count
