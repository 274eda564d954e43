"""Audit and foresight over HTTP: disputes (GM or auditor) and the odds of a command before it is posted."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..domain.accounts import ROLES, KeptAnswer
from ..hosting.accounts import Membership
from .auth import in_role, posting
from .body import json_object
from .errors import HTTPError
from .state import State, jsonable

router = APIRouter(prefix="/campaigns/{campaign}")
KEY = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200, pattern=r"^[^#\s]+$",
                            description="Required on every POST; a ruling's id.")]


class DisputeRequest(BaseModel):
    """`rollbook dispute`'s options: exactly one of reroll, faces or drop."""

    model_config = ConfigDict(extra="forbid", strict=True)
    roll: str = Field(min_length=1, max_length=200, description="The roll's id (see /rolls).")
    reason: str = Field(min_length=1, max_length=10_000)
    reroll: bool = False
    faces: list[Annotated[int, Field(ge=1, le=1000)]] | None = Field(default=None, max_length=1000)
    drop: bool = False
    and_drop: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(default_factory=list, max_length=1000)
    dry_run: bool = False


class UndoRequest(BaseModel):
    """`rollbook undo`'s options: the command to take back (default: the signed-in user's last one)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    command: str | None = Field(default=None, min_length=1, max_length=200,
                                description="The command's id; left out, the signed-in user's own last command.")
    reason: str = Field(min_length=1, max_length=10_000)
    dry_run: bool = False


class OddsRequest(BaseModel):
    """`rollbook odds`: a command (without dice), and fields to change in a second one beside it."""

    model_config = ConfigDict(extra="forbid", strict=True)
    command: dict[str, Any]
    compare: dict[str, Any] | None = None


def _body(model: type[BaseModel]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


async def _parsed(request: Request, model: type[BaseModel]) -> Any:
    data = await json_object(request)
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        raise HTTPError(422, ".".join(["body", *map(str, first["loc"])]), first["msg"]) from None


def _state(request: Request) -> State:
    return request.app.state.rollbook


@router.post("/disputes", openapi_extra=_body(DisputeRequest), status_code=201, responses={
    200: {"description": "a dry run: what the ruling would change; nothing written"},
    403: {"description": "not the GM or an auditor of the campaign"},
    409: {"description": "the ruling under this key was made, but its answer was lost: GET /revisions shows it"}})
async def dispute(request: Request, key: KEY, member: Membership = Depends(in_role("gm", "auditor")),
                  _: str = Depends(posting)) -> JSONResponse:
    """`rollbook dispute --json`: rule on a roll as the signed-in GM or auditor (`dry_run`: show, write nothing)."""
    from starlette.concurrency import run_in_threadpool

    ruled = await _parsed(request, DisputeRequest)
    answer, status = await run_in_threadpool(rule, _state(request), member, key, ruled)
    request.app.state.bell.ring()
    return JSONResponse(answer, status_code=status)


def rule(state: State, member: Membership, key: str, ruled: DisputeRequest) -> tuple[dict[str, Any], int]:
    """Rule (or dry-run) as `member`, under the key; the API and the disputes page both call it."""
    from ..replay.dispute import Ruling
    from ..replay.dispute import dispute as run_dispute
    from ..replay.revisions import revisions as list_revisions

    from ..store.logs import silenced

    asked = ruled.model_dump(mode="json")
    ruling = Ruling(roll=ruled.roll, reason=ruled.reason, actor=member.actor, reroll=ruled.reroll, faces=ruled.faces,
                    drop=ruled.drop, also_drop=list(ruled.and_drop))
    if ruled.dry_run:
        # The history re-executed is not news (silenced): one line after says what was ruled.
        with state.writing(member.campaign), silenced():
            shown = jsonable(run_dispute(state.store, member.campaign, ruling, dry_run=True).as_dict())
        return _logged("dispute.dry_run", member, shown), 200
    with state.writing(member.campaign), silenced():
        kept = state.accounts.fresh(KeptAnswer.create_id(member.campaign, key))
        if kept is not None:
            if kept.request != asked:
                raise HTTPError(422, "Idempotency-Key header", f"the key {key!r} was used for another ruling")
            return kept.answer, 201
        if state.service.is_recorded(member.campaign, key):
            if any(row.get("dispute") == key for row in list_revisions(state.store, member.campaign)):
                raise HTTPError(409, "Idempotency-Key header", f"the ruling {key!r} was made but its answer was "
                                                               "lost (the server stopped); GET /revisions shows it")
            raise HTTPError(422, "Idempotency-Key header",
                            f"the key {key!r} is already the id of a command in {member.campaign}; use a new key")
        result = run_dispute(state.store, member.campaign, ruling, dry_run=False, dispute_id=key)
        answer = jsonable(result.as_dict())
        state.store.save(KeptAnswer(campaign=member.campaign, key=key, request=asked, answer=answer))
    return _logged("dispute.ruled", member, answer), 201


def _logged(event: str, member: Membership, shown: dict[str, Any]) -> dict[str, Any]:
    """The one line a ruling logs (outside `silenced`): who ruled on what, and how much it changed."""
    from ..store.logs import Log

    Log("rollbook.server").info(event, campaign=member.campaign, actor=member.actor, dispute=shown["dispute"], roll=shown["roll"],
             differences=len(shown["differences"]), not_applied=len(shown["not_applied"]))
    return shown


@router.post("/undo", openapi_extra=_body(UndoRequest), status_code=201,
             responses={200: {"description": "a dry run: what the undo would change; nothing written"},
                        403: {"description": "a player names another's command, or his own that rolled the "
                                         "campaign's dice where the campaign does not set players_undo_rolls"},
                        404: {"description": "no such command, or none of the user's to undo"},
                        409: {"description": "the undo under this key was made, but its answer was lost"}})
async def undo(request: Request, key: KEY, member: Membership = Depends(in_role(*ROLES)),
               _: str = Depends(posting)) -> JSONResponse:
    """`rollbook undo --json`: take back a command, recorded as a ruling that drops it (`dispute --drop`).

    Without `command`, the signed-in user's own last command. A player takes back only his own
    commands (403 for another's); the GM and auditors any, as their disputes may."""
    from starlette.concurrency import run_in_threadpool

    from ..projections.listing import check_undoable, last_command_of

    asked = await _parsed(request, UndoRequest)
    state = _state(request)

    def take_back() -> tuple[dict[str, Any], int]:
        command = asked.command
        if command is None:
            kept = state.accounts.fresh(KeptAnswer.create_id(member.campaign, key))
            if kept is not None and kept.request.get("drop") and kept.request.get("reason") == asked.reason:
                command = str(kept.request["roll"])  # a retry: the command the first request took back
            else:
                reader = state.caught_up()
                command = last_command_of(reader, str(reader.campaign(member.campaign)["current_key"]), member.actor)
            if command is None:
                raise HTTPError(404, "command", f"{member.actor} has given no command in {member.campaign} to undo")
        reader = state.caught_up()
        check_undoable(reader, str(reader.campaign(member.campaign)["current_key"]), command)
        ruled = DisputeRequest(roll=command, reason=asked.reason, drop=True, dry_run=asked.dry_run)
        return rule(state, member, key, ruled)

    answer, status = await run_in_threadpool(take_back)
    request.app.state.bell.ring()
    return JSONResponse(answer, status_code=status)


@router.post("/odds", openapi_extra=_body(OddsRequest))
async def odds(request: Request, member: Membership = Depends(in_role(*ROLES)),
               _: str = Depends(posting)) -> dict[str, Any]:
    """`rollbook odds --json`: the chance of each outcome, decided by the rules up to the dice; nothing is
    written, so no Idempotency-Key is asked for."""
    from starlette.concurrency import run_in_threadpool

    asked = await _parsed(request, OddsRequest)
    given = asked.command.get("actor")
    if given is not None and given != member.actor:
        raise HTTPError(403, "body.command.actor", f"you are signed in as {member.actor}, not {given!r}")
    command = {**asked.command, "actor": member.actor}
    state = _state(request)

    def foresee() -> dict[str, Any]:
        state.caught_up()
        with state.writing(member.campaign):  # decided on copies of the cached aggregates, none changing meanwhile
            return jsonable(state.service.odds(member.campaign, command, compare=asked.compare))

    return await run_in_threadpool(foresee)
