"""One command over HTTP: `POST /campaigns/{c}/commands`, signed in, idempotent by its Idempotency-Key,
optionally conditional on the campaign's version (If-Match). The post itself is hosting/posting.py's, as
the pages' and the chats' are; a refusal is answered by errors.py.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ..hosting.host import Host
from ..hosting.posting import post_command, version_after
from ..hosting.refusals import Refusal
from .auth import CAMPAIGN, token_given
from .body import json_bytes, parsed
from .state import CurrentState

router = APIRouter(tags=["commands"])

KEY = Annotated[str, Header(
    alias="Idempotency-Key", min_length=1, max_length=200, pattern=r"^[^#\s]+$",
    description="Required on every POST: the command's id. The same key with the same body gets the same answer.",
)]
SHORT_ID = Annotated[bool, Header(
    alias="Rollbook-Short-Id", description="true: the command's id is one a person can say, the signed-in user's "
    "name and a counter (`anna-7`), unique in the campaign and kept for this Idempotency-Key (a retry gets the same "
    "one); without it, or with an `id` in the body, the key is the id.",
)]
IF_MATCH = Annotated[str | None, Header(
    alias="If-Match", max_length=100, description="The campaign's ETag as a GET gave it: 412 if it has moved on.",
)]
COMMAND_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
    "description": "One command object, as on a line of a command file (`rollbook schema`). "
                   "`actor`, `id` and `campaign` come from the token, the Idempotency-Key and the path.",
}, "example": {"type": "take_damage", "character": "Anna", "harm": 1}}}}}


@router.post("/campaigns/{campaign}/commands", status_code=201, openapi_extra=COMMAND_BODY,
             responses={403: {"description": "actor is not the signed-in user"}, 412: {"description": "If-Match failed"},
                        404: {"description": "no such campaign (and the command does not create it)"},
                        422: {"description": "refused by the rules, or malformed"},
                        # The rate limit is taken in the post's own thread (signed_in_post), not by `posting`.
                        429: {"description": "more POSTs a minute than the server allows this token"}})
async def command(request: Request, state: CurrentState, key: KEY, if_match: IF_MATCH = None,
                  short_id: SHORT_ID = False, campaign: str = CAMPAIGN,
                  token: str = Depends(token_given)) -> JSONResponse:
    """Apply one command as the signed-in user; 201 with its events, rolls and a line in words."""
    try:
        raw: bytes | Refusal = await json_bytes(request)
    except Refusal as refused:  # said after the sign-in, as a body is refused only to who signed in
        raw = refused
    answer, repeated = await run_in_threadpool(signed_in_post, state, token, campaign, key, if_match, raw, short_id)
    request.app.state.bell.ring()
    headers = {"ETag": version_after(answer).etag(), **({"Idempotent-Replayed": "true"} if repeated else {})}
    return JSONResponse(answer, status_code=201, headers=headers)


def signed_in_post(state: Host, token: str, campaign: str, key: str, if_match: str | None,
                   raw: bytes | Refusal, short_id: bool) -> tuple[dict[str, Any], bool]:
    """`post_command` as the token's user, in the one thread the post takes: its sign-in, role and key read
    together (hosting/standing.py), then its rate and its body (`raw`, or why it was refused) checked."""
    standing = state.standings.of_token(token, campaign, key)
    state.rate_limit.take(standing.user)
    if isinstance(raw, Refusal):
        raise raw
    return post_command(state, campaign, standing.user, key, if_match, parsed(raw), short_id=short_id,
                        standing=standing)
