"""The read verbs over HTTP: the CLI's `--json` answers, for members of the campaign, each with its ETag.

Each takes `at` and `revision` like the CLI (`--at`, `--revision`). The ETag is the
campaign's current version (`"r2.57"`: revision 2, 57 commands), the one If-Match takes.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.responses import PlainTextResponse

from ..domain.accounts import ROLES
from ..hosting.accounts import Membership
from .auth import in_role
from ..hosting.refusals import Refusal
from .errors import NotModified, matches
from ..hosting.answers import jsonable
from ..hosting.host import Host
from ..hosting.posting import version_of

router = APIRouter(prefix="/campaigns/{campaign}", responses={
    304: {"description": "If-None-Match holds the current ETag: the campaign has not moved on (no body)"}})
AT = Annotated[str | None, Query(max_length=200, description="A point: event position, command id, ISO time or chapter:3 …")]
REVISION = Annotated[int | None, Query(ge=1, le=1_000_000, description="A revision of the campaign (default: current).")]
NAME = Annotated[str, Query(min_length=1, max_length=200)]
member_of = in_role(*ROLES)


def _state(request: Request) -> Host:
    return request.app.state.rollbook


def _view(request: Request, response: Response, member: Membership, at: str | None, revision: int | None) -> Any:
    """The campaign as the CLI's read verbs see it (now, at a point, in a revision); from the projections, caught up."""
    from ..replay.timetravel import view_for

    state = _state(request)
    state.caught_up()
    etag = version_of(state, member.campaign).etag()
    if matches(request.headers.get("If-None-Match"), etag):
        raise NotModified(etag)  # the same version, the same URL: the same answer as the cached one
    response.headers["ETag"] = etag
    seen = view_for(state.reader, member.campaign, revision=revision, at=at)
    if seen.note:  # a unit still open: what the CLI says on standard error
        response.headers["Rollbook-Note"] = seen.note
    return seen


@router.get("/sheets/{name}")
def sheet(request: Request, response: Response, name: str, at: AT = None, revision: REVISION = None,
          member: Membership = Depends(member_of)) -> dict[str, Any]:
    """A character's (or ship's, or enemy's) sheet: `rollbook sheet NAME --json`."""
    kind, data = _sheet(_view(request, response, member, at, revision), name)
    response.headers["Rollbook-Kind"] = kind  # character, ship or enemy: the CLI's title says which
    return jsonable(data)


def _sheet(seen: Any, name: str) -> tuple[str, dict[str, Any]]:
    """The sheet the path names; a name that is none of the campaign's is a resource not found: 404."""
    from ..domain.errors import UnknownName

    try:
        return seen.sheet(name)  # type: ignore[no-any-return]
    except UnknownName as error:
        if error.field != "name":
            raise
        raise Refusal("not_found", "name", error.message) from None


@router.get("/ships/{name}")
def ship(request: Request, response: Response, name: str, at: AT = None, revision: REVISION = None,
         member: Membership = Depends(member_of)) -> dict[str, Any]:
    """A ship's sheet: `rollbook ship NAME --json`."""
    kind, data = _sheet(_view(request, response, member, at, revision), name)
    if kind != "ship":
        raise Refusal("not_found", "name", f"{name!r} is a {kind}, not a ship")
    return jsonable(data)


@router.get("/timeline")
def timeline(request: Request, response: Response, at: AT = None, revision: REVISION = None,
             member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook timeline --json`: the campaign with its timeline entries."""
    seen = _view(request, response, member, at, revision)
    return jsonable({**seen.campaign_doc(), "timeline": seen.timeline()})


@router.get("/limits")
def limits(request: Request, response: Response, at: AT = None, revision: REVISION = None,
           member: Membership = Depends(member_of)) -> list[dict[str, Any]]:
    """`rollbook limits --json`: every once-only limit, used and remaining."""
    return jsonable(_view(request, response, member, at, revision).limits())


@router.get("/rolls")
def rolls(request: Request, response: Response, at: AT = None, revision: REVISION = None,
          member: Membership = Depends(member_of)) -> list[dict[str, Any]]:
    """`rollbook rolls --json`: every roll with its faces, modifiers, total and outcome."""
    return jsonable(_view(request, response, member, at, revision).rolls())


@router.get("/log")
def log(request: Request, response: Response, at: AT = None, revision: REVISION = None,
        member: Membership = Depends(member_of)) -> list[dict[str, Any]]:
    """`rollbook log --json`: the campaign's raw events with their positions."""
    return jsonable(list(_view(request, response, member, at, revision).log()))


@router.get("/revisions")
def revisions(request: Request, response: Response, member: Membership = Depends(member_of)) -> list[dict[str, Any]]:
    """`rollbook revisions --json`: every revision, with the dispute that made it."""
    from ..replay.revisions import revisions as list_revisions

    state = _state(request)
    _view(request, response, member, None, None)
    return jsonable(list_revisions(state.store, member.campaign))


@router.get("/verify")
def verify(request: Request, response: Response, revision: REVISION = None,
           member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook verify --json`: the hash chain, revealed seeds and nonces recomputed, per revision."""
    from ..replay.timetravel import key_of
    from ..replay.verify import verify as run_verify
    from ..replay.verify_revisions import check_revisions
    from ..replay.verify_views import check_views

    state = _state(request)
    _view(request, response, member, None, revision)
    count = int(state.reader.campaign(member.campaign)["revision"])
    keys = [key_of(state.reader, member.campaign, n) for n in ([revision] if revision else range(1, count + 1))]
    numbers = [revision] if revision else list(range(1, count + 1))
    # The campaign held still while it is checked (no post of this process lands), and the views too.
    with state.writing(member.campaign), state.reader.still():
        reports = {key: run_verify(state.store, key) for key in keys}
        for n, found in check_revisions(state.store, member.campaign, numbers).items():  # each is its ruling's
            reports[keys[numbers.index(n)]].findings += found
        for key, report in reports.items():  # what this server shows must be what the events make
            report.findings += check_views(state.store, state.reader.views, [key])
    return jsonable({key: {"commands": r.commands, "rolls_checked": r.rolls_checked, "seeds_revealed": r.seeds_revealed,
                           "findings": [f.as_dict() for f in r.findings]} for key, r in reports.items()})


@router.get("/export", response_class=PlainTextResponse)
def export(request: Request, response: Response, member: Membership = Depends(member_of)) -> PlainTextResponse:
    """`rollbook export`: the campaign's history as JSON Lines (the seeds not yet revealed stay secret)."""
    from ..replay.export import export_lines

    state = _state(request)
    _view(request, response, member, None, None)
    text = "".join(line + "\n" for line in export_lines(state.store, member.campaign, with_secrets=False))
    return PlainTextResponse(text, media_type="application/x-ndjson", headers=dict(response.headers))


@router.get("/characters")
def characters(request: Request, response: Response, member: Membership = Depends(member_of)) -> list[dict[str, Any]]:
    """`rollbook characters --json`: every character, ship and enemy of the current revision with its player, kind
    and key figures."""
    from ..projections.listing import character_rows

    state = _state(request)
    _view(request, response, member, None, None)
    return jsonable(character_rows(state.reader, member.campaign))


@router.get("/replay")
def replay(request: Request, response: Response, revision: REVISION = None,
           until: Annotated[str | None, Query(max_length=200, description="Stop after this point (as `at`).")] = None,
           verify: bool = False, member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook replay --json`: the recorded commands re-executed in memory; with `verify`, compared with the store."""
    from ..replay.replayer import replay as run_replay
    from ..replay.timetravel import key_of, resolve_point

    state = _state(request)
    _view(request, response, member, None, revision)
    key = key_of(state.reader, member.campaign, revision)
    until_seq = None
    if until is not None:
        position = resolve_point(state.reader, key, until)
        done = [c["seq"] for c in state.reader.views.all(key, "command") if c["position"] <= position]
        until_seq = max(done) if done else 0
    with state.writing(member.campaign):  # compared with the store: no post of this process lands meanwhile
        return jsonable(run_replay(state.store, key, until_seq=until_seq, verify=verify).as_dict())


@router.get("/checkpoint")
def checkpoint(request: Request, response: Response, member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook checkpoint --json`: the campaign's head now, signed with its key, to paste into the thread."""
    from ..replay.transparency import checkpoint_now

    state = _state(request)
    _view(request, response, member, None, None)
    return jsonable(checkpoint_now(state.store, member.campaign))
