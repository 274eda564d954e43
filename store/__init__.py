"""Storage: where events, projections and secret seeds live, chosen by a store URL.

    sqlite:///path/to/rollbook.db   an embedded SQLite file (the default: sqlite:///rollbook.db)
    memory://                        in memory, for throwaway runs and tests
    postgresql://user@host:port/db   PostgreSQL, through eventsourcing's own persistence module

The URL comes from `--store`, else the `ROLLBOOK_STORE` environment variable.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from ..domain.errors import CommandRejected
from .app import RollbookApplication
from .seeds import FileSeedKeeper, MemorySeedKeeper, SeedKeeper

DEFAULT_STORE = "sqlite:///rollbook.db"


def default_url() -> str:
    return os.environ.get("ROLLBOOK_STORE") or DEFAULT_STORE


def environment_for(url: str) -> dict[str, str]:
    """The eventsourcing environment (PERSISTENCE_MODULE and friends) for a store URL."""
    parsed = urlparse(url)
    if parsed.scheme == "memory":
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if parsed.scheme == "sqlite":
        path = unquote(parsed.path)
        if not path or path == "/":
            raise CommandRejected(f"store URL {url!r} names no SQLite file", field="store")
        # sqlite:///rollbook.db is relative; sqlite:////abs/path.db is absolute.
        return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": path[1:]}
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
        f"unknown store URL {url!r}: use sqlite:///FILE, memory:// or postgresql://USER@HOST:PORT/DB",
        field="store",
    )


def seed_keeper_for(url: str) -> SeedKeeper:
    parsed = urlparse(url)
    if parsed.scheme == "memory":
        return MemorySeedKeeper()
    if parsed.scheme == "sqlite":
        return FileSeedKeeper(Path(unquote(parsed.path)[1:] + ".secrets"))
    folder = os.environ.get("ROLLBOOK_SECRETS") or Path.home() / ".local/share/rollbook/secrets"
    return FileSeedKeeper(Path(folder))


@dataclass
class Store:
    url: str
    app: RollbookApplication
    seeds: SeedKeeper

    @classmethod
    def open(cls, url: str | None = None, *, seeds: SeedKeeper | None = None) -> Store:
        url = url or default_url()
        app = RollbookApplication(env=environment_for(url))
        return cls(url=url, app=app, seeds=seeds or seed_keeper_for(url))

    @property
    def kind(self) -> str:
        return urlparse(self.url).scheme

    def close(self) -> None:
        self.app.close()
