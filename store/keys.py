"""Where each campaign's Ed25519 signing key is kept: beside the store, like the dice seeds.

The key signs the campaign's checkpoints (`domain/checkpoint.py`); only its public key is
recorded in the campaign. It lives in the same place as the seeds (`FILE.db.secrets/`,
`$ROLLBOOK_SECRETS`, or memory), as `<campaign>/signing.key`: a file only its owner can
read (0600), in folders only its owner can enter (0700).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

PRIVATE_FILE_MODE = 0o600
PRIVATE_FOLDER_MODE = 0o700


# cryptography is imported where a key is made, read or used: most commands neither sign nor make a
# campaign.


def _private_key() -> type[Ed25519PrivateKey]:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey


def _public_hex(key: Ed25519PrivateKey) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


class NamedLogs:
    """What the keepers share: the host the campaigns' logs, and so their checkpoints, are named under."""

    @property
    def public_host(self) -> str | None:
        from .tlog import public_host

        return public_host()


class MemorySigningKeys(NamedLogs):
    """Keys in memory, gone with the process; `deterministic` ones for the testing kit's repeatable streams."""

    def __init__(self, make_key: object = None) -> None:
        self.keys: dict[str, Ed25519PrivateKey] = {}
        self.deterministic = make_key == "deterministic"

    def _kept(self, campaign: str) -> Ed25519PrivateKey | None:
        return self.keys.get(campaign)

    def _key(self, campaign: str) -> Ed25519PrivateKey:
        if campaign not in self.keys:
            self.keys[campaign] = (
                _private_key().from_private_bytes(hashlib.sha256(f"rollbook-test-key:{campaign}".encode()).digest())
                if self.deterministic else _private_key().generate()
            )
        return self.keys[campaign]

    def public_key(self, campaign: str) -> str:
        return _public_hex(self._key(campaign))

    def sign(self, campaign: str, message: bytes, public_key: str) -> str | None:
        key = self._kept(campaign)
        return key.sign(message).hex() if key is not None and _public_hex(key) == public_key else None


class FileSigningKeys(NamedLogs):
    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, campaign: str) -> Path:
        return self.folder / quote(campaign, safe="") / "signing.key"

    def _kept(self, campaign: str) -> Ed25519PrivateKey | None:
        try:
            return _private_key().from_private_bytes(bytes.fromhex(self._path(campaign).read_text().strip()))
        except FileNotFoundError:
            return None

    def _key(self, campaign: str) -> Ed25519PrivateKey:
        kept = self._kept(campaign)
        if kept is not None:
            return kept
        path = self._path(campaign)
        key = _private_key().generate()
        for folder in (path.parent.parent, path.parent):
            folder.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
            os.chmod(folder, PRIVATE_FOLDER_MODE)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        # Created unreadable to others from the start, not chmod-ed after the secret is in it.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE_MODE)
        with os.fdopen(descriptor, "w") as file:
            file.write(key.private_bytes_raw().hex())
        try:
            os.link(temporary, path)  # never replaces a key another process made first
        except FileExistsError:
            pass
        finally:
            temporary.unlink()
        return self._kept(campaign) or key

    def public_key(self, campaign: str) -> str:
        return _public_hex(self._key(campaign))

    def sign(self, campaign: str, message: bytes, public_key: str) -> str | None:
        key = self._kept(campaign)
        return key.sign(message).hex() if key is not None and _public_hex(key) == public_key else None
