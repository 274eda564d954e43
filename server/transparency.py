"""The campaign's log over HTTP: its checkpoints with their cosignatures, proofs, and witnesses' cosignatures.

    GET  /campaigns/{c}/checkpoint/note           the C2SP checkpoint now (or ?size=, ?cosigned=true), text
    GET  /campaigns/{c}/checkpoint/vkey           the campaign's verifier key, text
    POST /campaigns/{c}/checkpoint/cosignatures   a witness's cosignature (tlog-witness's add-checkpoint, seen from the log)
    GET  /campaigns/{c}/proof/inclusion?roll=&size=      `rollbook prove ROLL --json`
    GET  /campaigns/{c}/proof/consistency?from=&to=      `rollbook prove --consistency --json`

For members of the campaign, like every read; `domain/transparency/proof.py` documents the formats.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse

from ..domain.accounts import ROLES
from ..hosting.accounts import Membership
from .auth import in_role, posting
from .body import MAX_BODY
from ..hosting.refusals import Kind, Refusal
from ..hosting.host import Host

router = APIRouter(prefix="/campaigns/{campaign}", tags=["transparency log"])
member_of = in_role(*ROLES)
REVISION = Annotated[int | None, Query(ge=1, le=1_000_000, description="A revision of the campaign (default: current).")]
SIZE = Annotated[int | None, Query(ge=0, le=2**62, description="The log at this many commands (default: now).")]
TEXT = {"content": {"text/plain": {"schema": {"type": "string"}}}}
NOTE = {200: {"description": "A C2SP checkpoint (signed note): origin, size, base64 root, `revision N`, a blank "
                             "line, the campaign key's signature line and every witness's cosignature line.", **TEXT}}
SUBMISSION = {"requestBody": {"required": True, "content": {"text/plain": {"schema": {
    "type": "string", "description": "`witness VKEY` (the witness's vkey, signature type 0x04), a blank line, then the "
                                     "checkpoint as the witness co-signed it: the note with the log's signature and the "
                                     "witness's C2SP cosignature/v1 line(s)."}}}}}


#: The kinds of refusal of tlog-witness's table of statuses, which the log's answers to a cosignature follow.
TLOG_WITNESS_KINDS: dict[int, Kind] = {400: "malformed", 403: "forbidden", 404: "not_found", 409: "conflict",
                                       422: "invalid"}


def _state(request: Request) -> Host:
    return request.app.state.rollbook


@router.get("/checkpoint/note", response_class=PlainTextResponse, responses=NOTE)
def checkpoint_note(request: Request, revision: REVISION = None, size: SIZE = None,
                    cosigned: Annotated[bool, Query(description="The latest checkpoint a witness co-signed.")] = False,
                    member: Membership = Depends(member_of)) -> PlainTextResponse:
    """The checkpoint of the campaign's Merkle tree (signed by its key; the same size always gives the same bytes),
    with every cosignature witnesses sent for it: what `rollbook witness check` fetches, and a player keeps."""
    from ..replay.transparency import published

    state = _state(request)
    head = published(state.store, member.campaign, revision=revision, size=size, cosigned=cosigned)
    return PlainTextResponse(str(head.note))


@router.get("/checkpoint/vkey", response_class=PlainTextResponse, responses={200: {"description": "NAME+KEYID+KEY", **TEXT}})
def vkey(request: Request, member: Membership = Depends(member_of)) -> PlainTextResponse:
    """The campaign's verifier key (C2SP signed-note vkey, Ed25519): what `check-proof --vkey` and witnesses trust."""
    from ..replay.transparency import open_log

    state = _state(request)
    return PlainTextResponse(open_log(state.store, member.campaign).verifier.vkey + "\n")


@router.post("/checkpoint/cosignatures", response_class=PlainTextResponse, openapi_extra=SUBMISSION, responses={
    **NOTE, 400: {"description": "malformed"}, 403: {"description": "not signed by the campaign's key, or not co-signed "
                                                                     "by the witness named"},
    404: {"description": "not a log of this campaign"}, 409: {"description": "not this log's history at that size: "
                                                                             "the log's own checkpoint is in the reason"},
    422: {"description": "larger than the log"}})
async def cosignature(request: Request, member: Membership = Depends(member_of),
                      _within_the_rate_limit: str = Depends(posting)) -> PlainTextResponse:
    """Take a witness's cosignature of one of the campaign's checkpoints, and answer with the checkpoint and every
    cosignature now kept for it. The witness has checked the checkpoint extends the one it co-signed before
    (C2SP tlog-witness); the log checks it signed this very checkpoint of this very history."""
    from starlette.concurrency import run_in_threadpool

    from ..replay.transparency import Refused, accept_cosignature

    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise Refusal("too_large", "body", f"a body of {len(raw)} bytes; at most {MAX_BODY}")
    try:
        submission = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Refusal("malformed", "body", "not UTF-8") from None
    state = _state(request)

    def accept() -> Any:
        with state.writing(member.campaign):
            return accept_cosignature(state.store, member.campaign, submission)

    try:
        head = await run_in_threadpool(accept)
    except Refused as refused:
        reason = refused.reason + (f"; the log's checkpoint at that size:\n{refused.body}" if refused.body else "")
        raise Refusal(TLOG_WITNESS_KINDS[refused.status], "body", reason) from None
    return PlainTextResponse(str(head.note))


@router.get("/proof/inclusion")
def inclusion(request: Request, roll: Annotated[str, Query(min_length=1, max_length=200, description="A roll's id (or a command's).")],
              size: SIZE = None, revision: REVISION = None, member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook prove ROLL --json`: the RFC 9162 inclusion proof of the command that made the roll, in the log at
    `size` commands, with the command's record, the roll's event and the signed checkpoint."""
    from ..replay.transparency import inclusion_proof

    state = _state(request)
    return inclusion_proof(state.store, member.campaign, roll, size=size or None, revision=revision)


@router.get("/proof/consistency")
def consistency(request: Request, start: Annotated[int, Query(alias="from", ge=0, le=2**62, description="The earlier size.")],
                to: SIZE = None, revision: REVISION = None, member: Membership = Depends(member_of)) -> dict[str, Any]:
    """`rollbook prove --consistency OLD NEW --json`: the RFC 9162 consistency proof between the log at `from` and at
    `to` commands (now, by default), with both signed checkpoints."""
    from ..replay.transparency import consistency_proof

    state = _state(request)
    return consistency_proof(state.store, member.campaign, start, to, revision=revision)
