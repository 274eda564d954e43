"""Where the campaign's secret dice seeds are kept until they are revealed.

A seed must not be readable from the event store before its reveal (only its SHA-256
commitment is recorded there), so it is kept beside the store:

- for `sqlite:///path/campaign.db`: the folder `path/campaign.db.secrets/`;
- for PostgreSQL: `$ROLLBOOK_SECRETS`, or `~/.local/share/rollbook/secrets/`;
- for `memory://`: in memory, gone with the process.

Each seed is one file, `<campaign>/<commitment>.seed`, holding the seed in hex.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

from ..domain.errors import DiceError


def commitment_of(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class SeedKeeper(Protocol):
    def new_seed(self, campaign: str) -> str:
        """Make and keep a new secret seed; return its commitment."""
        ...

    def seed(self, campaign: str, commitment: str) -> bytes: ...

    def keep(self, campaign: str, seed: bytes) -> str:
        """Keep a seed made elsewhere (an import with its secrets); return its commitment."""
        ...


class MemorySeedKeeper:
    def __init__(self, make_seed: object = None) -> None:
        self.seeds: dict[tuple[str, str], bytes] = {}
        self.counter = 0
        self.deterministic = make_seed == "deterministic"

    def new_seed(self, campaign: str) -> str:
        if self.deterministic:
            self.counter += 1
            seed = hashlib.sha256(f"rollbook-test-seed:{campaign}:{self.counter}".encode()).digest()
        else:
            seed = secrets.token_bytes(32)
        commitment = commitment_of(seed)
        self.seeds[(campaign, commitment)] = seed
        return commitment

    def keep(self, campaign: str, seed: bytes) -> str:
        commitment = commitment_of(seed)
        self.seeds[(campaign, commitment)] = seed
        return commitment

    def seed(self, campaign: str, commitment: str) -> bytes:
        try:
            return self.seeds[(campaign, commitment)]
        except KeyError:
            raise DiceError(f"the secret seed {commitment[:12]}… of {campaign} is not kept here") from None


class FileSeedKeeper:
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, campaign: str, commitment: str) -> Path:
        return self.folder / quote(campaign, safe="") / f"{commitment}.seed"

    def new_seed(self, campaign: str) -> str:
        return self.keep(campaign, secrets.token_bytes(32))

    def keep(self, campaign: str, seed: bytes) -> str:
        commitment = commitment_of(seed)
        path = self._path(campaign, commitment)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(seed.hex())
        os.chmod(temporary, 0o600)
        temporary.replace(path)
        return commitment

    def seed(self, campaign: str, commitment: str) -> bytes:
        path = self._path(campaign, commitment)
        try:
            return bytes.fromhex(path.read_text().strip())
        except FileNotFoundError:
            raise DiceError(
                f"the secret seed {commitment[:12]}… of {campaign} is missing from {path.parent}"
            ) from None
