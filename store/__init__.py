"""Storage: where events, projections and secret seeds live, chosen by a store URL.

    sqlite:///path/to/rollbook.db   an embedded SQLite file (the default: sqlite:///rollbook.db)
    memory://                        in memory, for throwaway runs and tests
    postgresql://user@host:port/db   PostgreSQL, through eventsourcing's own persistence module

The URL comes from `--store`, else the `ROLLBOOK_STORE` environment variable.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID
from urllib.parse import parse_qs, quote, unquote, urlparse

from ..domain.checkpoint import Signer
from ..domain.errors import CommandRejected
from .. import settings
from .app import FOLD_FAILURES, SNAPSHOT_INTERVAL, EventStore, RollbookApplication, why_unfolded
from .defaults import user_data_folder
from .reads import Aggregate, StoredEvent, aggregate
from .keys import FileSigningKeys, MemorySigningKeys
from .seeds import FileSeedKeeper, MemorySeedKeeper, SeedKeeper

__all__ = ["FOLD_FAILURES", "SNAPSHOT_INTERVAL", "EventStore", "RollbookApplication", "Store", "why_unfolded"]

DEFAULT_STORE = "sqlite:///rollbook.db"

Shared = TypeVar("Shared")


def default_url() -> str:
    return settings.text("store") or DEFAULT_STORE


def environment_for(url: str) -> dict[str, str]:
    """The eventsourcing environment (PERSISTENCE_MODULE and friends) for a store URL."""
    parsed = urlparse(url)
    if parsed.scheme == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        if not path or path == "/":
            raise CommandRejected("store URL {url!r} names no SQLite file", field="store", url=url)
        # sqlite:///rollbook.db is relative; sqlite:////abs/path.db is absolute.
        return {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path[1:],
            "APPLICATION_RECORDER_TOPIC": "rollbook.store.sqlite_recorder:SQLiteCommandRecorder",
        }
    if parsed.scheme in ("postgresql", "postgres"):
        options = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": parsed.path.lstrip("/") or "postgres",
            "POSTGRES_HOST": parsed.hostname or "127.0.0.1",
            "POSTGRES_PORT": str(parsed.port or 5432),
            "POSTGRES_USER": unquote(parsed.username or "postgres"),
            "POSTGRES_PASSWORD": unquote(parsed.password or ""),
            "POSTGRES_CONNECT_TIMEOUT": options.get("connect_timeout", "5"),
        }
        if "schema" in options:
            env["POSTGRES_SCHEMA"] = options["schema"]
        return env
    raise CommandRejected(
        "unknown store URL {url!r}: use sqlite:///FILE, memory:// or postgresql://USER@HOST:PORT/DB",
        field="store", url=url,
    )


def secrets_folder(url: str) -> Path | None:
    """Where the secrets beside the store are kept (seeds, signing keys); None in memory."""
    parsed = urlparse(url)
    if parsed.scheme == "memory":
        return None
    if parsed.scheme == "sqlite":
        return Path(unquote(parsed.path)[1:] + ".secrets")
    return Path(settings.text("secrets") or user_data_folder() / "secrets")


def seed_keeper_for(url: str) -> SeedKeeper:
    folder = secrets_folder(url)
    return MemorySeedKeeper() if folder is None else FileSeedKeeper(folder)


def signing_keys_for(url: str) -> Signer:
    folder = secrets_folder(url)
    return MemorySigningKeys() if folder is None else FileSigningKeys(folder)


@dataclass
class Store:
    url: str
    app: RollbookApplication
    seeds: SeedKeeper
    keys: Signer

    @classmethod
    def open(cls, url: str | None = None, *, seeds: SeedKeeper | None = None, keys: Signer | None = None) -> Store:
        url = url or default_url()
        app = RollbookApplication(env=environment_for(url))
        return cls(url=url, app=app, seeds=seeds or seed_keeper_for(url), keys=keys or signing_keys_for(url))

    @classmethod
    def open_to_read(cls, url: str | None = None) -> Store:
        """The store opened only to be read (`verify`): a SQLite file that cannot be written is read as is.

        A read-only file or folder keeps SQLite from creating its shared-memory file, so
        `mode=ro` can fail too; nothing can change a file that nobody can write, so it is
        then read as immutable.
        """
        url = url or default_url()
        try:
            return cls.open(url)
        except Exception:  # noqa: BLE001 - re-raised below when reading cannot help
            if urlparse(url).scheme != "sqlite":
                raise
        env = environment_for(url)
        path = quote(os.path.abspath(env["SQLITE_DBNAME"]))
        for mode in ("mode=ro", "immutable=1"):
            try:
                app = RollbookApplication(env={**env, "SQLITE_DBNAME": f"file:{path}?{mode}"})
            except Exception:  # noqa: BLE001 - the next mode, or the original error below
                continue
            return cls(url=url, app=app, seeds=seed_keeper_for(url), keys=signing_keys_for(url))
        return cls.open(url)

    @property
    def kind(self) -> str:
        return urlparse(self.url).scheme

    def head(self) -> int:
        """The last stored position (0 when empty): one cheap query, safe from any thread."""
        return self.app.recorder.max_notification_id() or 0

    def shared(self, name: str, make: Callable[[], Shared]) -> Shared:
        """The one `name` object of this event store, made by `make` on first use and kept with its
        application, so that every `Store` opened on it shares it (memory:// keeps it for the process)."""
        kept = self.app.__dict__.setdefault("_rollbook_shared", {})
        if name not in kept:
            kept[name] = make()
        return kept[name]  # type: ignore[no-any-return]

    def get(self, aggregate_id: UUID, version: int | None = None) -> Any:
        """An aggregate read by its id, as its stored events leave it (at `version`, if given)."""
        return aggregate(self, aggregate_id, version)

    def save(self, *aggregates: Aggregate) -> None:
        """Store what happened to aggregates that are no campaign command's (accounts, kept answers,
        import records): their pending events, in one transaction."""
        self.app.save(*aggregates)

    def stored(self, events: Iterable[Any]) -> list[StoredEvent]:
        """The rows the store writes for `events`, transcoded as a command's are."""
        return self.app.stored(events)

    # --- copies: rows an export holds, stored as they are (replay/copy.py) -------------------

    def snapshot_rows(self, folded: Aggregate, pending: dict[UUID, str]) -> list[StoredEvent]:
        """The rows that store a snapshot of the aggregate `folded` as it is now: its roster chunks not yet
        stored (nor `pending`), then the snapshot; none where the store takes no snapshots."""
        if self.app.snapshots is None:
            return []
        snapshot_class = getattr(type(folded), "Snapshot", type(self.app).snapshot_class)
        return self.app.snapshot_rows(snapshot_class.take(folded), pending)

    def insert_copied(self, rows: Sequence[StoredEvent]) -> None:
        """Rows copied as an export holds them (no command is decided here), in one transaction."""
        self.app.insert_copied(rows)

    def insert_copied_snapshots(self, rows: Sequence[StoredEvent]) -> None:
        """Snapshots copied with their events (see `RollbookApplication.insert_copied_snapshots`)."""
        self.app.insert_copied_snapshots(rows)

    def remember(self, aggregates: Iterable[Aggregate]) -> None:
        """Cache aggregates as their stored events left them, where the next command looks first."""
        self.app.remember(aggregates)

    def close(self) -> None:
        self.app.close()
