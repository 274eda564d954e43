"""Where each campaign revision's Merkle tiles and the witnesses' cosignatures are kept (store/tlog.py
says what they are): rows in memory, or tables of the store's own SQLite or PostgreSQL database beside
its events, made once per application.

Cosignatures are what witnesses sent (`rollbook witness check`, or answered to `rollbook checkpoint`'s
add-checkpoint): one line per witness and checkpoint (origin, size, root), published with it. The
external witnesses a campaign sends its checkpoints to (`rollbook witness ask`) are kept beside them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from eventsourcing.application import Application

from ..domain.chain import GENESIS_CHAIN
from .app import EventStore, application
from .failures import is_store_failure
from .own_tables import OwnTables
from .schema_lock import creating_tables


@dataclass(frozen=True)
class TreeState:
    """How far a revision's tiles go: `size` commands, the last of which has chain hash `head` and
    is the campaign's event at `version`."""

    size: int
    head: str
    version: int


EMPTY = TreeState(0, GENESIS_CHAIN, 0)


class TreeRows(Protocol):
    def state(self, key: str) -> TreeState | None: ...

    def tiles(self, key: str, level: int, indexes: Iterable[int]) -> dict[int, bytes]: ...

    def save(self, key: str, state: TreeState, tiles: dict[tuple[int, int], bytes], *, reset: bool = False) -> None: ...

    def cosignatures(self, origin: str, size: int, root: str) -> list[str]: ...

    def cosigned(self, origin: str) -> list[tuple[int, str]]: ...

    def put_cosignature(self, origin: str, size: int, root: str, witness: str, line: str, time: int) -> None: ...

    def largest_cosigned(self, origin: str, witness: str) -> int | None:
        """The largest size of `origin` the witness (its vkey) co-signed; None if none."""
        ...

    def witnesses(self, campaign: str) -> list[tuple[str, str]]:
        """The external witnesses the campaign sends its checkpoints to: (URL, vkey), in the order named."""
        ...

    def put_witness(self, campaign: str, url: str, vkey: str) -> None: ...


class MemoryRows:
    def __init__(self) -> None:
        self.states: dict[str, TreeState] = {}
        self.tile_rows: dict[tuple[str, int, int], bytes] = {}
        self.lines: dict[tuple[str, int, str, str], tuple[str, int]] = {}
        self.named: dict[str, dict[str, str]] = {}
        self.lock = threading.Lock()

    def state(self, key: str) -> TreeState | None:
        return self.states.get(key)

    def tiles(self, key: str, level: int, indexes: Iterable[int]) -> dict[int, bytes]:
        return {i: self.tile_rows[(key, level, i)] for i in indexes if (key, level, i) in self.tile_rows}

    def save(self, key: str, state: TreeState, tiles: dict[tuple[int, int], bytes], *, reset: bool = False) -> None:
        with self.lock:
            if reset:
                for place in [p for p in self.tile_rows if p[0] == key]:
                    del self.tile_rows[place]
            self.tile_rows.update({(key, level, index): data for (level, index), data in tiles.items()})
            self.states[key] = state

    def cosignatures(self, origin: str, size: int, root: str) -> list[str]:
        return [line for (o, s, r, _), (line, _) in sorted(self.lines.items()) if (o, s, r) == (origin, size, root)]

    def cosigned(self, origin: str) -> list[tuple[int, str]]:
        return sorted({(s, r) for (o, s, r, _) in self.lines if o == origin})

    def put_cosignature(self, origin: str, size: int, root: str, witness: str, line: str, time: int) -> None:
        with self.lock:
            kept = self.lines.get((origin, size, root, witness))
            if kept is None or kept[1] < time:
                self.lines[(origin, size, root, witness)] = (line, time)

    def largest_cosigned(self, origin: str, witness: str) -> int | None:
        return max((s for (o, s, _, w) in self.lines if (o, w) == (origin, witness)), default=None)

    def witnesses(self, campaign: str) -> list[tuple[str, str]]:
        return sorted(self.named.get(campaign, {}).items())

    def put_witness(self, campaign: str, url: str, vkey: str) -> None:
        with self.lock:
            self.named.setdefault(campaign, {})[url] = vkey


class SQLRows(OwnTables):
    """The tiles and cosignatures in the application's own SQLite or PostgreSQL database."""

    def __init__(self, app: Application, *, postgres: bool) -> None:
        super().__init__(app, postgres=postgres)
        self.states, self.tile_rows = self.table("rollbook_tlog"), self.table("rollbook_tlog_tiles")
        self.lines, self.named = self.table("rollbook_cosignatures"), self.table("rollbook_witnesses")
        blob = "BYTEA" if postgres else "BLOB"
        with creating_tables(self.datastore), self.datastore.transaction(commit=True) as cursor:
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {self.states} (campaign TEXT PRIMARY KEY, size BIGINT NOT NULL, "
                           "head TEXT NOT NULL, version BIGINT NOT NULL)")
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {self.tile_rows} (campaign TEXT NOT NULL, level INTEGER NOT NULL, "
                           f"idx BIGINT NOT NULL, hashes {blob} NOT NULL, PRIMARY KEY (campaign, level, idx))")
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {self.lines} (origin TEXT NOT NULL, size BIGINT NOT NULL, "
                           "root TEXT NOT NULL, witness TEXT NOT NULL, line TEXT NOT NULL, time BIGINT NOT NULL, "
                           "PRIMARY KEY (origin, size, root, witness))")
            cursor.execute(f"CREATE TABLE IF NOT EXISTS {self.named} (campaign TEXT NOT NULL, url TEXT NOT NULL, "
                           "vkey TEXT NOT NULL, PRIMARY KEY (campaign, url))")

    def _rows(self, statement: str, params: Iterable[Any]) -> list[Any]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement.replace("?", self.p), tuple(params))
            return list(cursor.fetchall())

    def state(self, key: str) -> TreeState | None:
        rows = self._rows(f"SELECT size, head, version FROM {self.states} WHERE campaign = ?", [key])
        return TreeState(int(rows[0]["size"]), rows[0]["head"], int(rows[0]["version"])) if rows else None

    def tiles(self, key: str, level: int, indexes: Iterable[int]) -> dict[int, bytes]:
        wanted = sorted(set(indexes))
        if not wanted:
            return {}
        marks = ", ".join("?" for _ in wanted)
        rows = self._rows(f"SELECT idx, hashes FROM {self.tile_rows} WHERE campaign = ? AND level = ? AND idx IN ({marks})",
                          [key, level, *wanted])
        return {int(r["idx"]): bytes(r["hashes"]) for r in rows}

    def save(self, key: str, state: TreeState, tiles: dict[tuple[int, int], bytes], *, reset: bool = False) -> None:
        upsert = (f"INSERT INTO {self.tile_rows} (campaign, level, idx, hashes) VALUES (?, ?, ?, ?) ON CONFLICT "
                  "(campaign, level, idx) DO UPDATE SET hashes = excluded.hashes").replace("?", self.p)
        with self.datastore.transaction(commit=True) as cursor:
            if reset:
                cursor.execute(f"DELETE FROM {self.tile_rows} WHERE campaign = ?".replace("?", self.p), (key,))
            if tiles:
                cursor.executemany(upsert, [(key, level, index, data) for (level, index), data in tiles.items()])
            cursor.execute((f"INSERT INTO {self.states} (campaign, size, head, version) VALUES (?, ?, ?, ?) ON CONFLICT "
                            "(campaign) DO UPDATE SET size = excluded.size, head = excluded.head, "
                            "version = excluded.version").replace("?", self.p),
                           (key, state.size, state.head, state.version))

    def cosignatures(self, origin: str, size: int, root: str) -> list[str]:
        rows = self._rows(f"SELECT line FROM {self.lines} WHERE origin = ? AND size = ? AND root = ? ORDER BY witness",
                          [origin, size, root])
        return [r["line"] for r in rows]

    def cosigned(self, origin: str) -> list[tuple[int, str]]:
        rows = self._rows(f"SELECT DISTINCT size, root FROM {self.lines} WHERE origin = ? ORDER BY size", [origin])
        return [(int(r["size"]), r["root"]) for r in rows]

    def put_cosignature(self, origin: str, size: int, root: str, witness: str, line: str, time: int) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute((f"INSERT INTO {self.lines} (origin, size, root, witness, line, time) VALUES (?, ?, ?, ?, ?, ?) "
                            "ON CONFLICT (origin, size, root, witness) DO UPDATE SET line = excluded.line, "
                            f"time = excluded.time WHERE {self.lines}.time < excluded.time").replace("?", self.p),
                           (origin, size, root, witness, line, time))

    def largest_cosigned(self, origin: str, witness: str) -> int | None:
        rows = self._rows(f"SELECT MAX(size) AS size FROM {self.lines} WHERE origin = ? AND witness = ?",
                          [origin, witness])
        return None if not rows or rows[0]["size"] is None else int(rows[0]["size"])

    def witnesses(self, campaign: str) -> list[tuple[str, str]]:
        rows = self._rows(f"SELECT url, vkey FROM {self.named} WHERE campaign = ? ORDER BY url", [campaign])
        return [(r["url"], r["vkey"]) for r in rows]

    def put_witness(self, campaign: str, url: str, vkey: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute((f"INSERT INTO {self.named} (campaign, url, vkey) VALUES (?, ?, ?) ON CONFLICT "
                            "(campaign, url) DO UPDATE SET vkey = excluded.vkey").replace("?", self.p),
                           (campaign, url, vkey))


_made = threading.Lock()


def rows_for(store: EventStore) -> TreeRows:
    """The application's tree rows, made (and their tables created) once per application."""
    app = application(store)
    with _made:
        rows = getattr(app, "_rollbook_tlog_rows", None)
        if rows is None:
            module = str(app.env.get("PERSISTENCE_MODULE", ""))
            if module == "eventsourcing.popo":
                rows = MemoryRows()
            else:
                try:
                    rows = SQLRows(app, postgres=module == "eventsourcing.postgres")
                except Exception as error:  # a store opened read-only: the tree is kept in memory for this use
                    if not is_store_failure(error):
                        raise
                    return MemoryRows()
            app._rollbook_tlog_rows = rows  # type: ignore[attr-defined]
        return rows
