"""`rollbook follow`: keep the projections caught up as commands are stored, until stopped.

One-shot verbs catch the projections up themselves (a pull in batches). A server that many
game masters and auditors read from runs one follower instead, so reads find the sheets
already current:

- on PostgreSQL it follows the library's subscription (`store/reads.py`'s `subscription_after`,
  LISTEN/NOTIFY): woken by each commit, it projects what arrived in one batch, written
  with its tracking position in one transaction;
- on SQLite, which has no subscriptions, it pulls every `interval` seconds.

If another process moved the projections on meanwhile (a one-shot verb catching up), the
follower catches up from there and subscribes again. If the store goes away, it says so,
waits and carries on from where the projections are once the store is back.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

from ..store import Store
from ..store.failures import describe, is_store_failure
from ..store.logs import Log
from ..store.reads import subscription_after
from ..store.views import TrackingConflict
from .queries import Reader

log = Log("rollbook")

#: Most events projected in one transaction when a burst arrives at once.
BATCH = 1000
#: Longest wait between attempts while the store is unreachable.
MAX_BACKOFF = 10.0


class Follower:
    def __init__(self, store: Store, *, interval: float = 1.0, on_batch: Callable[[int], None] | None = None) -> None:
        if store.kind == "memory":
            raise ValueError("memory:// lives inside one process: there is nothing to follow from another")
        self.store = store
        self.interval = interval
        self.on_batch = on_batch
        self.stopping = threading.Event()
        self.subscribed = store.kind != "sqlite"

    def stop(self) -> None:
        self.stopping.set()

    def run(self) -> int:
        """Follow until `stop()`; returns the last position projected."""
        log.info("follow.started", store=self.store.url, mode="subscription" if self.subscribed else "polling")
        backoff, position = 1.0, 0
        while not self.stopping.is_set():
            try:
                reader = Reader(self.store)
                position = self._caught_up(reader)
                position = self._subscribe(reader, position) if self.subscribed else self._poll(reader, position)
                backoff = 1.0
            except Exception as error:
                if not is_store_failure(error):
                    raise
                log.error("follow.store_failed", reason=describe(error), retry_in=backoff)
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, MAX_BACKOFF)
        position = self._standing(position)
        log.info("follow.stopped", position=position)
        return position

    def _standing(self, position: int) -> int:
        """Where the projections stand as it stops: its own position, or further if a one-shot verb caught them
        up after its last look (it does no more work once told to stop); a store gone away leaves its own."""
        try:
            return max(position, Reader(self.store).views.position())
        except Exception as error:
            if not is_store_failure(error):
                raise
            return position

    def _caught_up(self, reader: Reader) -> int:
        before = reader.views.position()
        position = reader.catch_up()
        if position != before:
            self._projected(before, position, "pull")
        return position

    def _poll(self, reader: Reader, position: int) -> int:
        while not self.stopping.wait(self.interval):
            position = self._caught_up(reader)
        return position

    def _subscribe(self, reader: Reader, position: int) -> int:
        """Project from the subscription until stopped; on a tracking conflict, return to catch up."""
        arrived: queue.Queue[Any] = queue.Queue()
        with subscription_after(self.store, position) as subscription:

            def pump() -> None:  # the subscription blocks between commits: read it in a thread
                try:
                    for notification in subscription:
                        arrived.put(notification)
                except BaseException as error:  # the store went away: hand it to the follower
                    arrived.put(error)

            pumping = threading.Thread(target=pump, name="rollbook-follow", daemon=True)
            pumping.start()
            try:
                while not self.stopping.is_set():
                    try:
                        batch = [arrived.get(timeout=0.2)]
                    except queue.Empty:
                        continue
                    while len(batch) < BATCH and not arrived.empty():
                        batch.append(arrived.get_nowait())
                    failures = [item for item in batch if isinstance(item, BaseException)]
                    if failures:
                        raise failures[0]
                    batch = [n for n in batch if n.id > position]  # a one-shot verb projected the rest
                    if not batch:
                        continue
                    try:
                        position = reader.projector.project(position, batch)
                    except TrackingConflict:
                        return position  # someone else moved on: catch up, then subscribe again
                    self._projected(batch[0].id - 1, position, "subscription")
            finally:
                subscription.stop()
        return position

    def _projected(self, start: int, end: int, how: str) -> None:
        log.info("follow.projected", start=start, end=end, by=how, at=time.time())
        if self.on_batch is not None:
            self.on_batch(end)
