"""When the store itself fails, not the command: a database that went away, a read-only file, a full disk.

Such a failure is not a refusal: the command may be perfectly good. Whatever was being
written is rolled back by the database (one transaction per command), so nothing of it is
stored — or, if the connection broke during the commit itself, all of it is, and then its
id is recorded: running the same file again after the store is back skips what was stored
and applies the rest.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

# Re-exported: the layers above catch the store's errors by these names, without importing the library's persistence.
from eventsourcing.persistence import IntegrityError as IntegrityError
from eventsourcing.persistence import PersistenceError as PersistenceError

from ..language import N_

RERUN_HINT = N_("run the same file again once the store is back: what was stored is skipped")


def is_store_failure(error: BaseException) -> bool:
    """A failure of the database (or of reaching it), not a conflict between writers."""
    if isinstance(error, IntegrityError):
        return False
    if isinstance(error, PersistenceError | sqlite3.Error):
        return True
    psycopg = sys.modules.get("psycopg")  # only loaded, and only failing, with a PostgreSQL store
    return psycopg is not None and isinstance(error, psycopg.Error)


def describe(error: BaseException) -> str:
    """The database's own words, on one line: "database or disk is full", "connection refused"."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:300] + "…"


def read_only_hint(url: str) -> str:
    """Why a SQLite store cannot be opened for writing, where the file system says so."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        return ""
    path = Path(unquote(parsed.path)[1:])
    folder = path.parent if str(path.parent) else Path(".")
    if (path.exists() and not os.access(path, os.W_OK)) or (folder.exists() and not os.access(folder, os.W_OK)):
        return f" ({path if path.exists() else folder} is read-only)"
    return ""
