"""Catching the projections up with the events: sheets, timeline, limits, roll log, commands.

The projector pulls notifications after its tracked position in batches (SQLite has no
subscriptions; on PostgreSQL the same pull is simply what catching up means), and writes
what changed — one document per sheet, roll, timeline entry or command — together with
the new position in one transaction.

Sheets are each aggregate's own `sheet()` as the batch leaves it, so a projected sheet is
by construction the aggregate's state; the roll log and the timeline are built from the
campaign's generic events. Rebuilding is clearing and catching up from position 0, in
larger batches.

How a batch is read is shaped by what it costs (a rebuild must stay within a small factor
of merely reading and decoding the events):

- First the batch is scanned without decoding anything: which aggregates it touches,
  from which version to which, at which last position.
- Each touched aggregate is then brought to its last version in the batch the cheaper
  way: held in memory from the previous batch and folded forward event by event, or
  read from the store at that version (its latest snapshot and the few events since).
  A campaign stores about half of all events and is snapshotted every 200 versions, so
  in a big batch reading it is far cheaper than folding thousands of its events; a
  character with a handful of events in the batch is folded.
- Campaign events feed the roll log, the timeline and the command log (`campaign_logs.py`). Those of a
  campaign that was read rather than folded are decoded only if the logs show them,
  and then straight to their fields (`fields.py`), without building event objects.
- Sheets, the campaign document and the limits ledger are rendered once per aggregate
  per batch, with the position of the aggregate's last event in it.

Only the aggregates themselves are held between batches (the HELD_AGGREGATES most recently
touched), never the events, so memory stays flat however long the history is.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..domain.errors import DamagedHistory
from ..store import FOLD_FAILURES, EventStore, why_unfolded
from ..store.failures import is_store_failure
from ..store.port import Row, port_for
from ..store.reads import aggregate as aggregate_of
from ..store.views import Document, TrackingConflict, ViewStore
from .campaign_logs import CAMPAIGN_LOGS, Current, Put, timeline_key
from .fields import FieldDecoder

BATCH_SIZE = 1000
#: A rebuild reads this many notifications per batch: fewer transactions, and each sheet
#: rendered and written once per batch however many events its aggregate had in it.
REBUILD_BATCH_SIZE = 20_000
#: `get_topic(CommandClaim.Recorded)`, written out so that importing the projector imports no aggregate.
SKIPPED_TOPICS = {"rollbook.domain.members:CommandClaim.Recorded"}
#: What reading an aggregate from the store costs beyond folding its events (two queries
#: and a snapshot to decode), in events folded. Up to this many events in a batch, an
#: aggregate held in memory is folded without asking whether a snapshot is closer.
READ_COST_IN_EVENTS = 20
#: Aggregates held between batches, the most recently used. Each scene of a long campaign is
#: one more aggregate, so holding all of them grew with the history; one not held is read from
#: the store (its snapshot and the events since) if a later batch touches it again.
HELD_AGGREGATES = 4096
#: In a batch's plan: this aggregate's events are folded into the one held in memory.
FOLD = object()
MISSING = object()

@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while rebuilding. A batch keeps thousands of decoded
    events and documents alive at once; the collector would walk them over and over (a
    sixth of a rebuild's time) and find nothing: they hold no cycles and are freed by
    reference counting as each batch is written, so memory stays flat without it."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _aggregate_classes() -> tuple[type, type, type]:
    """Campaign, Member and Scene, imported once there are events to project: a reader whose views are
    caught up (a current `rollbook sheet`) imports no aggregate, so none of their event classes."""
    from ..domain.campaign import Campaign
    from ..domain.members import Member, Scene

    return Campaign, Member, Scene


def _fold(aggregate: Any, events: Iterable[Any]) -> Any:
    """The library's `project_aggregate` without its check that each event is a
    `CanMutateProtocol`: an isinstance against a runtime protocol, which cost more
    than the fold itself."""
    for event in events:
        aggregate = event.mutate(aggregate)
    return aggregate


class Projector:
    def __init__(self, store: EventStore, views: ViewStore, *, batch_size: int = BATCH_SIZE) -> None:
        self.store = store
        self.views = views
        self.batch_size = batch_size
        #: Aggregate (its key in the rows read) -> the aggregate as the last batch left it.
        self.folded: dict[Any, Any] = {}
        self.port = port_for(store)
        self.pages = self.port.pages(SKIPPED_TOPICS)
        self.fields = FieldDecoder(self.port.timestamp_transcodings())
        self._logger_of: dict[str, Any] = {}  # stored topic -> its logger, or None
        #: What could not be shown, naming the aggregate (the reader says so; the rest is shown).
        self.failures: list[str] = []

    def catch_up(self, *, batch_size: int | None = None, progress: Callable[[int], None] | None = None) -> int:
        """Process every event stored so far; returns the position reached. `progress` is shown
        the position reached after each batch (a progress bar)."""
        limit = batch_size or self.batch_size
        while True:
            start = self.views.position()
            rows, end = self.pages.read(start, limit)
            if end == start:
                return start
            documents = self._project(rows)
            try:
                self.views.write(start, end, documents)
            except TrackingConflict:
                continue
            if progress is not None:
                progress(end)

    def catch_up_to(self, position: int) -> int:
        """Process every event up to `position` and none after it: the views as they were there (what
        `verify` compares the stored ones with, when those have read only so far)."""
        while (start := self.views.position()) < position:
            rows, end = self.pages.read(start, min(self.batch_size, position - start))
            if end == start:
                break
            self.views.write(start, min(end, position), self._project([row for row in rows if row[0] <= position]))
        return self.views.position()

    def project(self, start: int, notifications: list[Any]) -> int:
        """Project notifications that directly follow position `start` (as a subscription hands
        them over); the new position. `TrackingConflict` if the views are no longer at `start`."""
        self.views.write(start, notifications[-1].id, self._project(self.pages.rows(notifications)))
        return int(notifications[-1].id)

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        self.views.clear()
        self.folded.clear()
        with collector_paused():
            return self.catch_up(batch_size=max(self.batch_size, REBUILD_BATCH_SIZE), progress=progress)

    # --- one batch ----------------------------------------------------------------------

    def _project(self, rows: list[Row]) -> list[Document]:
        documents: dict[tuple[str, str, str], Document] = {}

        def put(campaign: str, kind: str, key: str, position: int, doc: dict[str, Any]) -> None:
            documents[(campaign, kind, key)] = (campaign, kind, key, position, doc)

        def current(campaign: str, kind: str, key: str) -> dict[str, Any] | None:
            found = documents.get((campaign, kind, key))
            return found[4] if found else self.views.get(campaign, kind, key)

        Campaign, _, _ = _aggregate_classes()
        spans = self._spans(rows)
        plan = self._bring_up_to_date(spans)
        to_domain_event = self.pages.to_domain_event
        stored_event = self.pages.stored_event
        folded = self.folded
        loggers = CAMPAIGN_LOGS
        logger_of = self._logger_of
        decode = self.fields.decode
        row = None
        try:
            for row in rows:
                role = plan.get(row[1])
                if role is None:  # an aggregate read whole whose events show nowhere
                    continue
                if role is FOLD:
                    event = to_domain_event(stored_event(row))
                    aggregate = folded[row[1]] = event.mutate(folded.get(row[1]))
                    if isinstance(aggregate, Campaign):
                        logger = loggers.get(type(event).__name__)
                        if logger is not None:
                            logger(aggregate, vars(event), event.timestamp.isoformat(), row[0], put, current)
                else:  # a campaign read whole: only what its logs show is decoded
                    topic = row[3]
                    logger = logger_of.get(topic, MISSING)
                    if logger is MISSING:
                        logger = logger_of[topic] = loggers.get(self.fields.name(topic))
                    if logger is not None:
                        decoded = decode(row[4])
                        if decoded is None:
                            event = to_domain_event(stored_event(row))
                            decoded = vars(event), event.timestamp.isoformat()
                        logger(role, *decoded, row[0], put, current)
        except FOLD_FAILURES as error:  # the store was damaged or edited: said in one line, naming where
            if is_store_failure(error):
                raise  # the views are read while folding: a database gone away is not a damaged history
            assert row is not None
            raise DamagedHistory("the event at position {position} ({topic}, v{version} of aggregate {aggregate}) "
                                 "cannot be folded: {why}", position=row[0], topic=row[3].rsplit(":", 1)[-1],
                                 version=row[2], aggregate=row[1], why=why_unfolded(error)) from None

        for originator, span in spans.items():
            aggregate = folded[originator] = folded.pop(originator)  # the most recently used last
            try:
                self._render(aggregate, span[2], put, current)
            except Exception as error:  # noqa: BLE001  one aggregate's fault must not hide every other sheet
                failure = f"{_named(aggregate)} could not be shown: {type(error).__name__}: {error}"
                self.failures.append(failure)
        while len(folded) > HELD_AGGREGATES:  # the least recently used: read from the store if ever needed again
            del folded[next(iter(folded))]
        return list(documents.values())

    @staticmethod
    def _spans(rows: list[Row]) -> dict[Any, list[int]]:
        """What the batch does to each aggregate: [first version, last version, last position]."""
        spans: dict[Any, list[int]] = {}
        for position, originator, version, _, _ in rows:
            span = spans.get(originator)
            if span is None:
                spans[originator] = [version, version, position]
            else:
                span[1] = version
                span[2] = position
        return spans

    def _bring_up_to_date(self, spans: dict[Any, list[int]]) -> dict[Any, Any]:
        """Read from the store, at its last version in the batch, each aggregate that is cheaper
        to read than to fold. What to do with each one's events: FOLD them, show them in the
        logs of the campaign read, or nothing (left out)."""
        Campaign, _, _ = _aggregate_classes()
        plan: dict[Any, Any] = {}
        for originator, (first, last, _) in spans.items():
            held = self.folded.get(originator)
            held_version = 0 if held is None else held.version
            foldable = held_version == first - 1 and (held is not None or first == 1)
            if foldable and (last - held_version <= READ_COST_IN_EVENTS or not self._read_is_cheaper(
                originator, held_version, last
            )):
                plan[originator] = FOLD
            else:
                aggregate = self.folded[originator] = aggregate_of(
                    self.store, self.pages.originator_id(originator), last, fold=_fold
                )
                if isinstance(aggregate, Campaign):
                    plan[originator] = aggregate
        return plan

    def _read_is_cheaper(self, originator: Any, held_version: int, last: int) -> bool:
        snapshot = self.port.snapshot_version(self.pages.originator_id(originator), last)
        if snapshot is None or snapshot <= held_version:
            return False
        return last - snapshot + READ_COST_IN_EVENTS < last - held_version

    @staticmethod
    def _render(aggregate: Any, position: int, put: Put, current: Current) -> None:
        """The documents showing an aggregate's state, stamped with its last position."""
        Campaign, Member, Scene = _aggregate_classes()
        if isinstance(aggregate, Member):
            put(aggregate.campaign, "sheet", aggregate.name, position,
                {"kind": aggregate.kind, "sheet": aggregate.sheet()})
        elif isinstance(aggregate, Campaign):
            put(aggregate.campaign, "campaign", "", position, aggregate.sheet())
            put(aggregate.campaign, "limits", "", position, {"ledger": aggregate.ledger()})
        elif isinstance(aggregate, Scene):
            key = timeline_key("scene", aggregate.number)
            entry = current(aggregate.campaign, "timeline", key)
            if entry is not None:
                put(aggregate.campaign, "timeline", key, entry["start"], {**entry, "enemy": aggregate.enemy})


def _named(aggregate: Any) -> str:
    """An aggregate as a reader names it: `character 'Bo' of black-sails`, `campaign black-sails`."""
    _, Member, Scene = _aggregate_classes()
    if isinstance(aggregate, Member):
        return f"{aggregate.kind} {aggregate.name!r} of {aggregate.campaign}"
    if isinstance(aggregate, Scene):
        return f"scene {aggregate.number} of {aggregate.campaign}"
    return f"campaign {getattr(aggregate, 'campaign', aggregate.id)}"
