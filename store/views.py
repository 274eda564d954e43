"""Where projections keep their documents, beside the events in the same database.

One table of JSON documents, keyed by (campaign, kind, key), each stamped with the event
position it reflects; one row of tracking: the last position the projections processed.
A batch of documents and the new position are written in one transaction, and only if
nobody else moved the position meanwhile, so two readers catching up at once cannot
write a half-old view.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from eventsourcing.application import Application

from .app import EventStore, application
from .own_tables import OwnTables
from .schema_lock import creating_tables

TRACKING_NAME = "rollbook-views"

Document = tuple[str, str, str, int, dict[str, Any]]  # campaign, kind, key, position, doc

#: `json.dumps(doc, ensure_ascii=False)`, without building an encoder for every document.
encode_document = json.JSONEncoder(ensure_ascii=False).encode


class TrackingConflict(Exception):
    """Another process advanced the projections first; catch up again from its position."""


class ViewStore(Protocol):
    def position(self) -> int: ...

    def write(self, start: int, end: int, documents: Sequence[Document]) -> None: ...

    def get(self, campaign: str, kind: str, key: str) -> dict[str, Any] | None: ...

    def all(self, campaign: str, kind: str) -> list[dict[str, Any]]: ...

    def campaigns(self) -> list[str]: ...

    def documents(self, campaign: str) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]: ...

    def clear(self) -> None: ...


class MemoryViews:
    def __init__(self) -> None:
        self.docs: dict[tuple[str, str, str], tuple[int, str]] = {}
        self.tracked = 0
        self.lock = threading.Lock()

    def position(self) -> int:
        return self.tracked

    def write(self, start: int, end: int, documents: Sequence[Document]) -> None:
        with self.lock:
            if self.tracked != start:
                raise TrackingConflict(f"position is {self.tracked}, not {start}")
            for campaign, kind, key, position, doc in documents:
                self.docs[(campaign, kind, key)] = (position, json.dumps(doc))
            self.tracked = end

    def get(self, campaign: str, kind: str, key: str) -> dict[str, Any] | None:
        found = self.docs.get((campaign, kind, key))
        return json.loads(found[1]) if found else None

    def all(self, campaign: str, kind: str) -> list[dict[str, Any]]:
        # A copy of the items first: another thread may be writing a batch (the server's readers do not wait).
        rows = [(p, d) for (c, k, _), (p, d) in list(self.docs.items()) if c == campaign and k == kind]
        return [json.loads(d) for _, d in sorted(rows, key=lambda r: r[0])]

    def campaigns(self) -> list[str]:
        return sorted({c for (c, k, _) in list(self.docs) if k == "campaign"})

    def documents(self, campaign: str) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]:
        """Every document of campaign key `campaign`: (kind, key) -> (position, doc)."""
        return {(k, key): (p, json.loads(d)) for (c, k, key), (p, d) in list(self.docs.items()) if c == campaign}

    def clear(self) -> None:
        with self.lock:
            self.docs.clear()
            self.tracked = 0


class SQLViews(OwnTables):
    """The document table in the application's own SQLite or PostgreSQL database."""

    def __init__(self, app: Application, *, postgres: bool) -> None:
        super().__init__(app, postgres=postgres)
        self.views = self.table("rollbook_views")
        self.tracking = self.table("rollbook_tracking")
        self._create()

    def _create(self) -> None:
        with creating_tables(self.datastore), self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {self.views} (campaign TEXT NOT NULL, kind TEXT NOT NULL, "
                "key TEXT NOT NULL, position BIGINT NOT NULL, doc TEXT NOT NULL, "
                "PRIMARY KEY (campaign, kind, key))"
            )
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS rollbook_views_by_position ON {self.views} (campaign, kind, position)"
            )
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {self.tracking} (name TEXT PRIMARY KEY, position BIGINT NOT NULL)"
            )

    def _rows(self, statement: str, params: Iterable[Any]) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(statement), tuple(params))
            return list(cursor.fetchall())

    def position(self) -> int:
        rows = self._rows(f"SELECT position FROM {self.tracking} WHERE name = ?", [TRACKING_NAME])
        return int(rows[0]["position"]) if rows else 0

    def write(self, start: int, end: int, documents: Sequence[Document]) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            # The tracking row first: it takes the write lock, and proves nobody moved on.
            cursor.execute(
                self._sql(
                    f"INSERT INTO {self.tracking} (name, position) VALUES (?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET position = excluded.position "
                    f"WHERE {self.tracking}.position = ?"
                ),
                (TRACKING_NAME, end, start),
            )
            cursor.execute(self._sql(f"SELECT position FROM {self.tracking} WHERE name = ?"), (TRACKING_NAME,))
            if int(cursor.fetchone()["position"]) != end:
                raise TrackingConflict(f"another process moved the projections past {start}")
            if documents:
                cursor.executemany(
                    self._sql(
                        f"INSERT INTO {self.views} (campaign, kind, key, position, doc) VALUES (?, ?, ?, ?, ?) "
                        "ON CONFLICT (campaign, kind, key) DO UPDATE SET position = excluded.position, "
                        "doc = excluded.doc"
                    ),
                    [(c, k, key, pos, encode_document(doc)) for c, k, key, pos, doc in documents],
                )

    def get(self, campaign: str, kind: str, key: str) -> dict[str, Any] | None:
        rows = self._rows(
            f"SELECT doc FROM {self.views} WHERE campaign = ? AND kind = ? AND key = ?", [campaign, kind, key]
        )
        return json.loads(rows[0]["doc"]) if rows else None

    def all(self, campaign: str, kind: str) -> list[dict[str, Any]]:
        rows = self._rows(
            f"SELECT doc FROM {self.views} WHERE campaign = ? AND kind = ? ORDER BY position, key",
            [campaign, kind],
        )
        return [json.loads(r["doc"]) for r in rows]

    def campaigns(self) -> list[str]:
        rows = self._rows(f"SELECT campaign FROM {self.views} WHERE kind = ? ORDER BY campaign", ["campaign"])
        return [r["campaign"] for r in rows]

    def documents(self, campaign: str) -> dict[tuple[str, str], tuple[int, dict[str, Any]]]:
        """Every document of campaign key `campaign`: (kind, key) -> (position, doc)."""
        rows = self._rows(f"SELECT kind, key, position, doc FROM {self.views} WHERE campaign = ?", [campaign])
        return {(r["kind"], r["key"]): (int(r["position"]), json.loads(r["doc"])) for r in rows}

    def clear(self) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {self.views}")
            cursor.execute(self._sql(f"DELETE FROM {self.tracking} WHERE name = ?"), (TRACKING_NAME,))


def views_for(store: EventStore, kind: str) -> ViewStore:
    app = application(store)
    if kind == "memory":
        return MemoryViews()
    return SQLViews(app, postgres=kind != "sqlite")
