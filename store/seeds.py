"""Where the campaign's secret dice seeds are kept until they are revealed.

A seed must not be readable from the event store before its reveal (only its SHA-256
commitment is recorded there), so it is kept beside the store:

- for `sqlite:///path/campaign.db`: the folder `path/campaign.db.secrets/`;
- for PostgreSQL: `$ROLLBOOK_SECRETS`, or `secrets/` in the user's data folder (platformdirs);
- for `memory://`: in memory, gone with the process.

Each seed is one file, `<campaign>/<commitment>.seed`, holding the seed in hex.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
from pathlib import Path
from typing import Protocol
from urllib.parse import quote

from ..domain.errors import DiceError, Word
from ..domain.ids import id_problem

#: A seed's commitment: its SHA-256, in hex.
COMMITMENT = re.compile(r"[0-9a-f]{64}")
#: Never write through a symbolic link planted where a seed file is made (where the system has the flag).
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
#: Seeds a keeper holds once read: a campaign rolls with its current seeds, and a new one
#: comes with each chapter, so holding every seed ever read grew with the campaign's length.
SEEDS_HELD = 64


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
            seed = self.seeds[(campaign, commitment)]
        except KeyError:
            raise DiceError("the secret seed {commitment}… of {campaign} is not kept here", commitment=commitment[:12],
                            campaign=campaign) from None
        return checked(seed.hex(), commitment, "memory")


class FileSeedKeeper:
    """Seeds in files only their owner can read: folders 0700, files made 0600 as they are created.

    A file is created by `os.open(O_CREAT | O_EXCL, 0o600)` under a fresh name and renamed into
    place, so it is never readable by anyone else, not even for the moment a chmod would take,
    and a file planted under that name is never written into. A seed read back is checked
    against its commitment every time: a swapped or damaged file rolls nothing.

    A seed read once is kept with the file's identity (inode, modification time, size), so a
    campaign's rolls do not each read the file again: a file whose identity changed is read
    anew, and the kept seed is checked against the commitment on every use all the same.
    Only the last SEEDS_HELD seeds read are kept.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[Path, tuple[tuple[int, int, int], str]] = {}

    def _path(self, campaign: str, commitment: str) -> Path:
        problem = id_problem(campaign)
        if problem is not None:
            raise DiceError("campaign {campaign!r} cannot keep secret seeds: its id {problem}", campaign=campaign,
                            problem=Word(problem))
        if not COMMITMENT.fullmatch(commitment):
            raise DiceError("{commitment!r} is not a seed's commitment (64 hex digits)", commitment=commitment[:80])
        return self.folder / quote(campaign, safe="") / f"{commitment}.seed"

    def new_seed(self, campaign: str) -> str:
        return self.keep(campaign, secrets.token_bytes(32))

    def keep(self, campaign: str, seed: bytes) -> str:
        commitment = commitment_of(seed)
        path = self._path(campaign, commitment)
        temporary = path.with_name(f".{commitment}.{secrets.token_hex(8)}.tmp")
        try:
            for folder in (self.folder, path.parent):
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                folder.chmod(0o700)  # a folder made by an older Rollbook, under a looser umask
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW, 0o600)
            with os.fdopen(descriptor, "w") as file:
                file.write(seed.hex())
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except OSError as error:
            temporary.unlink(missing_ok=True)
            raise DiceError(
                "cannot keep the campaign's new secret seed in {folder}: {problem}; nothing was written",
                folder=path.parent, problem=error.strerror or error,
            ) from None
        return commitment

    def seed(self, campaign: str, commitment: str) -> bytes:
        path = self._path(campaign, commitment)
        try:
            status = path.stat()
            identity = (status.st_ino, status.st_mtime_ns, status.st_size)
            kept = self._read.get(path)
            if kept is not None and kept[0] == identity:
                text = kept[1]
            else:
                text = path.read_text()
                if len(self._read) >= SEEDS_HELD:  # the oldest: a campaign rolls with its latest seeds
                    del self._read[next(iter(self._read))]
                self._read[path] = (identity, text)
        except FileNotFoundError:
            raise DiceError(
                "the secret seed {commitment}… of {campaign} is missing from {folder} "
                "(a lost seed can be abandoned: abandon_seed)", commitment=commitment[:12], campaign=campaign,
                folder=path.parent,
            ) from None
        except (OSError, UnicodeDecodeError) as error:
            raise DiceError("cannot read the secret seed file {path}: {error}", path=path, error=error) from None
        return checked(text, commitment, path)


def checked(text: str, commitment: str, where: object) -> bytes:
    """The seed `text` holds, if it is the one `commitment` committed to; refused otherwise."""
    try:
        seed = bytes.fromhex(text.strip())
    except ValueError:
        seed = b""
    if commitment_of(seed) != commitment:
        raise DiceError(
            "the secret seed in {where} does not match the campaign's commitment {commitment}…: "
            "the file was replaced or damaged, so nothing is rolled from it "
            "(put the right file back, or abandon the seed: abandon_seed)", where=where, commitment=commitment[:12],
        )
    return seed
