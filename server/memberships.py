"""Who belongs where: the signed-in user's campaigns and roles (`/campaigns`, `/whoami`), and a campaign's
roster, to which its GM grants roles (`/campaigns/{campaign}/members`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..domain.accounts import ROLES, check_user_name
from ..hosting.accounts import Membership
from ..hosting.posting import version_of
from .auth import in_role, signed_in
from .body import MAX_BODY, json_object
from ..hosting.refusals import Refusal
from .state import CurrentState

router = APIRouter(tags=["memberships"])


class RoleGrant(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    role: str = Field(json_schema_extra={"enum": list(ROLES)})


GRANT_BODY = {"requestBody": {"required": True, "content": {"application/json": {
    "schema": RoleGrant.model_json_schema()}}}}


@router.get("/campaigns")
def campaigns(state: CurrentState, user: str = Depends(signed_in)) -> list[dict[str, Any]]:
    """The campaigns the signed-in user belongs to, as `rollbook campaigns --json` lists them, with the role in each."""
    from ..projections.listing import campaign_row

    rows = [(m, campaign_row(state.reader, m.campaign)) for m, _ in state.campaigns_of(user)]
    return [{**row, "role": membership.role} for membership, row in rows if row is not None]


@router.get("/whoami")
def whoami(state: CurrentState, user: str = Depends(signed_in)) -> dict[str, Any]:
    """The signed-in user's name and role in each campaign (`rollbook whoami`)."""
    return {"user": user, "campaigns": [{"campaign": membership.campaign, "role": membership.role}
                                        for membership, _ in state.campaigns_of(user)]}


@router.put("/campaigns/{campaign}/members/{user}", openapi_extra=GRANT_BODY)
async def grant(request: Request, state: CurrentState, user: str,
                member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
    """Give a user a role in the campaign (GM only); who granted it, and when, is recorded."""
    data = await json_object(request, limit=MAX_BODY)
    try:
        role = RoleGrant.model_validate(data).role
    except ValueError as error:
        first = error.errors()[0]  # type: ignore[attr-defined]
        raise Refusal("invalid", "body." + ".".join(map(str, first["loc"])), first["msg"]) from None
    check_user_name(user)  # refused (422, field user) before the store is asked
    granted = await run_in_threadpool(state.accounts.grant, member.campaign, user, role, by=member.user)
    return {"campaign": granted.campaign, "user": granted.user, "role": granted.role}


@router.get("/campaigns/{campaign}/members")
def members(state: CurrentState, response: Response, member: Membership = Depends(in_role(*ROLES))) -> dict[str, str]:
    """Every user's role in the campaign."""
    response.headers["ETag"] = version_of(state, member.campaign).etag()
    return state.accounts.roster(member.campaign)
