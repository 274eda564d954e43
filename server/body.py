"""Reading a request's JSON body: declared JSON, at most MAX_BODY bytes, strict JSON, one object.

The body is read here rather than by FastAPI so that it gets the command file's own
strictness: a key given twice, NaN or Infinity, bad UTF-8 are refused, naming what is wrong.
A body not declared JSON (`Content-Type: text/plain`, a form's, none) is refused with 415 before
it is read: a page of another site can send those without asking the browser (CORS preflight).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request

from ..hosting.refusals import Refusal

#: The largest body taken (a command, a ruling, a role): anything bigger is refused before it is read whole.
MAX_BODY = 1_000_000


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise Refusal("invalid", f"body.{key}"[:100], "given twice in one object (the value would be ambiguous)")
        data[key] = value
    return data


def _no_constant(name: str) -> Any:
    raise Refusal("invalid", "body", f"broken JSON: {name} is not a JSON number")


def declared_json(content_type: str) -> bool:
    """Whether a Content-Type header declares JSON: application/json, or a type of it (application/…+json)."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))


async def json_object(request: Request, limit: int = MAX_BODY) -> dict[str, Any]:
    return parsed(await json_bytes(request, limit))


async def json_bytes(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body as sent, declared JSON and within `limit` bytes; `parsed` reads it."""
    given = request.headers.get("content-type", "")
    if not declared_json(given):
        raise Refusal("not_json", "Content-Type header", f"send the body as JSON with Content-Type: application/json "
                                                    f"(got {given[:100] or 'no Content-Type'})")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise Refusal("too_large", "body", f"a body of {declared} bytes; at most {limit}")
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise Refusal("too_large", "body", f"a body of more than {limit} bytes")
    return bytes(raw)


def parsed(raw: bytes) -> dict[str, Any]:
    """The one JSON object `raw` holds, strictly read (a key twice, NaN, bad UTF-8 refused)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise Refusal("invalid", "body", f"not UTF-8 text (byte {error.start + 1})") from None
    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=_object)
    except json.JSONDecodeError as error:
        raise Refusal("invalid", "body", f"broken JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise Refusal("invalid", "body", "broken JSON: nested too deeply") from None
    except ValueError:
        raise Refusal("invalid", "body", "broken JSON: a number too long to read") from None
    if not isinstance(data, dict):
        raise Refusal("invalid", "body", f"expected a JSON object, got {type(data).__name__}")
    return data
