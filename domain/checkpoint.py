"""Checkpoints: a campaign's chain head, signed, short enough to paste into the forum thread.

Whoever runs the store can rewrite it from any point and recompute every hash: nothing
inside the store can tell. A head published outside it can. A checkpoint names the
campaign, its revision, how many commands it has recorded and the hash of the last one,
and when it was signed; it is signed with the campaign's Ed25519 key (kept beside the
store, its public key recorded in the campaign when it was created). `verify --checkpoint`
then fails unless the store's history at that size has exactly that head: a truncation,
a reordering or a rewrite from any earlier point is caught as long as someone kept a
checkpoint from after it (the idea of the transparency logs' signed tree heads, RFC 9162).

Two forms, both C2SP signed notes (https://c2sp.org/signed-note): a body, a blank line, and
signature lines `— NAME BASE64(key id ‖ signature)`, the key id the first four bytes of
SHA-256(NAME ‖ "\\n" ‖ 0x01 ‖ public key), the signature over the body.

- `TreeHead`, the form signed now: a C2SP checkpoint (c2sp.org/tlog-checkpoint) of the
  revision's Merkle tree (`transparency/`): origin, size, root, `revision N`, signed under its origin. Witnesses
  co-sign it, and proofs need nothing but it (`transparency/proof.py` names the formats).
- `Checkpoint`, the form signed before (`rollbook checkpoint NAME`, revision, commands, chain
  head, time, under the key name `rollbook:NAME`): no C2SP verifier opens it. It is read, and
  held, for old records only: a chapter's end recorded it before; a history re-made records it
  again only where it was recorded (`Table.sign_checkpoint`), a new chapter's end never.

Pure and free of I/O: signing goes through a `Signer` the store provides.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from .errors import CommandRejected
from .transparency import merkle
from .transparency.note import Checkpoint as CheckpointText
from .transparency.note import DASH, ED25519, Note, NoteError, Signature, Verifier, parse_note
from .transparency.proof import command_leaf, key_name, name_of_origin, origin, parse_origin, verifiers_for

#: The first word of an old checkpoint's body, so a pasted text says what it is.
ORIGIN = "rollbook checkpoint"
SIGNATURE_DASH = DASH  # the em dash that opens a signed note's signature line
_REVISION_LINE = re.compile(r"revision ([1-9][0-9]*)")


class Signer(Protocol):
    """The keeper of the campaigns' signing keys (beside the store, never in it). One that names the host
    the logs are published under has `public_host` (`store/keys.py`); without it the origins have none.
    One that re-makes a recorded history has `recorded_signature(message)`: the old-form checkpoint's
    signature it recorded over `message`, if any (`replay/reexecute.py`)."""

    def public_key(self, campaign: str) -> str:
        """The campaign's public key (hex), its key pair made on first use."""
        ...

    def sign(self, campaign: str, message: bytes, public_key: str) -> str | None:
        """The Ed25519 signature (hex) of `message` by the campaign's key, if the key kept
        here is the one `public_key` names; None if it is not kept here (a copy)."""
        ...


def signer_name(campaign: str) -> str:
    """Whose signature an old checkpoint is: the campaign as players know it (every revision signs alike)."""
    return f"rollbook:{campaign}"


def key_id(name: str, public_key: str) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + bytes([ED25519]) + bytes.fromhex(public_key)).digest()[:4]


def log_verifier(campaign: str, public_key: str, host: str | None = None, revision: int = 1) -> Verifier:
    """The verifier key of a revision's log (`rollbook checkpoint --vkey`): its origin as key name, and the
    campaign's public key. Revision 1's vouches for every revision (`transparency.proof.verifiers_for`)."""
    return Verifier(origin(campaign, revision, host), ED25519, bytes.fromhex(public_key))


def _ed25519_verifies(public_key: str, signature: str, message: bytes) -> bool:
    # Imported here, where a signature is checked: most commands neither make nor check one.
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


@dataclass(frozen=True)
class Checkpoint:
    """The old form: the chain head of `commands` commands, signed under `rollbook:CAMPAIGN`."""

    campaign: str
    revision: int
    commands: int
    head: str
    time: str
    signature: str  # hex, over `body()`
    #: As read from a pasted note: the name and key id (hex) of its signature line; None for
    #: one rebuilt from its recorded fields.
    key_name: str | None = field(default=None, compare=False)
    key_id: str | None = field(default=None, compare=False)

    def body(self) -> str:
        return (f"{ORIGIN} {self.campaign}\nrevision {self.revision}\ncommands {self.commands}\n"
                f"head {self.head}\ntime {self.time}\n")

    def text(self, public_key: str) -> str:
        """The signed note, as pasted into a thread."""
        name = signer_name(self.campaign)
        signed = base64.b64encode(key_id(name, public_key) + bytes.fromhex(self.signature)).decode()
        return f"{self.body()}\n{SIGNATURE_DASH} {name} {signed}\n"

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k not in ("key_name", "key_id")}

    def signed_by(self, public_key: str) -> bool:
        """Whether the signature is the campaign key's, over exactly these fields (and, as pasted,
        under its key name and key id)."""
        name = signer_name(self.campaign)
        if self.key_name is not None and (self.key_name, self.key_id) != (name, key_id(name, public_key).hex()):
            return False
        return _ed25519_verifies(public_key, self.signature, self.body().encode())


@dataclass(frozen=True)
class TreeHead:
    """A C2SP checkpoint of a revision's Merkle tree: `size` commands under `root` (hex).

    `signatures` are every signature line it carries: the log's own (the campaign key's, under its
    origin; revision N's checkpoints signed before, under `key_name`, the campaign's) and witnesses'
    cosignatures; which is whose is told by the keys a verifier trusts.
    """

    campaign: str
    revision: int
    size: int
    root: str
    key_name: str
    signatures: tuple[Signature, ...] = ()

    @property
    def commands(self) -> int:
        return self.size

    @property
    def origin(self) -> str:
        return self.key_name if self.revision == 1 else f"{self.key_name}/r{self.revision}"

    def body(self) -> str:
        return CheckpointText(self.origin, self.size, bytes.fromhex(self.root), (f"revision {self.revision}",)).text

    @property
    def note(self) -> Note:
        return Note(self.body(), self.signatures)

    def text(self, public_key: str | None = None) -> str:
        """The signed note with every signature it carries, as pasted into a thread."""
        return str(self.note)

    def with_signatures(self, signatures: Sequence[Signature]) -> TreeHead:
        return TreeHead(self.campaign, self.revision, self.size, self.root, self.key_name,
                        self.note.with_signatures(signatures).signatures)

    def signed_by(self, public_key: str) -> bool:
        """Whether the campaign's key signed it under its key name and key id; lines of other keys
        are ignored, as the spec says, and at least one must be the campaign key's."""
        try:
            campaign_key = Verifier(self.key_name, ED25519, bytes.fromhex(public_key))
            verified = self.note.verified(verifiers_for(self.origin, [campaign_key]))
        except (NoteError, ValueError):
            return False
        return bool(verified)

    def as_dict(self) -> dict[str, Any]:
        return {"origin": self.origin, "size": self.size, "root": self.root, "key_name": self.origin,
                "note": str(self.note)}

    @classmethod
    def from_note(cls, note: Note) -> TreeHead:
        """A note read as a Rollbook checkpoint: its origin names the campaign and revision, its
        extension line says the revision again; NoteError if it does not."""
        text = CheckpointText.parse(note.text)
        parsed = parse_origin(text.origin)
        if parsed is None:
            raise NoteError(f"{text.origin!r} is not a Rollbook log's origin ([HOST/]rollbook/CAMPAIGN[/rN])")
        _, campaign, revision = parsed
        stated = [_REVISION_LINE.fullmatch(line) for line in text.extensions]
        if len(stated) != 1 or stated[0] is None or int(stated[0].group(1)) != revision:
            raise NoteError(f"checkpoint of {text.origin}: its extension line is 'revision {revision}', not "
                            f"{' / '.join(text.extensions) or 'missing'}")
        return cls(campaign, revision, text.size, text.root.hex(), str(name_of_origin(text.origin)), note.signatures)


def sign(
    signer: Signer, public_key: str, campaign: str, revision: int, commands: int, head: str, time: str,
) -> Checkpoint | None:
    """An old-form checkpoint signed by the campaign's key; None where that key is not kept."""
    unsigned = Checkpoint(campaign, revision, commands, head, time, signature="")
    signature = signer.sign(campaign, unsigned.body().encode(), public_key)
    return None if signature is None else Checkpoint(campaign, revision, commands, head, time, signature)


def sign_tree_head(
    signer: Signer, public_key: str, campaign: str, revision: int, size: int, root: str, host: str | None = None,
) -> TreeHead | None:
    """A C2SP checkpoint of `size` commands under `root`, signed by the campaign's key (the same
    body always gets the same bytes: Ed25519 is deterministic); None where that key is not kept."""
    unsigned = TreeHead(campaign, revision, size, root, key_name(campaign, host))
    signature = signer.sign(campaign, unsigned.body().encode(), public_key)
    if signature is None:
        return None
    line = Signature(unsigned.origin, key_id(unsigned.origin, public_key), bytes.fromhex(signature))
    return unsigned.with_signatures([line])


def parse(text: str, *, where: str) -> Checkpoint | TreeHead:
    """The first checkpoint of a text (`parse_all`)."""
    return parse_all(text, where=where)[0]


def parse_all(text: str, *, where: str) -> list[Checkpoint | TreeHead]:
    """Every checkpoint in a text as pasted (signed notes of either form, with whatever a forum
    adds around them: a thread of several chapters holds several) or as JSON; at least one."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return _from_json(stripped, where)
    lines = [line.strip() for line in stripped.replace("\r\n", "\n").split("\n")]
    found: list[tuple[int, Checkpoint | TreeHead]] = []
    problems: list[str] = []
    for start, line in enumerate(lines):
        try:
            if line.startswith(ORIGIN + " "):
                found.append((start, _old_form(lines, start)))
            elif _looks_like_a_tree_head(lines, start):
                found.append((start, TreeHead.from_note(_note_at(lines, start))))
        except (NoteError, StopIteration, ValueError, KeyError) as error:
            problems.append(f"line {start + 1}: {error}")
    if problems:
        raise CommandRejected(
            "{where}: a checkpoint in it is malformed ({problems})",
            field="checkpoint", where=where, problems="; ".join(problems),
        )
    if not found:
        raise CommandRejected(
            "{where}: no checkpoint in it (expected a signed note: the lines 'ORIGIN', size and root hash of "
            "`rollbook checkpoint`, or the old '{origin} NAME', revision, commands, head, time; a blank line and the "
            "'{signature_dash}' signature lines)",
            field="checkpoint", where=where, origin=ORIGIN, signature_dash=SIGNATURE_DASH,
        )
    return [checkpoint for _, checkpoint in found]


def _from_json(stripped: str, where: str) -> list[Checkpoint | TreeHead]:
    """`rollbook checkpoint --json`: the old form's fields, and the new form's note (if it has one)."""
    try:
        data = json.loads(stripped)
        found: list[Checkpoint | TreeHead] = []
        if "head" in data:
            found.append(Checkpoint(str(data["campaign"]), int(data["revision"]), int(data["commands"]),
                                    str(data["head"]), str(data["time"]), str(data["signature"])))
        if "note" in data:
            found.append(TreeHead.from_note(parse_note(str(data["note"]))))
        if not found:
            raise KeyError("head")
        return found
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise CommandRejected(
            "{where}: not a checkpoint in JSON ({error})",
            field="checkpoint", where=where, error=error,
        ) from None


def _old_form(lines: list[str], start: int) -> Checkpoint:
    fields = dict(line.split(" ", 1) for line in lines[start + 1:start + 5])
    signature_line = next(line for line in lines[start + 5:] if line.startswith(SIGNATURE_DASH))
    name, signed = signature_line[2:].rsplit(" ", 1)
    raw = base64.b64decode(signed, validate=True)
    return Checkpoint(
        campaign=lines[start][len(ORIGIN) + 1:], revision=int(fields["revision"]), commands=int(fields["commands"]),
        head=fields["head"], time=fields["time"], signature=raw[4:].hex(), key_name=name, key_id=raw[:4].hex(),
    )


def _looks_like_a_tree_head(lines: list[str], start: int) -> bool:
    """An origin line, then a tree size and a 32-byte base64 root: a C2SP checkpoint's first lines."""
    if start + 2 >= len(lines) or not lines[start] or " " in lines[start]:
        return False
    if not re.fullmatch(r"0|[1-9][0-9]*", lines[start + 1]) or not re.fullmatch(r"[A-Za-z0-9+/]{43}=", lines[start + 2]):
        return False
    return True


def _note_at(lines: list[str], start: int) -> Note:
    """The signed note whose text begins at line `start`: up to its blank line, then its signature lines."""
    end = lines.index("", start)
    signatures = []
    for line in lines[end + 1:]:
        if not line.startswith(SIGNATURE_DASH + " "):
            break
        signatures.append(line)
    if not signatures:
        raise NoteError(f"checkpoint {lines[start]!r} carries no signature line")
    return parse_note("\n".join(lines[start:end]) + "\n\n" + "\n".join(signatures) + "\n")


def root_at(chain: Sequence[str], size: int) -> str:
    """The root (hex) of the tree whose leaves are the first `size` commands of `chain` (their chain hashes)."""
    peaks: list[bytes] = []
    for seq, head in enumerate(chain[:size], 1):
        merkle.append(peaks, seq - 1, command_leaf(seq, head))
    return merkle.peaks_root(peaks).hex()


def hold(checkpoint: Checkpoint | TreeHead, where: str, chain: list[str], public_key: str | None) -> list[str]:
    """What is wrong with a store whose chain hashes, in order, are `chain`, held to `checkpoint`."""
    from .chain import GENESIS_CHAIN

    problems = []
    if public_key is None:
        problems.append(f"checkpoint {where}: the campaign has no signing key recorded to check it with")
    elif not checkpoint.signed_by(public_key):
        problems.append(f"checkpoint {where}: its signature is not the campaign's key's (forged or edited)")
    if checkpoint.commands > len(chain):
        problems.append(f"checkpoint {where}: it was signed at {checkpoint.commands} commands, the store holds "
                        f"{len(chain)}: the history was cut")
    elif isinstance(checkpoint, TreeHead):
        root = root_at(chain, checkpoint.size)
        if root != checkpoint.root:
            problems.append(f"checkpoint {where}: at {checkpoint.size} commands its root is {checkpoint.root[:16]}…, "
                            f"the store's is {root[:16]}…: the history was rewritten")
    else:
        head = chain[checkpoint.commands - 1] if checkpoint.commands else GENESIS_CHAIN
        if head != checkpoint.head:
            problems.append(f"checkpoint {where}: at {checkpoint.commands} commands its head is "
                            f"{checkpoint.head[:16]}…, the store's is {head[:16]}…: the history was rewritten")
    return problems
