"""Every refusal the server gives, as `{"error": {...}}` naming the field at fault; never a 500.

The use cases (hosting/) refuse in no interface's terms (hosting/refusals.py): each kind of refusal is given its
HTTP status here, and nowhere else.

A command refused by the rules has the CLI's error (`type`, `id`, `field`, `reason`); any
other refusal names the `field` (a header, a query parameter, a part of the body) and why.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..commands.parse import CommandError
from ..domain.errors import CommandRejected, PermissionDenied, UnknownName
from ..hosting.refusals import CommandRefused, Kind, Refusal
from ..store.failures import describe, is_store_failure


class NotModified(Exception):
    """If-None-Match named the current ETag: 304, with the ETag and no body."""

    def __init__(self, etag: str) -> None:
        super().__init__(etag)
        self.etag = etag


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether an If-None-Match header names `etag` (weakly compared, as RFC 9110 has it for GET), or is `*`."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in tags or etag.removeprefix("W/") in tags


#: The HTTP status of each kind of refusal (hosting/refusals.py): the one place a refusal is given its status.
STATUS_OF_KIND: dict[Kind, int] = {
    "malformed": 400, "signed_out": 401, "forbidden": 403, "not_found": 404, "conflict": 409, "moved_on": 412,
    "too_large": 413, "not_json": 415, "invalid": 422, "too_fast": 429, "busy": 503,
}
#: How to sign in, sent with every 401 (RFC 9110).
SIGN_IN = {"WWW-Authenticate": "Bearer"}


def error_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)


def status_of(error: Refusal | CommandRefused | CommandRejected) -> int:
    """The status a refusal is answered with (the pages, mounted beside the API, answer with it too)."""
    if isinstance(error, Refusal):
        return STATUS_OF_KIND[error.kind]
    if isinstance(error, CommandRefused):
        return 403 if error.forbidden else 422
    if isinstance(error, PermissionDenied):
        return 403
    if isinstance(error, UnknownName) and error.field in ("campaign", "user"):
        return 404
    return 422


def headers_of(refusal: Refusal) -> dict[str, str]:
    """What the answer to a refusal says besides its body: how to sign in, when to try again."""
    if refusal.kind == "signed_out":
        return dict(SIGN_IN)
    return {"Retry-After": str(refusal.retry_after)} if refusal.retry_after is not None else {}


def refusal_body(refusal: Refusal) -> dict[str, Any]:
    return {"error": {"field": refusal.field, "reason": refusal.reason}}


def command_error_body(error: CommandError) -> dict[str, Any]:
    """The CLI's error for a refused command, without the line: a request is one command."""
    return {"error": {k: v for k, v in error.as_dict().items() if k != "line"}}


def _location(loc: tuple[Any, ...]) -> str:
    """`("query", "at")` → `query.at`; `("header", "idempotency-key")` → the header's name."""
    parts = [str(p) for p in loc]
    if parts[:1] == ["header"] and len(parts) > 1:
        return "-".join(word.capitalize() for word in parts[1].replace("_", "-").split("-")) + " header"
    return ".".join(parts)


def install(app: FastAPI) -> None:
    app.state.status_of = status_of  # the pages say a refusal with the status the API gives it

    @app.exception_handler(Refusal)
    async def refused(_: Request, error: Refusal) -> JSONResponse:
        return error_response(status_of(error), refusal_body(error), headers_of(error) or None)

    @app.exception_handler(CommandRefused)
    async def command_refused(_: Request, error: CommandRefused) -> JSONResponse:
        return error_response(status_of(error), command_error_body(error.error))

    @app.exception_handler(NotModified)
    async def not_modified(_: Request, error: NotModified) -> Response:
        return Response(status_code=304, headers={"ETag": error.etag})

    @app.exception_handler(CommandError)
    async def command_error(_: Request, error: CommandError) -> JSONResponse:
        return error_response(422, command_error_body(error))

    @app.exception_handler(CommandRejected)
    async def rejected(_: Request, error: CommandRejected) -> JSONResponse:
        return error_response(status_of(error), {"error": {"field": error.field, "reason": error.message}})

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0]
        reason = str(first.get("msg", "invalid"))
        if "input" in first and not isinstance(first["input"], dict | list):
            reason += f" (got {json.dumps(first['input'], default=str)[:80]})"
        return error_response(422, {"error": {"field": _location(tuple(first.get("loc", ()))), "reason": reason}})

    @app.exception_handler(StarletteHTTPException)
    async def http_exception(_: Request, error: StarletteHTTPException) -> JSONResponse:
        return error_response(error.status_code, {"error": {"field": None, "reason": str(error.detail)}},
                              getattr(error, "headers", None))

    @app.exception_handler(Exception)
    async def failure(_: Request, error: Exception) -> JSONResponse:
        if is_store_failure(error):
            return error_response(503, {"error": {"field": "store", "reason": f"the store failed: {describe(error)}; "
                                                  "retry with the same Idempotency-Key"}},
                                  {"Retry-After": "1"})
        raise error
