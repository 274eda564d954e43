"""C2SP signed notes (https://c2sp.org/signed-note), checkpoints (c2sp.org/tlog-checkpoint) and
Ed25519 cosignatures (c2sp.org/tlog-cosignature, v1).

A signed note is a text ending in a newline, a blank line, and signature lines
`— NAME BASE64(key id || signature)`; the text is everything before the *last* blank line.

    key id  = SHA-256(NAME || 0x0A || type || public key)[:4]
    vkey    = NAME "+" hex(key id) "+" BASE64(type || public key)

Type 0x01 is Ed25519 over the text. Type 0x04, a witness's cosignature, is a
`timestamped_signature`: an 8-byte big-endian POSIX time, then Ed25519 over
`"cosignature/v1\\ntime T\\n" || text`.

A checkpoint's text is its origin, its tree size in decimal, its root hash in base64, and
extension lines. A verifier is configured with the vkeys it trusts; a signature line whose
name and key id match none of them is ignored, one that matches must verify.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

DASH = "\u2014"  # the em dash that opens a signature line
ED25519 = 0x01
COSIGNATURE_V1 = 0x04
#: Verifiers must accept at least 16 signatures; more than this many is refused as malformed.
MAX_SIGNATURES = 100
_SIZE = re.compile(r"0|[1-9][0-9]*")


class NoteError(ValueError):
    """A note, checkpoint, vkey or signature that is malformed, or a known key's signature that fails."""


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a key name (signed-note: non-empty, no Unicode space, no '+'), or None."""
    if not name:
        return "it is empty"
    if "+" in name:
        return "it contains '+'"
    odd = next((c for c in name if c.isspace() or unicodedata.category(c) in ("Zs", "Zl", "Zp", "Cc")), None)
    if odd is not None:
        return f"it contains the space or control character U+{ord(odd):04X}"
    return None


def key_id(name: str, kind: int, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public_key).digest()[:4]


def _b64(text: str, what: str) -> bytes:
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise NoteError(f"{what} is not base64: {text[:40]!r}") from None


def _ed25519_verifies(public_key: bytes, signature: bytes, message: bytes) -> bool:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What a v1 cosignature signs: its header line, its time line, then the checkpoint's text."""
    return f"cosignature/v1\ntime {timestamp}\n".encode() + text.encode()


@dataclass(frozen=True)
class Verifier:
    """A key a verifier trusts: its name, type (0x01 a log's Ed25519, 0x04 a witness's cosignature) and key."""

    name: str
    kind: int
    public_key: bytes

    def __post_init__(self) -> None:
        problem = name_problem(self.name)
        if problem is not None:
            raise NoteError(f"key name {self.name!r} is not valid: {problem}")
        if self.kind not in (ED25519, COSIGNATURE_V1) or len(self.public_key) != 32:
            raise NoteError(f"key of {self.name!r}: only Ed25519 keys (types 0x01 and 0x04) of 32 bytes are known")

    @property
    def key_id(self) -> bytes:
        return key_id(self.name, self.kind, self.public_key)

    @property
    def vkey(self) -> str:
        return f"{self.name}+{self.key_id.hex()}+{base64.b64encode(bytes([self.kind]) + self.public_key).decode()}"

    @classmethod
    def parse(cls, vkey: str) -> Verifier:
        """A vkey as a log or witness prints it; its key id must be the one its name and key give."""
        parts = vkey.strip().split("+", 2)
        if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
            raise NoteError(f"not a vkey (NAME+KEYID+BASE64KEY): {vkey.strip()[:80]!r}")
        encoded = _b64(parts[2], "the vkey's key")
        if not encoded:
            raise NoteError("the vkey holds no key")
        verifier = cls(parts[0], encoded[0], encoded[1:])
        if verifier.key_id.hex() != parts[1]:
            raise NoteError(f"the vkey of {parts[0]!r} says key id {parts[1]}, its name and key give {verifier.key_id.hex()}")
        return verifier

    def verifies(self, text: str, signature: bytes) -> bool:
        """Whether `signature` (the bytes after the key id) is this key's over the note text `text`."""
        if self.kind == ED25519:
            return len(signature) == 64 and _ed25519_verifies(self.public_key, signature, text.encode())
        if len(signature) != 72:
            return False
        timestamp = int.from_bytes(signature[:8], "big")
        return timestamp < 2**63 and _ed25519_verifies(self.public_key, signature[8:], cosigned_message(text, timestamp))


@dataclass(frozen=True)
class Signature:
    """One signature line: the key's name, its key id, and the signature bytes after the key id."""

    name: str
    key_id: bytes
    signature: bytes

    @property
    def line(self) -> str:
        return f"{DASH} {self.name} {base64.b64encode(self.key_id + self.signature).decode()}\n"

    @property
    def timestamp(self) -> int | None:
        """A cosignature's POSIX time (its first 8 bytes), if it is shaped as one."""
        return int.from_bytes(self.signature[:8], "big") if len(self.signature) == 72 else None

    def by(self, verifier: Verifier) -> bool:
        return self.name == verifier.name and self.key_id == verifier.key_id


def parse_signature_line(line: str) -> Signature:
    if not line.startswith(DASH + " "):
        raise NoteError(f"not a signature line: {line[:60]!r}")
    parts = line[2:].split(" ")
    if len(parts) != 2:
        raise NoteError(f"a signature line is '{DASH} NAME SIGNATURE': {line[:60]!r}")
    name, encoded = parts
    problem = name_problem(name)
    if problem is not None:
        raise NoteError(f"signature by {name!r}: not a valid key name ({problem})")
    raw = _b64(encoded, f"the signature of {name}")
    if len(raw) < 5:
        raise NoteError(f"the signature of {name} is too short")
    return Signature(name, raw[:4], raw[4:])


@dataclass(frozen=True)
class Note:
    text: str
    signatures: tuple[Signature, ...] = ()

    def __str__(self) -> str:
        return self.text + "\n" + "".join(s.line for s in self.signatures)

    def with_signatures(self, signatures: Iterable[Signature]) -> Note:
        """The note with `signatures` added after its own (a line it holds already is not repeated)."""
        kept = list(self.signatures)
        for signature in signatures:
            if signature not in kept:
                kept.append(signature)
        return Note(self.text, tuple(kept))

    def verified(self, verifiers: Sequence[Verifier]) -> list[tuple[Verifier, Signature]]:
        """The signatures made by a key of `verifiers`, each checked; unknown keys' are ignored.

        A known key's signature that fails makes the whole note refused (signed-note: SHOULD).
        """
        found = []
        for signature in self.signatures:
            for verifier in verifiers:
                if signature.by(verifier):
                    if not verifier.verifies(self.text, signature.signature):
                        raise NoteError(f"the signature by {verifier.name} (key {verifier.key_id.hex()}) does not verify")
                    found.append((verifier, signature))
        return found


def parse_note(message: str) -> Note:
    """A signed note exactly as sent: the text, the last blank line, one or more signature lines."""
    if any(ord(c) < 0x20 and c != "\n" for c in message):
        raise NoteError("a signed note holds no control characters but newlines")
    if not message.endswith("\n"):
        raise NoteError("a signed note ends with a newline")
    split = message.rfind("\n\n")
    if split < 0:
        raise NoteError("a signed note has a blank line between its text and its signatures")
    text, lines = message[: split + 1], message[split + 2 :].split("\n")[:-1]
    if not lines:
        raise NoteError("a signed note has at least one signature line")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"more than {MAX_SIGNATURES} signatures")
    return Note(text, tuple(parse_signature_line(line) for line in lines))


@dataclass(frozen=True)
class Checkpoint:
    """A tlog-checkpoint's text: origin, tree size, root hash and extension lines."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = field(default=())

    @property
    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "".join(line + "\n" for line in lines)

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "":
            raise NoteError("a checkpoint's text is at least three lines, each ending in a newline")
        origin, size, root, *extensions = lines[:-1]
        if not origin:
            raise NoteError("a checkpoint's origin line is empty")
        if not _SIZE.fullmatch(size):
            raise NoteError(f"a checkpoint's tree size is a decimal with no leading zeroes, not {size[:30]!r}")
        digest = _b64(root, "the checkpoint's root hash")
        if len(digest) != 32:
            raise NoteError("a checkpoint's root hash is 32 bytes")
        if any(not line for line in extensions):
            raise NoteError("a checkpoint's extension lines are not empty")
        return cls(origin, int(size), digest, tuple(extensions))


def sign_with(private_key: object, name: str, text: str) -> Signature:
    """An Ed25519 (type 0x01) signature line by `private_key` (a cryptography Ed25519PrivateKey)."""
    public = _raw_public(private_key)
    return Signature(name, key_id(name, ED25519, public), private_key.sign(text.encode()))  # type: ignore[attr-defined]


def cosign_with(private_key: object, name: str, text: str, timestamp: int) -> Signature:
    """A witness's v1 cosignature (type 0x04) of the checkpoint text `text`, made at `timestamp`."""
    public = _raw_public(private_key)
    signed = private_key.sign(cosigned_message(text, timestamp))  # type: ignore[attr-defined]
    return Signature(name, key_id(name, COSIGNATURE_V1, public), timestamp.to_bytes(8, "big") + signed)


def _raw_public(private_key: object) -> bytes:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)  # type: ignore[attr-defined]
