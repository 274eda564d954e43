"""A campaign's commands as the server decides them: their rows committed together with other posts'.

A post decides under its campaign's lock on the campaign as the posts before it left it (in the
cache), hands its rows to the store's one writer (`Writer.submit`) and lets the lock go; the
writer inserts every write handed over during one COMMIT and commits them in the next, so the
posts that arrive while the disk writes share its next write instead of waiting for one each.
A post is answered once its write is committed.

What is decided on a write not yet committed is decided again if that write fails: each write
names the campaign's write before it (`after`), and the writer inserts nothing decided on a
write that was refused or whose COMMIT failed. The campaign's aggregates as the writes in flight
left them are held here (the cache may have let one go, an ended scene) until the last of them
is settled; one that failed makes them forgotten, and the campaign is read again from the store.

On PostgreSQL the same: there every transaction that stores events holds the events table's lock
(the library's, so that positions follow the commit order) through its COMMIT, whatever its campaign;
a COMMIT shared by the posts of a moment takes that lock once for all of them. Not in memory: there a
post stores itself at once.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import StoredEvent

from .app import EventStore, application
from .own_connection import writes
from .unit_of_work import Overtaken, PipelinedUnit, StoreUnit
from .writer import Writer


class GroupedUnit(PipelinedUnit):
    """One campaign's commands, their rows committed with other commands' by the shared writer.

    Used only under the campaign's lock. `keep` hands the rows over and returns at once: no
    position yet (`take_write` gives the write, whose `positions` are known once it is `done`).
    A command that makes an aggregate due for a snapshot waits for the campaign's writes in
    flight and is stored at once, as by `StoreUnit`: the snapshot follows its own command's commit.
    """

    @staticmethod
    def serves(store: EventStore) -> bool:
        """A store the writer keeps a connection to (SQLite, PostgreSQL)."""
        return writes(application(store).recorder)

    @staticmethod
    def writer_for(store: EventStore) -> Writer | None:
        """The one writer the campaigns' grouped posts share, where the store is one it serves (else None)."""
        recorder = application(store).recorder
        return Writer(recorder) if writes(recorder) else None

    def load(self, aggregate_id: UUID) -> Aggregate | None:
        if self._in_flight is not None and self._in_flight[0].done.is_set:
            # Committed: read as usual. Failed: forgotten, and `Overtaken` raised, never swallowed: the command
            # being decided may have read an aggregate as that write left it a moment ago (the campaign, its
            # chain and its seq), and a write decided on it would be stored after nothing (a gap in the chain).
            self.settle()
        return super().load(aggregate_id)

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Aggregate]) -> int | None:
        if self.app.snapshot_due(events):
            self.settle()
            return StoreUnit.keep(self, events, stored, aggregates)
        before, in_flight = self._in_flight or (None, {})
        write = self.writer.submit(stored, after=before)
        changed = {a.id: a for a in aggregates}
        self._in_flight, self._submitted = (write, {**in_flight, **changed}), write
        for aggregate in changed.values():
            aggregate.collect_events()
        self.app.remember(changed.values())
        return None

    def settled(self) -> None:
        """Wait for the campaign's writes in flight; what a failed one decided on is forgotten."""
        with contextlib.suppress(Overtaken):
            self.settle()
