"""Every refusal the server gives, as `{"error": {...}}` naming the field at fault; never a 500.

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


class HTTPError(Exception):
    def __init__(self, status: int, field: str | None, reason: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(reason)
        self.status, self.field, self.reason, self.headers = status, field, reason, headers

    def body(self) -> dict[str, Any]:
        return {"error": {"field": self.field, "reason": self.reason}}


def error_response(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)


def command_error_body(error: CommandError) -> dict[str, Any]:
    """The CLI's error for a refused command, without the line: a request is one command."""
    return {"error": {k: v for k, v in error.as_dict().items() if k != "line"}}


def status_of(error: CommandRejected) -> int:
    if isinstance(error, PermissionDenied):
        return 403
    if isinstance(error, UnknownName) and error.field in ("campaign", "user"):
        return 404
    return 422


def _location(loc: tuple[Any, ...]) -> str:
    """`("query", "at")` → `query.at`; `("header", "idempotency-key")` → the header's name."""
    parts = [str(p) for p in loc]
    if parts[:1] == ["header"] and len(parts) > 1:
        return "-".join(word.capitalize() for word in parts[1].replace("_", "-").split("-")) + " header"
    return ".".join(parts)


def install(app: FastAPI) -> None:
    @app.exception_handler(HTTPError)
    async def http_error(_: Request, error: HTTPError) -> JSONResponse:
        return error_response(error.status, error.body(), error.headers)

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
