"""The store's reads (`store/reads.py`) and the port's snapshot version, on every backend: each answers what
the library's recorder and mapper answer, which the layers above used to ask themselves.

Given a store holding the pirates and heroes example campaigns (claims, several aggregates a command),
every read is compared with the recorder's own rows and the mapper's decoding.
"""

from __future__ import annotations

from uuid import uuid4

import pytest

from rollbook.domain.ids import campaign_id
from rollbook.store.port import port_for
from rollbook.store.reads import (
    decoded,
    decoded_state,
    encoded,
    events_between,
    has_events,
    head,
    last_event,
    latest_first,
    logged,
    stored_events,
    stored_log,
    stored_notifications,
    stored_pages,
    stored_snapshots,
)
from rollbook.store.unit_of_work import APPLIED_TOPIC



@pytest.fixture
def store(examples_store):
    return examples_store


def fields(event):
    return vars(event)


def test_the_log_reads_as_the_recorder_selects_it(store):
    app = store.app
    everything = list(app.recorder.select_notifications(1, 100_000))
    assert head(app) == everything[-1].id
    assert [n.id for n in stored_log(app, 13)] == [n.id for n in everything]
    assert [n.id for n in stored_notifications(app, 5, 3)] == [n.id for n in everything[4:7]]

    read = list(logged(app, page=7))
    assert [(p, o, v) for p, o, v, _ in read] == [(n.id, n.originator_id, n.originator_version) for n in everything]
    assert [fields(e) for *_, e in read] == [fields(app.mapper.to_domain_event(n)) for n in everything]

    campaign = campaign_id("black-sails")
    applied = [n for n in everything if n.topic == APPLIED_TOPIC and n.originator_id == campaign]
    chosen = list(logged(app, start=3, stop=everything[-5].id, page=4, topics=(APPLIED_TOPIC,), originators={campaign}))
    assert [p for p, *_ in chosen] == [n.id for n in applied if 3 < n.id <= everything[-5].id]


def test_an_aggregates_events_read_as_the_recorder_selects_them(store):
    app = store.app
    campaign = campaign_id("black-sails")
    rows = list(app.recorder.select_events(campaign))
    assert len(rows) > 10
    assert [r for page in stored_pages(app, campaign, 4) for r in page] == rows
    assert list(stored_events(app, campaign, gt=2, lte=7, desc=True, limit=3)) == list(
        app.recorder.select_events(campaign, gt=2, lte=7, desc=True, limit=3))
    assert [e.originator_version for e in events_between(app, campaign, 3, 9)] == list(range(3, 10))
    assert fields(last_event(app, campaign)) == fields(app.mapper.to_domain_event(rows[-1]))
    assert has_events(app, campaign) and not has_events(app, uuid4()) and last_event(app, uuid4()) is None

    applied = [app.mapper.to_domain_event(r) for r in reversed(rows) if r.topic.endswith(".CommandApplied")]
    for page in (1, 4, None):
        assert [fields(e) for e in latest_first(app, campaign, ".CommandApplied", page)] == [fields(e) for e in applied]


def test_a_row_decodes_as_the_mapper_decodes_it(store):
    app = store.app
    for row in app.recorder.select_events(campaign_id("black-sails"), limit=20):
        event = decoded(app, row)
        assert fields(event) == fields(app.mapper.to_domain_event(row))
        assert encoded(app, event) == app.mapper.to_stored_event(event)
        state = decoded_state(app, row.state)
        assert {k: v for k, v in state.items() if hasattr(event, k)} == {
            k: getattr(event, k) for k in state if hasattr(event, k)}


def test_snapshots_read_as_the_snapshot_store_selects_them(store):
    app = store.app
    port = port_for(app)
    for key in ("black-sails", "null-hour"):
        campaign = campaign_id(key)
        kept = [] if app.snapshots is None else list(app.snapshots.recorder.select_events(campaign))
        assert list(stored_snapshots(app, campaign)) == kept
        last = app.recorder.select_events(campaign, desc=True, limit=1)
        for version in (1, 50, last[0].originator_version if last else 1):
            expected = max((s.originator_version for s in kept if s.originator_version <= version), default=None)
            assert port.snapshot_version(campaign, version) == expected
