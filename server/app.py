"""The FastAPI application: `create_app(store_url)`; the routes are thin, the service layer decides.

    uvicorn.run(create_app("sqlite:///rollbook.db"), host="127.0.0.1", port=8421)

Each response body has the shape of the CLI's `--json` for the same verb; errors are
`{"error": {"field", "reason", ...}}` (see errors.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..domain.accounts import ROLES, check_user_name
from . import audit, errors, live, reads, statuses, transparency
from .accounts import Membership
from .auth import CAMPAIGN, RateLimit, in_role, posting, signed_in
from .body import MAX_BODY, json_object
from .errors import HTTPError
from .posting import Refusal, post_command, version_after, version_of
from .state import State

#: Posts a minute each token may make (a burst of BURST at once), unless `create_app` is told otherwise.
POSTS_PER_MINUTE = 600
BURST = 60
KEY = Annotated[str, Header(
    alias="Idempotency-Key", min_length=1, max_length=200, pattern=r"^[^#\s]+$",
    description="Required on every POST: the command's id. The same key with the same body gets the same answer.",
)]
IF_MATCH = Annotated[str | None, Header(
    alias="If-Match", max_length=100, description="The campaign's ETag as a GET gave it: 412 if it has moved on.",
)]
COMMAND_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
    "description": "One command object, as on a line of a command file (`rollbook schema`). "
                   "`actor`, `id` and `campaign` come from the token, the Idempotency-Key and the path.",
}, "example": {"type": "take_damage", "character": "Anna", "harm": 1}}}}}


class RoleGrant(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    role: str = Field(json_schema_extra={"enum": list(ROLES)})


def _body_schema(model: type[BaseModel]) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": model.model_json_schema()}}}}


def create_app(store_url: str, *, posts_per_minute: float = POSTS_PER_MINUTE, burst: int = BURST,
               poll_seconds: float = 0.5) -> FastAPI:
    """The Rollbook HTTP API on the store at `store_url`. `posts_per_minute` 0 lifts the rate limit."""
    state = State.open(store_url, RateLimit(posts_per_minute, burst))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        state.close()

    app = FastAPI(title="Rollbook", version="1", lifespan=lifespan,
                  description="Play-by-post campaigns: players post their own moves, signed in as themselves.")
    app.state.rollbook = state
    app.state.poll_seconds = poll_seconds
    app.state.bell = live.Bell(state.store)
    errors.install(app)

    @app.get("/health")
    def health() -> dict[str, Any]:
        """Whether the store answers, and its last position.

        It asks the store itself, behind no lock: a command waiting on a store that went away
        holds its campaign's lock, and the health check must say so (503) rather than wait.
        """
        return {"status": "ok", "store": state.store.kind, "position": state.store.head()}

    @app.get("/campaigns")
    def campaigns(user: str = Depends(signed_in)) -> list[dict[str, Any]]:
        """The campaigns the signed-in user belongs to, as `rollbook campaigns --json` lists them, with the role in each."""
        from ..projections.listing import campaign_row

        rows = [(m, campaign_row(state.reader, m.campaign)) for m, _ in state.campaigns_of(user)]
        return [{**row, "role": membership.role} for membership, row in rows if row is not None]

    @app.get("/whoami")
    def whoami(user: str = Depends(signed_in)) -> dict[str, Any]:
        """The signed-in user's name and role in each campaign (`rollbook whoami`)."""
        return {"user": user, "campaigns": [{"campaign": membership.campaign, "role": membership.role}
                                            for membership, _ in state.campaigns_of(user)]}

    @app.post("/campaigns/{campaign}/commands", status_code=201, openapi_extra=COMMAND_BODY,
              responses={403: {"description": "actor is not the signed-in user"}, 412: {"description": "If-Match failed"},
                         404: {"description": "no such campaign (and the command does not create it)"},
                         422: {"description": "refused by the rules, or malformed"}})
    async def command(request: Request, key: KEY, if_match: IF_MATCH = None,
                      campaign: str = CAMPAIGN, user: str = Depends(posting)) -> JSONResponse:
        """Apply one command as the signed-in user; 201 with its events, rolls and a line in words."""
        body = await json_object(request)
        try:
            answer, repeated = await _in_thread(post_command, state, campaign, user, key, if_match, body)
        except Refusal as refusal:
            return JSONResponse(refusal.body, status_code=refusal.status)
        app.state.bell.ring()
        headers = {"ETag": version_after(answer).etag(), **({"Idempotent-Replayed": "true"} if repeated else {})}
        return JSONResponse(answer, status_code=201, headers=headers)

    @app.put("/campaigns/{campaign}/members/{user}", openapi_extra=_body_schema(RoleGrant))
    async def grant(request: Request, user: str, member: Membership = Depends(in_role("gm"))) -> dict[str, Any]:
        """Give a user a role in the campaign (GM only); who granted it, and when, is recorded."""
        data = await json_object(request, limit=MAX_BODY)
        try:
            role = RoleGrant.model_validate(data).role
        except ValueError as error:
            first = error.errors()[0]  # type: ignore[attr-defined]
            raise HTTPError(422, "body." + ".".join(map(str, first["loc"])), first["msg"]) from None
        check_user_name(user)  # refused (422, field user) before the store is asked
        granted = await _in_thread(state.accounts.grant, member.campaign, user, role, by=member.user)
        return {"campaign": granted.campaign, "user": granted.user, "role": granted.role}

    @app.get("/campaigns/{campaign}/members")
    def members(response: Response, member: Membership = Depends(in_role(*ROLES))) -> dict[str, str]:
        """Every user's role in the campaign."""
        response.headers["ETag"] = version_of(state, member.campaign).etag()
        return state.accounts.roster(member.campaign)

    app.include_router(reads.router)
    app.include_router(audit.router)
    app.include_router(live.router)
    app.include_router(transparency.router)
    from ..integrations import install as install_integrations  # Discord, the mirror, webhooks, forum lines

    install_integrations(app)
    from ..web import install as install_pages

    install_pages(app)
    statuses.document(app)  # after every route: each one's statuses read from what it depends on
    return app


async def _in_thread(function: Any, *args: Any, **kwargs: Any) -> Any:
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args, **kwargs)

