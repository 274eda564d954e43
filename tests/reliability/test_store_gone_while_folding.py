"""A database that goes away while events are being folded is a store failure, said as one ("the store
failed: …", exit 1, a 503 over HTTP), never a damaged history ("cannot be folded: … `rollbook verify` says
where"): the events are read as they are folded, and the projections read their views meanwhile. CI
caught the projector calling a PostgreSQL stopped in the middle of a run a damaged store."""

import json

import pytest
from eventsourcing.persistence import OperationalError

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.errors import DamagedHistory
from rollbook.projections.queries import Reader
from rollbook.store import Store
from rollbook.store.app import _folding

from .test_damaged_store import HISTORY

GONE = "consuming input failed: server closed the connection unexpectedly"


def test_the_repositorys_fold_lets_a_failed_read_through_and_still_names_a_bad_event():
    def events():
        yield from ()
        raise OperationalError(GONE)

    with pytest.raises(OperationalError, match="server closed"):
        _folding("a1", lambda initial, events: [*events])(None, events())

    def broken(initial, events):
        raise ValueError("not an event of this aggregate")

    with pytest.raises(DamagedHistory, match="cannot be folded"):
        _folding("a1", broken)(None, iter(()))


def test_the_projector_lets_a_failed_read_of_its_views_through(rollbook_store, monkeypatch):
    store = Store.open(rollbook_store)
    try:
        report = run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in HISTORY).encode())
        assert report.error is None, report.error
        reader = Reader(store)

        def gone(*args, **kwargs):
            raise OperationalError(GONE)

        monkeypatch.setattr(reader.views, "get", gone)
        with pytest.raises(OperationalError, match="server closed"):
            reader.catch_up()
    finally:
        store.close()
