"""The post page: a form for the commands a member may issue, built from the game (post_form.py).

A post goes through the same path as `POST /campaigns/{c}/commands`: the same rules, the same
rate limit, the signed-in user as the actor, the form's own idempotency key (a double click posts
once). Every post gets an answer in the page, and the answer is the form again, carrying the key
of the next post: applied, a fresh key and a fresh salt; refused, the form as it was filled in
with the refusal beside the field it names; the store failed or the user posted too fast, the same
key, so that pressing Post again cannot post twice. So posting again works as often as the player
posts, with or without scripts. An htmx request gets its answer with 200 (htmx swaps nothing else,
and the browser reports every 4xx as an error) and the command's own status in X-Rollbook-Status;
a form posted without scripts gets the whole page with that status.

The salt is filled from the browser's random source (static/rollbook.js), so the seed holder
cannot know a roll before the player posts it.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from ..domain.accounts import actor_for
from ..domain.errors import CommandRejected, UnknownName
from ..language import gettext, refusal
from ..hosting.answers import jsonable
from ..hosting.posting import post_command, version_of
from ..hosting.refusals import CommandRefused, Refusal
from ..store.failures import describe, is_store_failure
from . import field_words, post_form
from .post_form import commands_for_role
from .answers import applied_answer, failure_answer
from .pages import SignInNeeded, member, render
from .moves import book_choices
from .proofs import proof_of
from .session import check_csrf

router = APIRouter(include_in_schema=False)
TYPE = Annotated[str | None, Query(max_length=100)]
#: The form's own inputs, which are not the command's fields.
CONTROLS = {"csrf", "key", "type", "version", "if_unchanged", "role", "card", "decided", "more"}
#: Statuses after which the outcome is unknown or nothing was tried: the next press keeps the key.
SAME_KEY = {429, 503}


def _offer(state: Any, campaign: str, role: str, user: str, model: type | None) -> post_form.Offer:
    """Whom the form offers, with their sheets, as the campaign's current revision has them."""
    key = state.current_key(campaign)
    doc = state.reader.campaign(key)
    members = doc["members"]
    actable = [n for n, e in members.items() if e.get("kind", "character") != "ship"
               and (role == "gm" or e.get("player") == user)]
    sheets = {}
    for name in actable:
        try:
            sheets[name] = state.reader.sheet(key, name)[1]
        except UnknownName:  # not projected yet: only the values beside the stats are missing
            continue
    players = sorted(u for u, r in state.accounts.roster(campaign).items() if r == "player")
    names_a_roll = model is not None and post_form.ROLL in model.model_fields  # type: ignore[attr-defined]
    rolls = post_form.recent_rolls(state.reader.rolls(key), doc["ruleset"]) if names_a_roll else []
    return post_form.Offer(role=role, actable=actable, ships=[n for n, e in members.items() if e.get("kind") == "ship"],
                           players=players, sheets=jsonable(sheets), user=user, rolls=rolls)


def form_context(request: Request, campaign: str, role: str, chosen: str | None,
                 values: dict[str, str] | None = None, key: str | None = None) -> dict[str, Any]:
    """Everything _post_fields.html shows: the command chosen (or the role's usual one), its fields
    filled with `values`, the key of the next post and the campaign's version it was shown at. A form
    opened from a sheet's card (`card`, its id) asks only what the move leaves open (`decided`)."""
    state = request.app.state.rollbook
    user = request.state.user
    values = values or {}
    doc = state.caught_up().campaign(campaign)
    models = commands_for_role(doc["ruleset"], role)
    if chosen not in models:
        recorded = state.reader.views.all(state.current_key(campaign), "command")
        chosen = post_form.default_type(list(models), recorded, role, usual_move(doc["ruleset"]))
    offer = _offer(state, campaign, role, user, models.get(chosen) if chosen else None)
    version = version_of(state, campaign).etag()
    card = values.get("card", "")
    decided = frozenset(values.get("decided", "").split(",")) if card else frozenset()
    rows, dice = post_form.build(models[chosen], offer, values, decided) if chosen else ([], None)
    for row in rows:
        row.choices = book_choices(doc["ruleset"], row.choices)
    if card and len(offer.ships) <= 1:  # the one ship is the crew's: asked only where there is a choice
        rows = [row for row in rows if row.name != "ship"]
    rolls = chosen is not None and models[chosen].throws_dice is not False \
        and _rolls_dice(state, campaign, role, user, chosen, rows)
    return {"campaign": campaign, "role": role, "doc": doc, "types": list(models), "chosen": chosen,
            "fields": rows, "dice": dice if rolls else None, "salted": rolls, "salt": values.get("salt", ""),
            "commitment": values.get("commitment") or _commitment(state, campaign) if rolls else "",
            "key": key or secrets.token_hex(16), "version": version, "if_unchanged": bool(values.get("if_unchanged")),
            "card": card, "decided": ",".join(sorted(decided)),
            "said": [said(row) for row in rows if row.decided], "form_id": f"{card}-post" if card else "post-fields"}


def _commitment(state: Any, campaign: str) -> str:
    """The seed the campaign rolls from now: a form drawn under it posts until the seed is changed (SeedSupply)."""
    with state.writing(campaign):  # read from the cached aggregate, none changing meanwhile
        current = state.service.campaign(state.current_key(campaign))
    return (current.commitment if current is not None else None) or ""


def said(row: post_form.FormField) -> str:
    """What a move decided, in words: the choice as the form would show it ("Wild Carousing (L212)")."""
    return next((shown for value, shown in row.choices if value == row.value), row.value)


def usual_move(ruleset_name: str) -> str:
    """What a player of the game does most: the first of the common moves its Ruleset declares."""
    from ..domain.rulesets import ruleset

    moves = ruleset(ruleset_name).common_moves
    return moves[0][1] if moves else "roll_move"


def _rolls_dice(state: Any, campaign: str, role: str, user: str, chosen: str, rows: list[post_form.FormField]) -> bool:
    """Whether the command, decided as the form stands (each choice at what it shows), throws dice: a
    command that rolls nothing is asked no salt, no faces and no odds. Refused as it stands, it may roll."""
    from ..commands.parse import CommandError, parse_command
    from ..commands.service import RollsNothing

    shown = {row.name: row.value or (row.choices[0][0] if row.kind == "choice" and row.choices and row.required
                                     else "") for row in rows}
    try:
        body = {"type": chosen, **post_form.read(rows, None, shown), "actor": actor_for(role, user)}
        command = parse_command(body, default_campaign=campaign, ruleset_of=state.service.ruleset_of)
        with state.writing(campaign):  # decided on copies of the cached aggregates, none changing meanwhile
            state.service.foresee(command)
    except RollsNothing:
        return False
    except (post_form.FormValueError, CommandError, CommandRejected):
        pass
    return True


@router.get("/campaigns/{campaign}/post", response_class=HTMLResponse)
def post_page(request: Request, campaign: str, type: TYPE = None) -> HTMLResponse:
    role = member(request, campaign, "gm", "player")
    return render(request, "post.html", **form_context(request, campaign, role, type))


@router.get("/campaigns/{campaign}/fragments/post-fields", response_class=HTMLResponse)
def post_fields(request: Request, campaign: str, type: TYPE = None) -> HTMLResponse:
    """The form for another command, or the same one again with a new character chosen (the stats
    shown with his values), keeping what was filled in."""
    role = member(request, campaign, "gm", "player")
    values = {k: v for k, v in request.query_params.items() if k not in {"type", "key", "csrf"}}
    return render(request, "_post_fields.html", **form_context(request, campaign, role, type, values,
                                                              request.query_params.get("key")))


@router.post("/campaigns/{campaign}/post", response_class=HTMLResponse)
async def post_submit(request: Request, campaign: str) -> HTMLResponse:
    form = await request.form()
    posted = {name: value for name, value in form.multi_items() if isinstance(value, str)}
    # Off the event loop, as the API's posts: deciding and storing waits on the store and the campaign's lock.
    return await run_in_threadpool(_submit, request, campaign, posted)


def _submit(request: Request, campaign: str, posted: dict[str, str]) -> HTMLResponse:
    key = posted.get("key") or secrets.token_hex(16)
    chosen = posted.get("type")
    try:
        role = member(request, campaign, "gm", "player")
    except SignInNeeded:
        return _answer(request, {"campaign": campaign},
                       failure_answer(401, None, gettext("you are signed out: your token was replaced or revoked")))
    except Refusal as error:
        # No longer a member, or no longer a player: the form is shown as it was, for the role it was
        # drawn for (its hidden `role` only chooses what is shown; the post is checked again when sent).
        status = request.app.state.status_of(error)
        known = error.kind == "forbidden" and getattr(request.state, "user", None)
        shown = posted.get("role") if posted.get("role") in ("gm", "player") else "player"
        context = form_context(request, campaign, shown, chosen, posted, key) if known else {"campaign": campaign}
        return _answer(request, context, failure_answer(status, error.field, error.reason, error.retry_after))
    state = request.app.state.rollbook
    context = form_context(request, campaign, role, chosen, posted, key)
    try:
        check_csrf(request, posted.get("csrf"))
        state.rate_limit.take(request.state.user)
        body = {"type": context["chosen"], **post_form.read(context["fields"], context["dice"],
                                                            {k: v for k, v in posted.items() if k not in CONTROLS})}
        if posted.get("salt") and context["salted"]:
            body["salt"] = posted["salt"]  # a salt is text even when it looks like a number
            if posted.get("commitment"):  # the seed the form was drawn under: a rotation since refuses the post
                body["commitment"] = posted["commitment"]
        # No `seen`: a salted roll's faces do not depend on what others posted meanwhile, so a form drawn
        # before their posts is as good as a new one. Only a poster who asks is refused for them (If-Match).
        if_match = posted.get("version") if posted.get("if_unchanged") else None
        answer, repeated = post_command(state, campaign, request.state.user, key, if_match, body, short_id=True)
    except post_form.FormValueError as error:
        outcome = failure_answer(422, error.field, error.reason)
    except CommandRefused as refused:
        reason = refusal(refused.rejection) if refused.rejection else refused.error.message
        outcome = failure_answer(request.app.state.status_of(refused), refused.error.field, reason)
    except Refusal as error:
        outcome = failure_answer(request.app.state.status_of(error), error.field, error.reason, error.retry_after)
    except CommandRejected as error:
        outcome = failure_answer(422, error.field, refusal(error))
    except Exception as error:  # noqa: BLE001 - only a failed store is answered here; anything else is a bug
        if not is_store_failure(error):
            raise
        outcome = failure_answer(503, "store", gettext("the store failed: {reason}").format(reason=describe(error)),
                                 wait=1)
    else:
        request.app.state.bell.ring()
        outcome = {**applied_answer(campaign, answer, repeated, proof_of), **_told(request, campaign, answer)}
        # The next post starts from the same choices (his character, the stat); the rest is new.
        keep = {f.name: posted[f.name] for f in context["fields"]
                if (f.kind == "choice" or f.decided) and f.name in posted}
        keep |= {name: posted[name] for name in ("card", "decided") if name in posted}
        return _answer(request, form_context(request, campaign, role, chosen, keep), outcome)
    kept = key if outcome["status"] in SAME_KEY else None
    if outcome.get("field") == "commitment":  # the seed changed: drawn again under the new one, with a new salt
        posted = {name: value for name, value in posted.items() if name not in ("commitment", "salt")}
    return _answer(request, form_context(request, campaign, role, chosen, posted, kept), outcome)


def _told(request: Request, campaign: str, answer: dict[str, Any]) -> dict[str, Any]:
    """What the post changed on the sheets ("P0: luck 1 → 0") and its line to paste into the forum, as
    `rollbook line` tells them: by the teller the integrations install beside the pages (none, nothing told)."""
    tell = getattr(request.app.state, "tell_posted", None)
    if tell is None:
        return {}
    with request.app.state.rollbook.writing(campaign):  # its words name members as cached, none changing meanwhile
        return tell(str(answer["revision_key"]), str(answer["command_id"]))


def _answer(request: Request, context: dict[str, Any], outcome: dict[str, Any]) -> HTMLResponse:
    """The form again with the post's answer in it, the refusal beside the field it names: the
    fragment for htmx, else the whole page."""
    for row in context.get("fields", []) + ([context["dice"]] if context.get("dice") else []):
        for part in [*(row.parts or [row]), *(part for parts in row.items for part in parts)]:
            if part.name == outcome.get("field") and not part.decided:
                part.error, outcome["beside"] = outcome["reason"], part.label
    htmx = request.headers.get("hx-request") == "true"
    page = "_post_fields.html" if htmx else "post.html"
    response = render(request, page, status=200 if htmx else outcome["status"], outcome=outcome, **context)
    response.headers["X-Rollbook-Status"] = str(outcome["status"])
    return response


@router.post("/campaigns/{campaign}/post/odds", response_class=HTMLResponse)
async def post_odds(request: Request, campaign: str) -> HTMLResponse:
    """The chance of each outcome of the command as the form stands, decided on the live sheet; what
    keeps it from being known, in words (answered with 200: the form asks as it changes)."""
    form = await request.form()
    posted = {name: value for name, value in form.multi_items() if isinstance(value, str)}
    return await run_in_threadpool(_odds, request, campaign, posted)


def _odds(request: Request, campaign: str, posted: dict[str, str]) -> HTMLResponse:
    try:
        role = member(request, campaign, "gm", "player")
        check_csrf(request, posted.get("csrf"))
    except SignInNeeded:
        return render(request, "_odds.html", error=gettext("you are signed out"))
    except Refusal as error:
        return render(request, "_odds.html", error=error.reason)
    state = request.app.state.rollbook
    context = form_context(request, campaign, role, posted.get("type"), posted)
    try:
        body = {"type": context["chosen"], **post_form.read(context["fields"], context["dice"],
                                                            {k: v for k, v in posted.items() if k not in CONTROLS})}
        body.pop("salt", None)
        state.caught_up()
        with state.writing(campaign):  # decided on copies of the cached aggregates, none changing meanwhile
            odds = jsonable(state.service.odds(campaign, {**body, "actor": actor_for(role, request.state.user)}))
    except post_form.FormValueError as error:
        return render(request, "_odds.html", error=f"{field_words.said(error.field)}: {error.reason}")
    except CommandRejected as error:
        told = f"{field_words.said(error.field)}: {refusal(error)}" if error.field else refusal(error)
        return render(request, "_odds.html", error=told)
    return render(request, "_odds.html", odds=odds)
