"""The post page: a form for the commands a member may issue, built from the command models' JSON Schema.

It offers a player only his own characters, shows the odds of each outcome before posting,
and sends the command through the same path as `POST /campaigns/{c}/commands`: the same
rules, the signed-in user as the actor, the form's own idempotency key (a double click posts
once). The salt is filled from the browser's random source, so the seed holder cannot know a
roll before the player posts it.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse

from ..commands.cli.fields import parse_field_values
from ..domain.accounts import actor_for
from ..domain.errors import CommandRejected
from ..server.errors import HTTPError
from ..server.posting import Refusal, post_command
from ..server.state import jsonable
from .pages import member, render
from .session import check_csrf

router = APIRouter(include_in_schema=False)
#: Fields the form fills itself, or that the path and the sign-in decide.
FILLED = {"type", "campaign", "actor", "id", "at", "salt"}


def commands_for_role(ruleset: str, role: str) -> dict[str, type]:
    """The command models a member in `role` may send (a player: none that is the GM's alone)."""
    from ..commands.catalogue import commands_for

    models = {name: model for name, (model, _) in commands_for(ruleset).items()}
    if role == "player":
        models = {name: m for name, m in models.items() if not getattr(m, "gm_only", False)}
    return dict(sorted(models.items()))


def fields_of(model: type) -> list[dict[str, Any]]:
    schema = model.model_json_schema()  # type: ignore[attr-defined]
    required = set(schema.get("required", []))
    rows = []
    for name, spec in schema.get("properties", {}).items():
        if name in FILLED:
            continue
        options = spec.get("enum") or next((s.get("enum") for s in spec.get("anyOf", []) if "enum" in s), None)
        rows.append({"name": name, "required": name in required, "description": spec.get("description", ""),
                     "type": spec.get("type") or "/".join(s.get("type", "") for s in spec.get("anyOf", [])),
                     "options": options})
    return rows


def _context(request: Request, campaign: str, role: str, chosen: str | None) -> dict[str, Any]:
    state = request.app.state.rollbook
    user = request.state.user
    with state.lock:
        doc = state.reader.campaign(campaign)
    models = commands_for_role(doc["ruleset"], role)
    own = sorted(name for name, entry in doc["members"].items()
                 if role != "player" or entry.get("player") == user)
    chosen = chosen if chosen in models else next(iter(models), None)
    return {"campaign": campaign, "role": role, "doc": doc, "types": list(models), "chosen": chosen,
            "fields": fields_of(models[chosen]) if chosen else [], "own": own,
            "salted": chosen is not None and "salt" in models[chosen].model_fields,  # type: ignore[attr-defined]
            "key": secrets.token_hex(16)}


@router.get("/campaigns/{campaign}/post", response_class=HTMLResponse)
def post_page(request: Request, campaign: str, type: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    role = member(request, campaign, "gm", "player")
    return render(request, "post.html", **_context(request, campaign, role, type))


@router.get("/campaigns/{campaign}/fragments/post-fields", response_class=HTMLResponse)
def post_fields(request: Request, campaign: str, type: Annotated[str | None, Query(max_length=100)] = None) -> HTMLResponse:
    role = member(request, campaign, "gm", "player")
    return render(request, "_post_fields.html", **_context(request, campaign, role, type))


async def _command_of(request: Request) -> dict[str, Any]:
    """The form's fields as a command object: each value as `rollbook post FIELD=VALUE` reads it."""
    form = await request.form()
    words = [f"{name}={value}" for name, value in form.multi_items()
             if name not in {"csrf", "key", "type", "compare"} and isinstance(value, str) and value != ""]
    body = parse_field_values(words)
    for name in ("salt",):
        if name in body:
            body[name] = str(form[name])  # a salt is text even when it looks like a number
    body["type"] = str(form.get("type", ""))
    return body


@router.post("/campaigns/{campaign}/post", response_class=HTMLResponse)
async def post_submit(request: Request, campaign: str) -> HTMLResponse:
    member(request, campaign, "gm", "player")
    form = await request.form()
    check_csrf(request, form.get("csrf"))  # type: ignore[arg-type]
    state = request.app.state.rollbook
    try:
        body = await _command_of(request)
        answer, _ = post_command(state, campaign, request.state.user, str(form.get("key") or secrets.token_hex(16)),
                                 None, body)
    except CommandRejected as error:
        return render(request, "_posted.html", status=422, error=error.message)
    except Refusal as refusal:
        return render(request, "_posted.html", status=refusal.status, error=_reason(refusal.body))
    except HTTPError as error:
        return render(request, "_posted.html", status=error.status_code, error=str(error.detail))
    request.app.state.bell.ring()
    return render(request, "_posted.html", status=201, answer=answer)


@router.post("/campaigns/{campaign}/post/odds", response_class=HTMLResponse)
async def post_odds(request: Request, campaign: str) -> HTMLResponse:
    """The chance of each outcome of the command as the form stands, decided on the live sheet."""
    role = member(request, campaign, "gm", "player")
    form = await request.form()
    check_csrf(request, form.get("csrf"))  # type: ignore[arg-type]
    state = request.app.state.rollbook
    try:
        body = await _command_of(request)
        body.pop("salt", None)
        with state.lock:
            state.reader.catch_up()
            odds = jsonable(state.service.odds(campaign, {**body, "actor": actor_for(role, request.state.user)}))
    except CommandRejected as error:
        return render(request, "_odds.html", error=error.message)
    return render(request, "_odds.html", odds=odds)


def _reason(body: dict[str, Any]) -> str:
    error = body.get("error", {})
    field = error.get("field")
    return f"{field}: {error.get('reason')}" if field else str(error.get("reason", body))
