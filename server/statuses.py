"""Every status a route can answer, in the OpenAPI document: read from what the route depends on.

A route that signs the user in can answer 401; one of a campaign's members, 403 and 404; one
within the POST rate limit, 429; one that reads a JSON body, 413, 415 and 422; every route, 503 when
the store fails (errors.py). The statuses a route answers for reasons of its own (412, 409, a dry
run's 200, a read's 304) it declares itself. Each error is documented with the body it has,
`{"error": {"field", "reason", ...}}`, in place of FastAPI's default validation error. So a route
another router adds is documented by what it depends on, without a list to keep up to date, and
schemathesis (tests/server/test_fuzz.py) holds every answer to the statuses documented.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute

from .auth import campaign_member, posting, token_given

DESCRIPTIONS = {
    304: "Not modified: If-None-Match holds the current ETag (no body).",
    401: "Not signed in: no token, or one unknown, replaced or revoked (WWW-Authenticate: Bearer).",
    403: "Signed in, but not a member of the campaign, or not in a role this route needs.",
    404: "No such campaign (or no such character, ship, enemy or user).",
    413: "A body over 1 MB.",
    415: "A body not declared JSON: send Content-Type: application/json.",
    422: "Malformed (the field named), or refused by the rules with the CLI's error; nothing written.",
    429: "More POSTs a minute than the server allows this token; Retry-After says when to try again.",
    503: "The store failed: retry (a POST with the same Idempotency-Key); Retry-After says when.",
}

ERROR_SCHEMA = {
    "type": "object", "required": ["error"],
    "properties": {"error": {
        "type": "object", "required": ["reason"],
        "properties": {
            "field": {"anyOf": [{"type": "string"}, {"type": "null"}],
                      "description": "The field, header or parameter at fault, if one is."},
            "reason": {"type": "string", "description": "Why, in words."},
            "type": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A refused command's type."},
            "id": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "A refused command's id."},
        },
    }},
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}


def _calls(dependant: Dependant) -> Iterator[Any]:
    for dependency in dependant.dependencies:
        yield dependency.call
        yield from _calls(dependency)


def api_routes(routes: list[Any]) -> Iterator[APIRoute]:
    """Every API route, also those of routers included (which a newer FastAPI keeps as the router itself)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):
            yield from api_routes(route.original_router.routes)


def statuses_of(route: APIRoute) -> set[int]:
    """The statuses the route's dependencies and body can answer, besides its own."""
    calls = set(_calls(route.dependant))
    found = {503}
    if token_given in calls:
        found.add(401)
    if campaign_member in calls:
        found |= {403, 404}
    if posting in calls:
        found.add(429)
    extra = route.openapi_extra or {}
    if "requestBody" in extra:
        found |= {413, 415, 422}
    if route.dependant.path_params or route.dependant.query_params or route.dependant.header_params:
        found.add(422)
    return found


def document(app: FastAPI) -> None:
    """Give `app` an OpenAPI document listing every status each route answers, with the error body."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        document.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
        for schemas in ("HTTPValidationError", "ValidationError"):  # FastAPI's body is not the one sent
            document["components"]["schemas"].pop(schemas, None)
        for route in api_routes(app.routes):
            if not route.include_in_schema:
                continue
            for method in route.methods:
                operation = document["paths"][route.path_format].get(method.lower())
                if operation is not None:
                    _complete(operation["responses"], statuses_of(route))
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _complete(responses: dict[str, Any], statuses: set[int]) -> None:
    for status in sorted(statuses | {int(code) for code in responses if code.isdigit()}):
        entry = responses.setdefault(str(status), {"description": DESCRIPTIONS.get(status, "")})
        if status == 422 and entry.get("description") == "Validation Error":
            entry["description"] = DESCRIPTIONS[422]
        if status >= 400:
            entry["content"] = {"application/json": {"schema": ERROR_REF}}
        elif status == 304:
            entry.pop("content", None)
