"""A witness's own file (replay/witness.py): its name and the logs and checkpoints it keeps, in SQLite, with its
Ed25519 key beside it, both readable by its owner only."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import settings
from ..domain.errors import CommandRejected, Word
from ..domain.transparency.note import COSIGNATURE_V1, Verifier, name_problem
from ..store.keys import PRIVATE_FILE_MODE

SCHEMA = """
CREATE TABLE IF NOT EXISTS identity (name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sources (campaign TEXT NOT NULL, source TEXT NOT NULL, token TEXT,
    log_vkey TEXT NOT NULL, PRIMARY KEY (campaign, source));
CREATE TABLE IF NOT EXISTS latest (origin TEXT PRIMARY KEY, size INTEGER NOT NULL, root TEXT NOT NULL,
    note TEXT NOT NULL, cosignature TEXT NOT NULL, source TEXT NOT NULL, at INTEGER NOT NULL,
    delivered INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS logs (origin TEXT PRIMARY KEY, log_vkey TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS evidence (id INTEGER PRIMARY KEY, origin TEXT NOT NULL, found_at INTEGER NOT NULL,
    source TEXT NOT NULL, reason TEXT NOT NULL, cosigned TEXT NOT NULL, offered TEXT NOT NULL);
"""


def default_state() -> Path:
    """The witness's own file: in `$ROLLBOOK_STATE`, else the user's data folder (platformdirs)."""
    from ..store.defaults import user_data_folder

    return Path(settings.text("state") or user_data_folder()) / "witness.db"


@dataclass
class Witness:
    """A witness's name, key and state file."""

    path: Path
    name: str
    key: Any  # cryptography's Ed25519PrivateKey

    @property
    def verifier(self) -> Verifier:
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        public = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return Verifier(self.name, COSIGNATURE_V1, public)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One SQLite transaction, taken for writing at once (the check and the write are one)."""
        with closing(sqlite3.connect(self.path, timeout=30, isolation_level=None)) as connection:
            connection.row_factory = sqlite3.Row
            connection.execute("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            connection.execute("COMMIT")


def _key_path(path: Path) -> Path:
    return path.with_name(path.name + ".key")


def open_witness(path: Path, name: str | None = None) -> Witness:
    """The witness kept in `path`; made (its key beside it, readable by its owner only) if `name` is given
    and there is none yet."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if name is None and not path.exists():
        raise CommandRejected("no witness at {path}: set one up with `rollbook witness add SOURCE -c C --name NAME`",
                              field="state", path=path)
    path.parent.mkdir(parents=True, exist_ok=True)
    made = not path.exists()
    with closing(sqlite3.connect(path, timeout=30)) as connection:
        if made:  # it keeps the token the witness signs in with: its owner's alone
            os.chmod(path, PRIVATE_FILE_MODE)
        connection.executescript(SCHEMA)
        row = connection.execute("SELECT name FROM identity").fetchone()
        if row is None:
            if name is None:
                raise CommandRejected("the witness at {path} has no name: `rollbook witness add ... --name NAME`",
                                      field="state", path=path)
            problem = name_problem(name)
            if problem is not None:
                raise CommandRejected("a witness's name is a key name, and {name!r} cannot be one: {problem}",
                                      field="name", name=name, problem=Word(problem))
            _make_key(_key_path(path))
            connection.execute("INSERT INTO identity (name) VALUES (?)", (name,))
            connection.commit()
        elif name is not None and row[0] != name:
            raise CommandRejected("the witness at {path} is {kept!r}, not {name!r} (one name per witness file)",
                                  field="name", path=path, kept=row[0], name=name)
        kept = row[0] if row is not None else name
    try:
        seed = bytes.fromhex(_key_path(path).read_text().strip())
    except (OSError, ValueError) as error:
        raise CommandRejected("the witness's key {path} cannot be read: {error}", field="state",
                              path=_key_path(path), error=error) from None
    return Witness(path, str(kept), Ed25519PrivateKey.from_private_bytes(seed))


def _make_key(path: Path) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if path.exists():
        return
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    with os.fdopen(descriptor, "w") as file:
        file.write(Ed25519PrivateKey.generate().private_bytes_raw().hex())
