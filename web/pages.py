"""The pages: sign-in, a campaign's sheets with the timeline scrubber, the roll log, the dice.

Rendered on the server (Jinja2); htmx swaps fragments in (the scrubber's sheets, live
updates), so every page also reads with JavaScript off: the scrubber is then a form and its
step buttons are links. Every page is for the campaign's members only, with the same roles
as the API (auth.py); a Bearer header works everywhere, the session cookie is the browser's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ..server.errors import HTTPError
from ..server.state import jsonable
from .dice_stats import dice_statistics
from .proofs import proof_of
from .session import COOKIE, check_csrf, csrf_token, user_of
from .sheets import layout

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
router = APIRouter(include_in_schema=False)
AT = Annotated[str | None, Query(max_length=200)]
REVISION = Annotated[int | None, Query(ge=1, le=1_000_000)]
FILTER = Annotated[str | None, Query(max_length=200)]
#: The boundaries the scrubber marks on its track.
MARKED_SCOPES = ("chapter", "scene", "battle")


class SignInNeeded(Exception):
    """A page asked for while signed out: the sign-in page answers instead."""


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("user", getattr(request.state, "user", None))
    return templates.TemplateResponse(request, template, {"csrf": csrf_token(request), **context}, status_code=status)


def member(request: Request, campaign: str, *roles: str) -> str:
    """The signed-in user's role in the campaign; 403 for non-members or the wrong role."""
    user = user_of(request)
    if user is None:
        raise SignInNeeded
    request.state.user = user
    state = request.app.state.rollbook
    with state.lock:
        state.reader.catch_up()
        if state.reader.views.get(campaign, "campaign", "") is None:
            raise HTTPError(404, "campaign", f"no campaign {campaign!r}")
        role = state.accounts.role_of(campaign, user)
    if role is None:
        raise HTTPError(403, "campaign", f"{user} is not a member of {campaign}")
    if roles and role not in roles:
        raise HTTPError(403, "role", f"{user} is {role} of {campaign}; this page needs {' or '.join(roles)}")
    return role


# --- signing in -------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> HTMLResponse:
    user = user_of(request)
    if user is None:
        return render(request, "signin.html")
    request.state.user = user
    state = request.app.state.rollbook
    with state.lock:
        state.reader.catch_up()
        rows = []
        for membership in state.accounts.memberships(user):
            doc = state.reader.views.get(membership.campaign, "campaign", "")
            if doc is not None:
                rows.append({"campaign": membership.campaign, "role": membership.role, "doc": doc})
    return render(request, "home.html", campaigns=rows)


@router.post("/sign-in")
def sign_in(request: Request, token: Annotated[str, Form(max_length=500)]) -> Response:
    state = request.app.state.rollbook
    with state.lock:
        user = state.accounts.authenticate(token.strip())
    if user is None:
        return render(request, "signin.html", status=401, error="That token is unknown, replaced or revoked.")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(COOKIE, token.strip(), httponly=True, samesite="strict",
                        secure=request.url.scheme == "https", max_age=60 * 60 * 24 * 30)
    return response


@router.post("/sign-out")
def sign_out(request: Request, csrf: Annotated[str | None, Form()] = None) -> Response:
    check_csrf(request, csrf)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(COOKIE)
    return response


# --- the campaign at a point ------------------------------------------------------------


def _steps(state: Any, key: str) -> list[int]:
    """The positions the scrubber stops at: right after each recorded command."""
    return sorted(int(c["position"]) for c in state.reader.views.all(key, "command"))


def _sheets_at(state: Any, campaign: str, revision: int | None, position: int | None) -> tuple[Any, list[Any]]:
    from ..replay.timetravel import view_for

    seen = view_for(state.reader, campaign, revision=revision, at=None if position is None else str(position))
    return seen, jsonable(seen.sheets())


def campaign_context(request: Request, campaign: str, at: str | None, revision: int | None) -> dict[str, Any]:
    from ..replay.timetravel import key_of, resolve_point

    state = request.app.state.rollbook
    with state.lock:
        key = key_of(state.reader, campaign, revision)
        steps = _steps(state, key)
        position = resolve_point(state.reader, key, at) if at else (steps[-1] if steps else None)
        index = max((i for i, p in enumerate(steps) if position is not None and p <= position), default=0)
        seen, sheets = _sheets_at(state, campaign, revision, position)
        before = None
        if index > 0:
            _, before = _sheets_at(state, campaign, revision, steps[index - 1])
        doc = jsonable(seen.campaign_doc())
        timeline = jsonable(seen.timeline())
        limits = jsonable(seen.limits())
        marks = jsonable([e for e in state.reader.views.all(key, "timeline") if e["scope"] in MARKED_SCOPES])
    previous = {sheet.get("name"): sheet for _, sheet in (before or [])}
    layouts = [layout(doc["ruleset"], kind, sheet, previous.get(sheet.get("name")), compare=before is not None)
               for kind, sheet in sheets]
    ticks = [{"index": _index_at(steps, int(e["start"])), "entry": e} for e in marks]
    return {
        "campaign": campaign, "revision": revision, "doc": doc, "sheets": layouts, "limits": limits,
        "open": [(scope, clock["number"]) for scope, clock in doc.get("clock", {}).items() if clock.get("open")],
        "steps": steps, "index": index, "position": steps[index] if steps else None, "ticks": ticks,
        "at_start": index == 0, "at_end": not steps or index == len(steps) - 1, "timeline": timeline,
        "live": at is None,
    }


def _index_at(steps: list[int], position: int) -> int:
    return max((i for i, p in enumerate(steps) if p <= position), default=0)


@router.get("/campaigns/{campaign}", response_class=HTMLResponse)
def campaign_page(request: Request, campaign: str, at: AT = None, revision: REVISION = None,
                  step: Annotated[int | None, Query(ge=0)] = None) -> HTMLResponse:
    role = member(request, campaign)
    context = campaign_context(request, campaign, _step_point(request, campaign, revision, step, at), revision)
    return render(request, "campaign.html", role=role, **context)


@router.get("/campaigns/{campaign}/fragments/sheets", response_class=HTMLResponse)
def sheets_fragment(request: Request, campaign: str, at: AT = None, revision: REVISION = None,
                    step: Annotated[int | None, Query(ge=0)] = None) -> HTMLResponse:
    member(request, campaign)
    context = campaign_context(request, campaign, _step_point(request, campaign, revision, step, at), revision)
    return render(request, "_sheets.html", **context)


def _step_point(request: Request, campaign: str, revision: int | None, step: int | None, at: str | None) -> str | None:
    """The scrubber sends the index of a step; the CLI's points (`at`) work as well."""
    if step is None:
        return at
    from ..replay.timetravel import key_of

    state = request.app.state.rollbook
    with state.lock:
        steps = _steps(state, key_of(state.reader, campaign, revision))
    return str(steps[min(step, len(steps) - 1)]) if steps else None


# --- rolls and dice ---------------------------------------------------------------------


def _rolls(request: Request, campaign: str, revision: int | None) -> tuple[list[dict[str, Any]], list[Any], dict]:
    from ..replay.timetravel import view_for

    state = request.app.state.rollbook
    with state.lock:
        seen = view_for(state.reader, campaign, revision=revision)
        rolls = jsonable(seen.rolls())
        timeline = jsonable(seen.timeline())
        log = jsonable([e for e in seen.log() if e["aggregate"] == "campaign"])
    return rolls, timeline, {"log": log}


@router.get("/campaigns/{campaign}/rolls.html", response_class=HTMLResponse)
def rolls_page(request: Request, campaign: str, revision: REVISION = None, character: FILTER = None,
               player: FILTER = None, purpose: FILTER = None, session: FILTER = None) -> HTMLResponse:
    role = member(request, campaign)
    rolls, timeline, extra = _rolls(request, campaign, revision)
    from .dice_stats import CHAPTER_SCOPES, chapter_of

    chapters = [e for e in timeline if e["scope"] in CHAPTER_SCOPES]
    revealed = {e["data"]["commitment"]: e["data"]["seed"] for e in extra["log"] if e["type"] == "SeedRevealed"}
    rows = []
    for roll in rolls:
        roll["session"] = chapter_of(roll.get("position", 0), chapters)
        roll["proof"] = proof_of(roll, campaign, revealed)
        rows.append(roll)
    filters = {"character": character, "player": player, "purpose": purpose, "session": session}
    shown = [r for r in rows if _matches(r, filters)]
    choices = {
        "character": sorted({r.get("character") or "" for r in rows} - {""}),
        "player": sorted({r["actor"].split(":", 1)[1] for r in rows if r.get("actor", "").startswith("player:")}),
        "purpose": sorted({r.get("purpose") or "" for r in rows} - {""}),
        "session": sorted({r["session"] for r in rows}),
    }
    return render(request, "rolls.html", role=role, campaign=campaign, rolls=shown, total=len(rows),
                  filters=filters, choices=choices)


def _matches(roll: dict[str, Any], filters: dict[str, str | None]) -> bool:
    actor = roll.get("actor", "")
    return ((not filters["character"] or roll.get("character") == filters["character"])
            and (not filters["player"] or actor == f"player:{filters['player']}")
            and (not filters["purpose"] or roll.get("purpose") == filters["purpose"])
            and (not filters["session"] or roll.get("session") == filters["session"]))


@router.get("/campaigns/{campaign}/dice", response_class=HTMLResponse)
def dice_page(request: Request, campaign: str, revision: REVISION = None) -> HTMLResponse:
    role = member(request, campaign)
    rolls, timeline, _ = _rolls(request, campaign, revision)
    return render(request, "dice.html", role=role, campaign=campaign, stats=dice_statistics(rolls, timeline),
                  rolls=len(rolls))
