"""The pages: sign-in, a campaign's sheets with the timeline scrubber, the dice (the roll log: rolls.py).

Rendered on the server (Jinja2); htmx swaps fragments in (the scrubber's sheets, live
updates), so every page also reads with JavaScript off: the scrubber is then a form and its
step buttons are links. Every page is for the campaign's members only, with the same roles
as the API (auth.py); a Bearer header works everywhere, the session cookie is the browser's.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ..language import gettext
from ..hosting.answers import jsonable
from ..hosting.refusals import Refusal
from . import wording
from .dice_stats import dice_statistics
from .language import switch_links
from .session import COOKIE, check_csrf, csrf_token, next_page, user_of
from .sheets import layout
from .wording import humanised

templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
wording.install(templates.env)
router = APIRouter(include_in_schema=False)
AT = Annotated[str | None, Query(max_length=200)]
REVISION = Annotated[int | None, Query(ge=1, le=1_000_000)]
#: A limit's instance that names its own unit: "story 1", "scene 4".
NUMBERED_UNIT = re.compile(r"[a-z_]+ \d+")
#: The boundaries the scrubber marks on its track.
MARKED_SCOPES = ("chapter", "scene", "battle")


class SignInNeeded(Exception):
    """A page asked for while signed out: the sign-in page answers instead."""


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    context.setdefault("user", getattr(request.state, "user", None))
    context.setdefault("languages", switch_links(request))
    return templates.TemplateResponse(request, template, {"csrf": csrf_token(request), **context}, status_code=status)


def member(request: Request, campaign: str, *roles: str) -> str:
    """The signed-in user's role in the campaign; 403 for non-members or the wrong role."""
    user = user_of(request)
    if user is None:
        raise SignInNeeded
    request.state.user = user
    state = request.app.state.rollbook
    if state.caught_up().views.get(campaign, "campaign", "") is None:
        raise Refusal("not_found", "campaign", gettext("no campaign {campaign}").format(campaign=repr(campaign)))
    role = state.accounts.role_of(campaign, user)
    if role is None:
        raise Refusal("forbidden", "campaign",
                      gettext("{user} is not a member of {campaign}").format(user=user, campaign=campaign))
    if roles and role not in roles:
        raise Refusal("forbidden", "role", gettext("{user} is {role} of {campaign}; this page needs {roles}").format(
            user=user, role=gettext(role), campaign=campaign, roles=gettext(" or ").join(gettext(r) for r in roles)))
    return role


# --- signing in -------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def home(request: Request, asked: Annotated[str | None, Query(alias="next", max_length=1001)] = None) -> HTMLResponse:
    user = user_of(request)
    if user is None:
        return render(request, "signin.html", next=next_page(asked))
    request.state.user = user
    rows = [{"campaign": membership.campaign, "role": membership.role, "doc": doc}
            for membership, doc in request.app.state.rollbook.campaigns_of(user)]
    return render(request, "home.html", campaigns=rows)


@router.post("/sign-in")
def sign_in(request: Request, token: Annotated[str, Form(max_length=500)],
            asked: Annotated[str | None, Form(alias="next", max_length=1001)] = None) -> Response:
    state = request.app.state.rollbook
    user = state.accounts.authenticate(token.strip())
    if user is None:
        return render(request, "signin.html", status=401, error=gettext("That token is unknown, replaced or revoked."),
                      next=next_page(asked))
    response = RedirectResponse(next_page(asked), status_code=303)
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


def _index_at(steps: list[int], position: int) -> int:
    """The last step at or before a position (the first step for a position before them all)."""
    return max(bisect_right(steps, position) - 1, 0)


def _sheets_before(state: Any, key: str, campaign: str, revision: int | None, steps: list[int], index: int,
                   sheets: list[tuple[str, dict[str, Any]]]) -> dict[str, dict[str, Any] | None]:
    """Each sheet as it was one step earlier. Only what that step's command wrote is rebuilt from the
    store; every other sheet was the same then as now."""
    from ..replay.timetravel import view_for

    touched = {entry["aggregate"] for entry in state.reader.log(key, start=steps[index - 1], stop=steps[index])}
    earlier = view_for(state.reader, campaign, revision=revision, at=str(steps[index - 1]))
    known = earlier.campaign().roster
    before: dict[str, dict[str, Any] | None] = {}
    for kind, sheet in sheets:
        name = sheet.get("name")
        if f"{kind}:{name}" not in touched:
            before[name] = sheet
        else:
            before[name] = jsonable(earlier.sheet(name)[1]) if name in known else None
    return before


def campaign_context(request: Request, campaign: str, at: str | None, revision: int | None) -> dict[str, Any]:
    from ..replay.timetravel import key_of, resolve_point, view_for

    state = request.app.state.rollbook
    key = key_of(state.reader, campaign, revision)
    steps = _steps(state, key)
    past = bool(at) and bool(steps)
    index = _index_at(steps, resolve_point(state.reader, key, at)) if past else len(steps) - 1
    seen = view_for(state.reader, campaign, revision=revision, at=str(steps[index]) if past else None)
    doc = jsonable(seen.campaign_doc())
    sheets = in_roster_order(jsonable(seen.sheets()), list(doc.get("members", {})))
    before = _sheets_before(state, key, campaign, revision, steps, index, sheets) if index > 0 else None
    limits = [limit_row(limit) for limit in jsonable(seen.limits())]
    marks = jsonable([e for e in state.reader.views.all(key, "timeline") if e["scope"] in MARKED_SCOPES])
    layouts = [layout(doc["ruleset"], kind, sheet, (before or {}).get(sheet.get("name")), compare=before is not None)
               for kind, sheet in sheets]
    ticks = [{"index": _index_at(steps, int(e["start"])), "entry": e} for e in marks]
    position = steps[index] if steps else None
    return {
        "campaign": campaign, "revision": revision, "doc": doc, "sheets": layouts, "limits": limits,
        "open": [(scope, clock["number"]) for scope, clock in doc.get("clock", {}).items() if clock.get("open")],
        "steps": steps, "index": max(index, 0), "position": position, "ticks": ticks,
        "links": _links(ticks, position), "at_start": index <= 0, "at_end": index == len(steps) - 1,
        "live": at is None,
        "valuetext": gettext("step {step} of {steps}, position {position}").format(
            step=index + 1, steps=len(steps), position=position) if steps else gettext("no commands yet"),
    }


def in_roster_order(sheets: list[tuple[str, dict[str, Any]]], roster: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """The sheet cards in the roster's order, the same at every step (the present's projection lists
    them in its own order, a past step in the roster's)."""
    place = {name: n for n, name in enumerate(roster)}
    return sorted(sheets, key=lambda sheet: (place.get(sheet[1].get("name"), len(place)), str(sheet[1].get("name"))))


def limit_row(limit: dict[str, Any]) -> dict[str, Any]:
    """A once-only limit in words: its name humanised, and where it counts said once: "story 1" (the
    instance names its unit), "the campaign", "move anna-3" (a roll's id), "each battle" before its
    first use; never the scope and then an instance that already says it ("story story 1")."""
    scope, instance = gettext(humanised(limit["scope"])), limit.get("instance")
    if instance is None:
        where = (gettext("the {scope}") if limit["scope"] in ("campaign", "ship") else gettext("each {scope}")).format(
            scope=scope)
    elif instance == limit["scope"]:
        where = gettext("the {scope}").format(scope=scope)
    elif NUMBERED_UNIT.fullmatch(instance):
        unit, _, number = humanised(instance).rpartition(" ")
        where = f"{gettext(unit)} {number}"
    else:
        where = f"{scope} {instance}"
    return {**limit, "label": gettext(humanised(limit["limit"])), "where": where}


def _links(ticks: list[dict[str, Any]], position: int | None) -> list[dict[str, Any]]:
    """The boundaries listed under the slider: every chapter, and the scenes and battles of the one shown."""
    chapter = next((t["entry"] for t in reversed(ticks) if t["entry"]["scope"] == "chapter"
                    and position is not None and t["entry"]["start"] <= position), None)

    def inside(entry: dict[str, Any]) -> bool:
        return chapter is not None and entry["start"] >= chapter["start"] and (
            chapter["end"] is None or entry["start"] <= chapter["end"])

    return [t for t in ticks if t["entry"]["scope"] == "chapter" or inside(t["entry"])]


@router.get("/campaigns/{campaign}", response_class=HTMLResponse)
def campaign_page(request: Request, campaign: str, at: AT = None, revision: REVISION = None,
                  step: Annotated[int | None, Query(ge=0)] = None) -> HTMLResponse:
    role = member(request, campaign)
    context = campaign_context(request, campaign, _step_point(request, campaign, revision, step, at), revision)
    return render(request, "campaign.html", role=role, **context, **_cards(request, context, role))


@router.get("/campaigns/{campaign}/fragments/sheets", response_class=HTMLResponse)
def sheets_fragment(request: Request, campaign: str, at: AT = None, revision: REVISION = None,
                    step: Annotated[int | None, Query(ge=0)] = None) -> HTMLResponse:
    role = member(request, campaign)
    context = campaign_context(request, campaign, _step_point(request, campaign, revision, step, at), revision)
    return render(request, "_sheets.html", fragment=True, role=role, **context, **_cards(request, context, role))


def _cards(request: Request, context: dict[str, Any], role: str) -> dict[str, Any]:
    """The moves listed on the cards of the characters the member acts for (a player his own, the GM
    every one), each card's id by its place in the roster; none on a past step or a later revision."""
    from .moves import moves_of
    from .post_form import commands_for_role

    doc = context["doc"]
    if role not in ("gm", "player") or not context["live"] or context["revision"]:
        return {"cards": {}, "moves": []}
    user = request.state.user
    cards = {name: f"card-{n}" for n, (name, entry) in enumerate(doc.get("members", {}).items())
             if entry.get("kind", "character") != "ship" and (role == "gm" or entry.get("player") == user)}
    return {"cards": cards, "moves": moves_of(doc["ruleset"], commands_for_role(doc["ruleset"], role)) if cards else []}


def _step_point(request: Request, campaign: str, revision: int | None, step: int | None, at: str | None) -> str | None:
    """The scrubber sends the index of a step; the CLI's points (`at`) work as well. The last step is the
    present (None): the page is live again there, the moves on the cards with it."""
    if step is None:
        return at
    from ..replay.timetravel import key_of

    state = request.app.state.rollbook
    steps = _steps(state, key_of(state.reader, campaign, revision))
    return str(steps[step]) if step < len(steps) - 1 else None


# --- rolls and dice ---------------------------------------------------------------------


def rolls_of(request: Request, campaign: str, revision: int | None) -> tuple[list[dict[str, Any]], list[Any], dict]:
    from ..replay.timetravel import view_for

    state = request.app.state.rollbook
    seen = view_for(state.reader, campaign, revision=revision)
    rolls = jsonable(seen.rolls())
    timeline = jsonable(seen.timeline())
    log = jsonable([e for e in seen.log() if e["aggregate"] == "campaign"])
    return rolls, timeline, {"log": log}


@router.get("/campaigns/{campaign}/dice", response_class=HTMLResponse)
def dice_page(request: Request, campaign: str, revision: REVISION = None) -> HTMLResponse:
    role = member(request, campaign)
    rolls, timeline, _ = rolls_of(request, campaign, revision)
    return render(request, "dice.html", role=role, campaign=campaign, stats=dice_statistics(rolls, timeline),
                  rolls=len(rolls))
