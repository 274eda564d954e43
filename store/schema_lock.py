"""One process at a time creates Rollbook's tables in a PostgreSQL database.

Creating them is idempotent (`IF NOT EXISTS`, `CREATE OR REPLACE`), but not safe to run in
two sessions at once: PostgreSQL refuses the second `CREATE OR REPLACE FUNCTION` with
"tuple concurrently updated", and two first-time `CREATE TABLE IF NOT EXISTS` collide on
the catalog. Several game masters starting `rollbook` at the same moment do exactly that,
so the creation is serialised with a session-level advisory lock (released by PostgreSQL
if the process dies holding it). SQLite and memory stores need nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: The advisory lock's key: any 64-bit number no other software on the database uses.
SCHEMA_LOCK = 0x526F6C6C626F6F6B  # "Rollbook"


@contextmanager
def creating_tables(datastore: Any) -> Iterator[None]:
    """Hold the advisory lock while the caller creates tables, if the datastore is PostgreSQL's."""
    if type(datastore).__module__ != "eventsourcing.postgres":
        yield
        return
    with datastore.get_connection() as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (SCHEMA_LOCK,))
        try:
            yield
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))
