"""The integrations' routes: Discord's Interactions Endpoint, and the GM's HTTP equivalents of the CLI.

| route | who | what |
|---|---|---|
| `POST /discord/interactions` | Discord (signed) | PING → PONG; slash commands; autocomplete |
| `PUT`/`DELETE`/`GET /campaigns/{c}/discord` | GM / GM / members | bind a channel `{"channel"}`, unbind, the mirror's status |
| `PUT /campaigns/{c}/members/{user}/discord` | GM | link the member's Discord account `{"discord"}` |
| `POST /campaigns/{c}/members/{user}/discord-code` | GM | a one-time link code for a member |
| `POST /discord/link-code` | anyone signed in | a one-time link code for oneself |
| `GET /discord/commands` | anyone signed in | the slash commands' JSON (`rollbook discord commands --json`) |
| `POST`/`GET /campaigns/{c}/webhooks`, `DELETE …/{id}` | GM | an outgoing webhook (its secret shown once), the list, removal |
| `GET /campaigns/{c}/lines/{id}?format=` | members | a command's line to paste into a forum (text, markdown, bbcode) |

Only `/discord/interactions` needs to be reachable by Discord; the rest sign in as any route does.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from ..domain.accounts import ROLES, check_user_name
from ..hosting.accounts import Membership
from ..language import chat_language, gettext, speaking
from ..hosting.refusals import Refusal
from ..server.auth import CAMPAIGN, in_role, membership, posting, signed_in
from ..server.body import json_object
from .interactions import APPLICATION_COMMAND, AUTOCOMPLETE, CHOICES, DEFERRED, PING, PONG, Desk, Incoming, refused
from .lines import FORMATS, render, struck_note, told_by_id
from .signature import MAX_AGE_SECONDS, fresh, signed_by
from .slash import application_commands

router = APIRouter()
#: The largest interaction taken: Discord's are a few kilobytes.
MAX_INTERACTION = 100_000
FORMAT = Annotated[str, Query(pattern="^(text|markdown|bbcode)$", description="text, markdown or bbcode.")]
REVISION = Annotated[int | None, Query(ge=1, le=1_000_000, description="The revision the command was played in "
                                                                     "(default: the current one).")]


def _desk(request: Request) -> Desk:
    return request.app.state.discord


def _unsigned(reason: str) -> JSONResponse:
    return JSONResponse({"error": {"field": "X-Signature-Ed25519 header", "reason": reason}}, status_code=401)


@router.post("/discord/interactions", tags=["discord"],
             responses={401: {"description": "a bad signature, or a timestamp more than 5 minutes old"},
                        400: {"description": "signed, but not a JSON object"},
                        413: {"description": f"a body over {MAX_INTERACTION} bytes"}})
async def interactions(request: Request) -> Response:
    """Discord's Interactions Endpoint URL: every request signed with the application's key, else 401."""
    desk = _desk(request)
    raw = await request.body()
    if len(raw) > MAX_INTERACTION:
        raise Refusal("too_large", "body", f"an interaction of {len(raw)} bytes; at most {MAX_INTERACTION}")
    settings = desk.keeper.load()
    if not settings.public_key:  # no key to check a signature with: none holds
        return _unsigned("no Discord application is set up here (`rollbook discord setup --application-id ID "
                         "--public-key HEX`), so no signature can be checked")
    signature = request.headers.get("X-Signature-Ed25519", "")
    timestamp = request.headers.get("X-Signature-Timestamp", "")
    if not signed_by(settings.public_key, signature, timestamp, raw):
        return _unsigned("invalid request signature")
    if not fresh(timestamp):
        return _unsigned(f"the signed timestamp is more than {MAX_AGE_SECONDS // 60} minutes from now (a replay?)")
    try:
        data = json.loads(raw)
    except ValueError:
        raise Refusal("malformed", "body", "not JSON") from None
    if not isinstance(data, dict):
        raise Refusal("malformed", "body", "expected a JSON object")
    incoming = Incoming(raw, signature, timestamp, data)
    kind = data.get("type")
    if kind == PING:
        return JSONResponse({"type": PONG})
    if kind == AUTOCOMPLETE:
        choices = await run_in_threadpool(desk.autocomplete, incoming)
        return JSONResponse({"type": CHOICES, "data": {"choices": choices}})
    if kind != APPLICATION_COMMAND:
        with speaking(chat_language(data.get("locale"))):
            return JSONResponse(refused(gettext("Rollbook answers its slash commands only.")).response())
    return await _answer(request, desk, incoming)


async def _answer(request: Request, desk: Desk, incoming: Incoming) -> Response:
    """The answer at once if it is ready within `defer_after` seconds; else deferred (type 5) and edited in."""
    work = asyncio.ensure_future(run_in_threadpool(desk.handle, incoming))
    try:
        reply = await asyncio.wait_for(asyncio.shield(work), timeout=desk.defer_after)
    except TimeoutError:
        pass
    else:
        def told() -> None:  # after Discord has the answer: the mirror need not post it
            desk.answered(reply, "answered")
            request.app.state.bell.ring()

        return JSONResponse(reply.response(), background=BackgroundTask(run_in_threadpool, told))
    sent = asyncio.Event()

    async def follow_up() -> None:
        reply = await work
        await sent.wait()
        if reply.answers is not None:  # stored: the mirror edits its line in, durably
            await run_in_threadpool(desk.answered, reply, "deferred")
            request.app.state.bell.ring()
        else:
            await run_in_threadpool(desk.edit_original, incoming, reply.content)

    pending = request.app.state.discord_follow_ups
    task = asyncio.ensure_future(follow_up())
    pending.add(task)
    task.add_done_callback(pending.discard)
    return JSONResponse({"type": DEFERRED}, background=BackgroundTask(_set, sent))


async def _set(event: asyncio.Event) -> None:
    event.set()


# --- the GM's equivalents of the command line ---------------------------------------------------


def _one_field(name: str, description: str, example: str) -> dict[str, Any]:
    """The OpenAPI request body of a route that takes `{name: "…"}` and nothing else."""
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": [name], "additionalProperties": False,
        "properties": {name: {"type": "string", "description": description}}}, "example": {name: example}}}}}


async def _field(request: Request, name: str) -> str:
    body = await json_object(request)
    value = body.get(name)
    if not isinstance(value, str) or set(body) - {name}:
        raise Refusal("invalid", f"body.{name}", f"send {{\"{name}\": \"…\"}} (a Discord id, as text), nothing else")
    return value


@router.put("/campaigns/{campaign}/discord", tags=["discord"],
            openapi_extra=_one_field("channel", "The channel's or thread's id (Copy Channel ID).", "1234567890"))
async def bind(request: Request, member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
    """`rollbook discord bind`: play the campaign in a channel or thread and mirror it there (GM)."""
    channel = await _field(request, "channel")

    def bind_it() -> Any:
        with request.app.state.rollbook.writing(member.campaign):
            return _desk(request).members.bind(member.campaign, channel, by=member.user)

    bound = await run_in_threadpool(bind_it)  # the store off the event loop, as every write
    return {"campaign": bound.campaign, "channel": bound.channel, "since": bound.since}


@router.delete("/campaigns/{campaign}/discord", tags=["discord"])
def unbind(request: Request, member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
    """`rollbook discord bind --unbind`: no channel plays or mirrors the campaign any more (GM)."""
    with request.app.state.rollbook.writing(member.campaign):
        _desk(request).members.unbind(member.campaign, by=member.user)
    return {"campaign": member.campaign, "channel": None}


@router.get("/campaigns/{campaign}/discord", tags=["discord"])
def discord_status(request: Request, member: Membership = Depends(in_role(*ROLES))) -> dict[str, Any]:
    """`rollbook discord status --json`: the mirror's backlog per target; its last errors to the GM only."""
    from .mirror import status, without_errors

    shown = status(request.app.state.rollbook.store, _desk(request).keeper, member.campaign)
    return shown if member.role == "gm" else without_errors(shown)


def _member_of(request: Request, member: Membership, user: str) -> None:
    check_user_name(user)
    if request.app.state.rollbook.accounts.role_of(member.campaign, user) is None:
        raise Refusal("not_found", "user", f"{user} is not a member of {member.campaign}")


@router.put("/campaigns/{campaign}/members/{user}/discord", tags=["discord"],
            openapi_extra=_one_field("discord", "The member's Discord user id.", "1234567890"))
async def link(request: Request, user: str, member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
    """`rollbook users link USER --discord ID` for a member of the GM's campaign."""
    discord = await _field(request, "discord")

    def link_them() -> None:
        with request.app.state.rollbook.writing(member.campaign):
            _member_of(request, member, user)
            _desk(request).members.link(user, discord, by=member.user)

    await run_in_threadpool(link_them)
    return {"user": user, "discord": discord}


@router.post("/campaigns/{campaign}/members/{user}/discord-code", tags=["discord"])
def member_code(request: Request, user: str, member: Membership = Depends(in_role("gm")),
                _within_the_rate_limit: str = Depends(posting)) -> dict[str, Any]:
    """`rollbook users link-code USER` for a member of the GM's campaign: he types it as `/rb link code:…`."""
    with request.app.state.rollbook.writing(member.campaign):
        _member_of(request, member, user)
        code, expires = _desk(request).members.new_code(user, by=member.user)
    return {"user": user, "code": code, "expires": expires.isoformat(timespec="seconds")}


@router.post("/discord/link-code", tags=["discord"])
def own_code(request: Request, user: str = Depends(posting)) -> dict[str, Any]:
    """A one-time code for the signed-in user himself, to type in Discord as `/rb link code:…`."""
    code, expires = _desk(request).members.new_code(user, by=user)
    return {"user": user, "code": code, "expires": expires.isoformat(timespec="seconds")}


@router.get("/discord/commands", tags=["discord"])
def commands(_: str = Depends(signed_in)) -> list[dict[str, Any]]:
    """`rollbook discord commands --json`: the slash commands, as `PUT /applications/{id}/commands` takes them."""
    return application_commands()


@router.post("/campaigns/{campaign}/webhooks", tags=["discord"], status_code=201,
             openapi_extra=_one_field("url", "Where each line is POSTed: https://, to a public address (http:// and "
                                      "other addresses only in a range `rollbook serve --allow-webhook-network` "
                                      "allowed), no user or password in it.", "https://example.org/hook"))
async def add_webhook(request: Request, member: Membership = Depends(in_role("gm")),
                      _within_the_rate_limit: str = Depends(posting)) -> dict[str, Any]:
    """`rollbook webhook add`: every line of the campaign POSTed to a URL, signed; the secret is shown once (GM)."""
    from .webhook import add

    url = await _field(request, "url")
    state = request.app.state.rollbook

    def add_it() -> Any:
        with state.writing(member.campaign):
            return add(_desk(request).keeper, state.store, member.campaign, url, None, request.app.state.webhook_reach)

    webhook = await run_in_threadpool(add_it)
    return {**webhook.shown(), "secret": webhook.secret}


@router.get("/campaigns/{campaign}/webhooks", tags=["discord"])
def webhooks(request: Request, member: Membership = Depends(in_role("gm"))) -> list[dict[str, Any]]:
    """The campaign's webhooks, without their secrets (GM)."""
    return [w.shown() for w in _desk(request).keeper.load().webhooks if w.campaign == member.campaign]


@router.delete("/campaigns/{campaign}/webhooks/{webhook}", tags=["discord"])
def remove_webhook(request: Request, webhook: str, member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
    """`rollbook webhook remove`: the campaign's lines are no longer sent there (GM)."""
    from .webhook import remove

    with request.app.state.rollbook.writing(member.campaign):
        remove(_desk(request).keeper, member.campaign, webhook)
    return {"campaign": member.campaign, "removed": webhook}


def page_reader(request: Request, campaign: str = CAMPAIGN) -> Membership:
    """A member of the campaign, signed in by a Bearer header or by the pages' session cookie (the roll page asks)."""
    from ..web.session import user_of

    user = user_of(request)
    if user is None:
        raise Refusal("signed_out", "Authorization header", "sign in: send Authorization: Bearer TOKEN")
    return membership(request, campaign, user)


@router.get("/campaigns/{campaign}/lines/{command_id}", tags=["discord"], responses={
    401: {"description": "Not signed in (neither a Bearer token nor the pages' session)."},
    403: {"description": "Signed in, but not a member of the campaign."},
    404: {"description": "No such campaign, or no command of that id in it."}})
def line(request: Request, command_id: str, format: FORMAT = "text", revision: REVISION = None,
         member: Membership = Depends(page_reader)) -> Response:
    """`rollbook line`: a command's line with its faces, outcome, nonce and proof link, to paste into a forum.

    In the current revision, or in `revision`; a command a ruling struck since is told struck, with who struck
    it and why. A browser (or htmx) gets the roll page's partial: every format, each with a button to copy it.
    """
    from ..replay.struck import struck_since
    from ..replay.timetravel import key_of

    from ..domain.errors import UnknownName

    state = request.app.state.rollbook
    state.caught_up()
    with state.writing(member.campaign):  # its words name members from the cached campaign, none changing meanwhile
        try:
            key = key_of(state.reader, member.campaign, revision)
            message = told_by_id(state.store, key, command_id, _desk(request).keeper.load().proof_base)
        except UnknownName as error:
            raise Refusal("not_found", error.field or "command_id", error.message) from None
        message.struck = struck_note(struck_since(state.reader, member.campaign, key, command_id), message.language)
    if "text/html" in request.headers.get("accept", "") or request.headers.get("hx-request") == "true":
        from ..web.pages import templates

        return templates.TemplateResponse(request, "_forum_lines.html", {
            "lines": [(form, render(message, form)) for form in FORMATS], "command_id": command_id})
    return JSONResponse({"command_id": command_id, "format": format, "text": render(message, format)})
