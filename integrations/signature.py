"""Discord's signature on an interaction: Ed25519 over the timestamp and the body, with the application's key.

Discord signs every request to the Interactions Endpoint URL (`X-Signature-Ed25519`, hex, over
`X-Signature-Timestamp` ‖ the raw body) and sends, now and then, requests with a wrong one to see
that they are refused. A request whose signature does not hold, or whose timestamp is more than
five minutes from now (a recorded request replayed), is refused with 401 before anything is read.
"""

from __future__ import annotations

import time

#: How far from now a signed timestamp may be.
MAX_AGE_SECONDS = 5 * 60


def signed_by(public_key: str, signature: str, timestamp: str, body: bytes) -> bool:
    """Whether `signature` (hex) is the key's Ed25519 signature of `timestamp` followed by `body`."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), timestamp.encode() + body)
    except (InvalidSignature, ValueError):
        return False
    return True


def fresh(timestamp: str, now: float | None = None) -> bool:
    """Whether a signed timestamp (Unix seconds) is within five minutes of now."""
    try:
        signed = float(timestamp)
    except ValueError:
        return False
    return abs((time.time() if now is None else now) - signed) <= MAX_AGE_SECONDS
