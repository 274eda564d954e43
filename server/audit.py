"""Audit and foresight over HTTP: disputes (GM or auditor) and the odds of a command before it is posted."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..domain.accounts import ROLES, KeptAnswer
from ..hosting.accounts import Membership
from ..hosting.answers import jsonable
from ..hosting.host import Host
from ..hosting.refusals import Refusal
from ..hosting.rulings import DisputeRequest, rule
from .auth import in_role, posting
from .body import json_object

router = APIRouter(prefix="/campaigns/{campaign}")
KEY = Annotated[str, Header(alias="Idempotency-Key", min_length=1, max_length=200, pattern=r"^[^#\s]+$",
                            description="Required on every POST; a ruling's id.")]


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
        raise Refusal("invalid", ".".join(["body", *map(str, first["loc"])]), first["msg"]) from None


def _state(request: Request) -> Host:
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
    answer = await run_in_threadpool(rule, _state(request), member, key, ruled)
    request.app.state.bell.ring()
    return JSONResponse(answer, status_code=_status(ruled))


def _status(ruled: DisputeRequest) -> int:
    """A dry run shows (200); a ruling, made now or before under its key, is made (201)."""
    return 200 if ruled.dry_run else 201


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
                raise Refusal("not_found", "command", f"{member.actor} has given no command in {member.campaign} to undo")
        reader = state.caught_up()
        check_undoable(reader, str(reader.campaign(member.campaign)["current_key"]), command)
        ruled = DisputeRequest(roll=command, reason=asked.reason, drop=True, dry_run=asked.dry_run)
        return rule(state, member, key, ruled), _status(ruled)

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
        raise Refusal("forbidden", "body.command.actor", f"you are signed in as {member.actor}, not {given!r}")
    command = {**asked.command, "actor": member.actor}
    state = _state(request)

    def foresee() -> dict[str, Any]:
        state.caught_up()
        with state.writing(member.campaign):  # decided on copies of the cached aggregates, none changing meanwhile
            return jsonable(state.service.odds(member.campaign, command, compare=asked.compare))

    return await run_in_threadpool(foresee)
