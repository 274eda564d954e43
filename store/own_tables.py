"""Rollbook's own tables beside the library's, in the application's SQLite or PostgreSQL database.

The views, the outbox and the transparency log's tiles each keep tables there: they write with
the library's datastore (its connections and transactions), name their tables in the store's
schema on PostgreSQL, and write their statements with SQLite's `?`, turned into the driver's
placeholder.
"""

from __future__ import annotations

from typing import Any


class OwnTables:
    def __init__(self, app: Any, *, postgres: bool) -> None:
        self.datastore = app.recorder.datastore
        self.p = "%s" if postgres else "?"
        schema = getattr(self.datastore, "schema", None) if postgres else None
        self._prefix = f'"{schema}".' if schema else ""

    def table(self, name: str) -> str:
        """The table's name as statements give it: in the store's schema, if it has one."""
        return self._prefix + name

    def _sql(self, statement: str) -> str:
        return statement.replace("?", self.p)
