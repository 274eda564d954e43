"""The store port: what Rollbook asks of the event store beyond the library's public API.

Three questions, each answered by `LibraryPort` (`store/reference.py`) with the public API
of eventsourcing alone, and faster by each backend's port (`store/fast.py`), which may read
the library's tables and structures. `tests/core/test_store_port.py` runs both on every
backend and compares: an upgrade of the library breaks the fast ports and that test,
nowhere else.

- rows by position: the notification log read page by page, as `(position, originator,
  version, topic, state)` rows, some topics left out (the projections' reading);
- version ↔ position: which version of an aggregate existed at a position, and where a
  version stands (time travel, `rollbook log`, a repeated command's record);
- stored JSON as fields: the transcodings that decode a plain-JSON event's timestamp alone,
  when the library's transcoder would give the very same values (the projections' logs).

The fourth part, a command's events written as one batch, is `RollbookApplication.record`
(`store/app.py`).
"""

from __future__ import annotations

from uuid import UUID
from weakref import WeakKeyDictionary, proxy

from eventsourcing.application import Application

from .app import EventStore, application
from .fast import fast_port
from .reference import LibraryPort, Pages, Row

__all__ = ["LibraryPort", "Pages", "Row", "port_for", "position_of", "version_at"]

_ports: WeakKeyDictionary[Application, LibraryPort] = WeakKeyDictionary()


def port_for(store: EventStore) -> LibraryPort:
    """The fastest port for the app's backend (one per app, made on first use).

    The port holds the app by a weak proxy: a value of a `WeakKeyDictionary` that refers to its own
    key keeps it alive for ever, so every store ever opened (its cache, its connections) would stay.
    """
    app = application(store)
    port = _ports.get(app)
    if port is None:
        port = _ports[app] = fast_port(proxy(app))
    return port


def version_at(store: EventStore, originator_id: UUID, position: int) -> int | None:
    """The aggregate's highest version stored at or before `position`; None if it did not exist yet."""
    app = application(store)
    return port_for(app).version_at(originator_id, position)


def position_of(store: EventStore, originator_id: UUID, version: int) -> int | None:
    """Where the aggregate's event of `version` stands in the log; None if it is not stored."""
    app = application(store)
    return port_for(app).position_of(originator_id, version)
