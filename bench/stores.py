"""Fresh stores for each measurement: a SQLite file in the work folder, or a PostgreSQL schema.

Rollbook and the baselines get stores configured the same way (the same eventsourcing
persistence module and database), so a ratio compares the software, not the setup.
"""

from __future__ import annotations

import itertools
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"


@dataclass
class StoreRef:
    kind: str  # "sqlite", "postgres" (or "memory", for profiling)
    url: str  # a Rollbook store URL
    name: str  # file path or schema name

    @property
    def env(self) -> dict[str, str]:
        """The eventsourcing environment of this store, for the bare-library baseline."""
        from rollbook.store import environment_for

        return environment_for(self.url)


@dataclass
class Stores:
    """Makes and removes stores of one kind under one work folder."""

    kind: str
    workdir: Path
    postgres: str = DEFAULT_POSTGRES
    counter: itertools.count = field(default_factory=lambda: itertools.count(1))

    def fresh(self, tag: str) -> StoreRef:
        name = f"bench_{tag}_{os.getpid()}_{next(self.counter)}"
        return self.named(name, clear=True)

    def named(self, name: str, *, clear: bool = False) -> StoreRef:
        if self.kind == "memory":  # for profiling the Python alone; gone with the process
            return StoreRef("memory", "memory://", name)
        if self.kind == "sqlite":
            path = self.workdir / f"{name}.db"
            if clear:
                remove_sqlite(path)
            return StoreRef("sqlite", f"sqlite:///{path}", str(path))
        if clear:
            self._sql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        self._sql(f'CREATE SCHEMA IF NOT EXISTS "{name}"')
        return StoreRef("postgres", f"{self.postgres}?schema={name}", name)

    def exists(self, name: str) -> bool:
        if self.kind == "sqlite":
            return (self.workdir / f"{name}.db").exists()
        rows = self._sql("SELECT 1 FROM information_schema.schemata WHERE schema_name = %s", (name,))
        return bool(rows)

    def remove(self, ref: StoreRef) -> None:
        if ref.kind == "memory":
            return
        if ref.kind == "sqlite":
            remove_sqlite(Path(ref.name))
        else:
            self._sql(f'DROP SCHEMA IF EXISTS "{ref.name}" CASCADE')

    def _sql(self, statement: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        import psycopg

        with psycopg.connect(self.postgres, autocommit=True) as connection:
            cursor = connection.execute(statement, params)
            return list(cursor.fetchall()) if cursor.description else []

    def available(self) -> str | None:
        """None if this kind of store can be used here, else why not."""
        if self.kind == "sqlite":
            return None
        try:
            self._sql("SELECT 1")
        except Exception as error:  # no server, no database, no driver
            return f"PostgreSQL at {urlparse(self.postgres).netloc} is not reachable: {error}"
        return None


def remove_sqlite(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(f"{path}.secrets", ignore_errors=True)
