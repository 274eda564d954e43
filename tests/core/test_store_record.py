"""`RollbookApplication.record` against the library's `Application.save`, on every backend.

`record` stores a command's events already transcoded (the same bytes feed the hash chain),
caches the aggregates as they left them and snapshots them from memory. The library's `save`
is the reference: for the same aggregates, both must store the same events (topic, version,
payload), snapshot at the same versions, and hand the next command the same state.
"""

from __future__ import annotations

import threading
import uuid

import pytest

from eventsourcing.domain import Aggregate, event

from rollbook.store import Store
from rollbook.store.app import SNAPSHOT_INTERVAL, RollbookApplication
from rollbook.store.own_connection import own_connection


class Tally(Aggregate):
    """A counter: enough to carry state across hundreds of events and a snapshot."""

    def __init__(self, name: str) -> None:
        self.name, self.total = name, 0

    @classmethod
    def create_id(cls, name: str) -> uuid.UUID:
        return uuid.uuid5(uuid.NAMESPACE_URL, f"tally/{name}")

    @event("Counted")
    def count(self, amount: int) -> None:
        self.total += amount


class LibrarySaving(RollbookApplication):
    """The reference: the library's own save, snapshotting Tally at the same interval."""

    snapshotting_intervals = {Tally: SNAPSHOT_INTERVAL}


def events_of(app: RollbookApplication, aggregate_id: uuid.UUID) -> list[tuple[str, int, dict]]:
    """Each stored event's topic, version and payload (its id, time and the tally's name aside)."""
    return [(e.topic, e.originator_version,
             {k: v for k, v in vars(app.mapper.to_domain_event(e)).items()
              if k not in ("originator_id", "timestamp", "name")})
            for e in app.recorder.select_events(aggregate_id)]


def snapshots_of(app: RollbookApplication, aggregate_id: uuid.UUID) -> list[tuple[int, int]]:
    """Each snapshot's version and the total it holds."""
    assert app.snapshots is not None
    return [(s.originator_version, s.state["total"]) for s in app.snapshots.get(aggregate_id)]


def test_record_stores_what_save_stores_and_leaves_the_same_state(rollbook_store):
    store = Store.open(rollbook_store)
    reference = LibrarySaving(env=dict(store.app.env))
    run = uuid.uuid4().hex[:8]  # a store shared across tests may hold tallies of an earlier run
    try:
        ours, theirs = Tally(f"ours-{run}"), Tally(f"theirs-{run}")
        # Commands of 1, 2, 3 … events: snapshots fall inside a command, not only at its end.
        amounts = iter(range(1, 10_000))
        while ours.version < SNAPSHOT_INTERVAL * 2 + 5:
            for amount in [next(amounts) for _ in range(ours.version % 4 + 1)]:
                ours.count(amount)
                theirs.count(amount)
            pending = ours.collect_events()
            store.app.record(pending, store.app.stored(pending), [ours])
            reference.save(theirs)

        stored, expected = events_of(store.app, ours.id), events_of(reference, theirs.id)
        assert len(stored) == len(expected) == ours.version
        assert stored == expected, "record stored other events than save"
        # save snapshots at the interval itself, reading the aggregate back; record snapshots the
        # aggregate in memory at the end of the command that crossed it. Either is a true state.
        ours_taken, theirs_taken = snapshots_of(store.app, ours.id), snapshots_of(reference, theirs.id)
        assert [v for v, _ in theirs_taken] == [SNAPSHOT_INTERVAL, SNAPSHOT_INTERVAL * 2]
        assert [v // SNAPSHOT_INTERVAL for v, _ in ours_taken] == [1, 2]
        assert [v - v % SNAPSHOT_INTERVAL for v, _ in ours_taken] == [v for v, _ in theirs_taken]
        for version, total in ours_taken:
            assert reference.repository.get(theirs.id, version=version).total == total

        cached, folded = store.app.repository.get(ours.id), reference.repository.get(theirs.id)
        assert (cached.total, cached.version) == (folded.total, folded.version) == (ours.total, ours.version)
        assert cached is ours, "the next command is handed the aggregate as its events left it, from the cache"
        fresh = Store.open(rollbook_store) if store.kind != "memory" else None
        if fresh is not None:  # read back from the store alone: its snapshot and the events after it
            again = fresh.app.repository.get(ours.id)
            assert (again.total, again.version) == (ours.total, ours.version)
            fresh.close()
    finally:
        reference.close()
        store.close()


def test_the_sqlite_command_recorder_writes_what_the_library_s_recorder_writes(tmp_path):
    """One `executemany` per command (store/sqlite_recorder.py) against the library's row-by-row
    insert: the same rows at the same positions, and a batch with a taken version refused whole."""
    from eventsourcing.persistence import IntegrityError, StoredEvent
    from eventsourcing.sqlite import SQLiteApplicationRecorder

    from rollbook.store.sqlite_recorder import SQLiteCommandRecorder

    def opened(name: str, recorder: type) -> RollbookApplication:
        return RollbookApplication(env={
            "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(tmp_path / f"{name}.db"),
            "APPLICATION_RECORDER_TOPIC": f"{recorder.__module__}:{recorder.__qualname__}",
        })

    ours, library = opened("ours", SQLiteCommandRecorder), opened("library", SQLiteApplicationRecorder)
    assert type(ours.recorder) is SQLiteCommandRecorder and type(library.recorder) is SQLiteApplicationRecorder
    default = Store.open(f"sqlite:///{tmp_path / 'default.db'}")
    assert type(default.app.recorder) is SQLiteCommandRecorder, "a SQLite store writes with it"
    default.close()
    a, b = uuid.uuid4(), uuid.uuid4()
    batches = [
        [StoredEvent(a, 1, "t:A", b"1")],
        [StoredEvent(a, 2, "t:A", b"2"), StoredEvent(b, 1, "t:B", b"3"), StoredEvent(a, 3, "t:A", b"4")],
        [],
        [StoredEvent(b, 2, "t:B", b"5"), StoredEvent(b, 3, "t:B", b"6")],
    ]
    try:
        for batch in batches:
            assert ours.recorder.insert_events(batch) == library.recorder.insert_events(batch)
        taken = [StoredEvent(a, 4, "t:A", b"7"), StoredEvent(b, 3, "t:B", b"taken")]
        for app in (ours, library):
            try:
                app.recorder.insert_events(taken)
            except IntegrityError:
                pass
            else:
                raise AssertionError("a taken version was stored")
        rows = [[(n.id, n.originator_id, n.originator_version, n.topic, n.state)
                 for n in app.recorder.select_notifications(1, 100)] for app in (ours, library)]
        assert rows[0] == rows[1] and len(rows[0]) == 6
        assert ours.recorder.insert_events([StoredEvent(a, 4, "t:A", b"7")]) == [7]
        # The writer's own connection: left open for another thread to commit, refused at once and whole, and a
        # refusal after another command's rows in the same transaction undoes only its own (the server's group commit).
        own = own_connection(ours.recorder)
        with pytest.raises(IntegrityError):
            own.insert([StoredEvent(b, 4, "t:B", b"8"), StoredEvent(a, 4, "t:A", b"taken")])
        assert own.insert([StoredEvent(b, 4, "t:B", b"8")]) == [8]
        assert ours.recorder.max_notification_id() == 7, "not seen before its commit"
        with pytest.raises(IntegrityError):
            own.insert([StoredEvent(a, 5, "t:A", b"9"), StoredEvent(b, 4, "t:B", b"taken")])
        committing = threading.Thread(target=own.commit)
        committing.start()
        committing.join()
        own.close()
        assert ours.recorder.max_notification_id() == 8
        assert [n.originator_version for n in ours.recorder.select_notifications(8, 10)] == [4]
        assert ours.recorder.insert_events([StoredEvent(b, 5, "t:B", b"9")]) == [9]
    finally:
        ours.close()
        library.close()
