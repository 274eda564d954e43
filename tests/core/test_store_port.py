"""The store port's contract: on every backend, its fast path answers what the library's public API answers.

Given a store holding the pirates and heroes example campaigns (claims, snapshots, several
aggregates a command), the backend's fast port and the reference (`LibraryPort`) read the
same store and must agree: rows page by page, versions at positions and positions of
versions, and a stored event's fields.
"""

from __future__ import annotations

import gc
import weakref
from uuid import uuid4

import pytest
from eventsourcing.application import Application

from rollbook.projections.fields import FieldDecoder
from rollbook.projections.projector import SKIPPED_TOPICS
from rollbook.store import Store
from rollbook.store.port import LibraryPort, port_for



@pytest.fixture
def store(examples_store):
    return examples_store


def notifications(app: Application) -> list:
    return list(app.recorder.select_notifications(1, 100_000))


def test_the_fast_port_answers_as_the_library(store):
    assert type(port_for(store.app)) is not LibraryPort
    for limit in (1, 7, 250):
        rows_page_by_page(store, limit)
    position_of_every_version(store)
    version_at_positions(store)
    fields_from_stored_json(store)


def rows_page_by_page(store, limit):
    pages = {name: port.pages(SKIPPED_TOPICS) for name, port in
             (("fast", port_for(store.app)), ("reference", LibraryPort(store.app)))}
    start = 0
    while True:
        (rows, end), (expected, expected_end) = (pages[name].read(start, limit) for name in ("fast", "reference"))
        assert end == expected_end, f"a page from {start} reaches {end}, the library's {expected_end}"
        assert [(r[0], pages["fast"].originator_id(r[1]), *r[2:]) for r in rows] == [tuple(r) for r in expected]
        assert [pages["fast"].stored_event(r) for r in rows] == [pages["reference"].stored_event(r) for r in expected]
        if end == start:
            break
        start = end
    assert start == store.app.recorder.max_notification_id()


def position_of_every_version(store):
    fast, reference = port_for(store.app), LibraryPort(store.app)
    stored = notifications(store.app)
    for n in stored:
        assert fast.position_of(n.originator_id, n.originator_version) == n.id
    first = stored[0]
    assert reference.position_of(first.originator_id, first.originator_version) == first.id
    assert fast.position_of(first.originator_id, 10_000) is None
    assert reference.position_of(first.originator_id, 10_000) is None


def version_at_positions(store):
    fast, reference = port_for(store.app), LibraryPort(store.app)
    stored = notifications(store.app)
    # Every aggregate that is not a claim (one event each), at every 9th position and both ends.
    originators = {n.originator_id for n in stored if n.originator_version > 1}
    positions = [0, *range(1, stored[-1].id + 2, 9), stored[-1].id]
    assert len(originators) > 5
    for originator in originators:
        for position in positions:
            assert fast.version_at(originator, position) == reference.version_at(originator, position), (
                originator, position)


def fields_from_stored_json(store):
    fast, reference = FieldDecoder(port_for(store.app).timestamp_transcodings()), FieldDecoder(None)
    decoded_directly = 0
    for n in notifications(store.app):
        assert reference.decode(n.state) is None
        found = fast.decode(n.state)
        if found is None:
            continue
        decoded_directly += 1
        event = store.app.mapper.to_domain_event(n)
        fields, when = found
        expected = {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version")}
        assert fields == expected and when == event.timestamp.isoformat()
    assert decoded_directly > 100



def test_a_closed_store_is_not_kept_alive_by_its_port(rollbook_store: str):
    """The ports are cached per app; a cached port must not hold its app, or every store a process ever
    opened (its aggregate cache, its connection pool) would stay in memory until the process ends."""
    opened = Store.open(rollbook_store)
    assert port_for(opened.app).version_at(uuid4(), 1) is None
    app = weakref.ref(opened.app)
    opened.close()
    del opened
    gc.collect()
    assert app() is None
