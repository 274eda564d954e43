"""Checkpoints: a campaign's chain head, signed, short enough to paste into the forum thread.

Whoever runs the store can rewrite it from any point and recompute every hash: nothing
inside the store can tell. A head published outside it can. A checkpoint names the
campaign, its revision, how many commands it has recorded and the hash of the last one,
and when it was signed; it is signed with the campaign's Ed25519 key (kept beside the
store, its public key recorded in the campaign when it was created). `verify --checkpoint`
then fails unless the store's history at that size has exactly that head: a truncation,
a reordering or a rewrite from any earlier point is caught as long as someone kept a
checkpoint from after it (the idea of the transparency logs' signed tree heads, RFC 9162).

The text is a C2SP signed note (https://c2sp.org/signed-note): the body lines, a blank
line, and a signature line `— NAME BASE64(key id ‖ signature)`, where the key id is the
first four bytes of SHA-256(NAME ‖ "\\n" ‖ 0x01 ‖ public key) and the signature is over the
body. Pure and free of I/O: signing goes through a `Signer` the store provides.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .errors import CommandRejected

#: The first word of a checkpoint's body, so a pasted text says what it is.
ORIGIN = "rollbook checkpoint"
#: C2SP's signature type byte for Ed25519 in the key id.
ED25519 = b"\x01"
SIGNATURE_DASH = "\u2014"  # the em dash that opens a signed note's signature line


class Signer(Protocol):
    """The keeper of the campaigns' signing keys (beside the store, never in it)."""

    def public_key(self, campaign: str) -> str:
        """The campaign's public key (hex), its key pair made on first use."""
        ...

    def sign(self, campaign: str, message: bytes, public_key: str) -> str | None:
        """The Ed25519 signature (hex) of `message` by the campaign's key, if the key kept
        here is the one `public_key` names; None if it is not kept here (a copy)."""
        ...


def signer_name(campaign: str) -> str:
    """Whose signature it is: the campaign as players know it (every revision signs alike)."""
    return f"rollbook:{campaign}"


def key_id(name: str, public_key: str) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + bytes.fromhex(public_key)).digest()[:4]


@dataclass(frozen=True)
class Checkpoint:
    campaign: str
    revision: int
    commands: int
    head: str
    time: str
    signature: str  # hex, over `body()`

    def body(self) -> str:
        return (f"{ORIGIN} {self.campaign}\nrevision {self.revision}\ncommands {self.commands}\n"
                f"head {self.head}\ntime {self.time}\n")

    def text(self, public_key: str) -> str:
        """The signed note, as pasted into a thread."""
        name = signer_name(self.campaign)
        signed = base64.b64encode(key_id(name, public_key) + bytes.fromhex(self.signature)).decode()
        return f"{self.body()}\n{SIGNATURE_DASH} {name} {signed}\n"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def signed_by(self, public_key: str) -> bool:
        """Whether the signature is the campaign key's, over exactly these fields."""
        # Imported here, where a signature is checked: most commands neither make nor check one.
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        try:
            Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
                bytes.fromhex(self.signature), self.body().encode()
            )
        except (InvalidSignature, ValueError):
            return False
        return True


def sign(
    signer: Signer, public_key: str, campaign: str, revision: int, commands: int, head: str, time: str,
) -> Checkpoint | None:
    """A checkpoint signed by the campaign's key; None where that key is not kept."""
    unsigned = Checkpoint(campaign, revision, commands, head, time, signature="")
    signature = signer.sign(campaign, unsigned.body().encode(), public_key)
    return None if signature is None else Checkpoint(campaign, revision, commands, head, time, signature)


def parse(text: str, *, where: str) -> Checkpoint:
    """A checkpoint as pasted (the signed note, with whatever a forum adds around it) or as JSON."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
            return Checkpoint(str(data["campaign"]), int(data["revision"]), int(data["commands"]),
                              str(data["head"]), str(data["time"]), str(data["signature"]))
        except (ValueError, KeyError, TypeError) as error:
            raise CommandRejected(f"{where}: not a checkpoint in JSON ({error})", field="checkpoint") from None
    lines = [line.strip() for line in stripped.replace("\r\n", "\n").split("\n")]
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith(ORIGIN + " "))
        fields = dict(line.split(" ", 1) for line in lines[start + 1:start + 5])
        signature_line = next(line for line in lines[start + 5:] if line.startswith(SIGNATURE_DASH))
        signed = base64.b64decode(signature_line.split()[-1], validate=True)
        return Checkpoint(
            campaign=lines[start][len(ORIGIN) + 1:], revision=int(fields["revision"]),
            commands=int(fields["commands"]), head=fields["head"], time=fields["time"],
            signature=signed[4:].hex(),
        )
    except (StopIteration, ValueError, KeyError) as error:
        raise CommandRejected(
            f"{where}: not a checkpoint (expected the lines '{ORIGIN} NAME', revision, commands, head, time, "
            f"a blank line and the '{SIGNATURE_DASH}' signature line){f': {error}' if str(error) else ''}",
            field="checkpoint",
        ) from None


def hold(checkpoint: Checkpoint, where: str, chain: list[str], public_key: str | None) -> list[str]:
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
    else:
        head = chain[checkpoint.commands - 1] if checkpoint.commands else GENESIS_CHAIN
        if head != checkpoint.head:
            problems.append(f"checkpoint {where}: at {checkpoint.commands} commands its head is "
                            f"{checkpoint.head[:16]}…, the store's is {head[:16]}…: the history was rewritten")
    return problems
