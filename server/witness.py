"""`rollbook witness serve`: a witness's C2SP tlog-witness API (https://c2sp.org/tlog-witness), for any log it was
told to witness (`rollbook witness add`: a store or server it fetches from, or a log's origin and vkey).

    POST /add-checkpoint    `old SIZE`, the consistency proof's lines (base64), a blank line, the checkpoint

    200  the witness's cosignature line (tlog-cosignature/v1), text
    400  malformed: no `old SIZE`, a size with leading zeroes, more than 63 proof lines, an old size above the
         checkpoint's
    403  the checkpoint is not signed by the log's key the witness trusts
    404  no log of that origin is witnessed here
    409  the old size is not the size the witness co-signed last (or it is, with another root): the body is that
         size, `text/x.tlog.size`
    422  the consistency proof does not verify (kept as evidence, with both checkpoints)

The checks and the state are `replay/witness.py`'s `add_checkpoint`, one SQLite transaction each.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

#: The largest request taken: a checkpoint with its signatures and 63 proof lines are a few kilobytes.
MAX_REQUEST = 64 * 1024
SIZE_TYPE = "text/x.tlog.size"
REQUEST = {"requestBody": {"required": True, "content": {"text/plain": {"schema": {
    "type": "string", "description": "`old SIZE`, one base64 line per hash of the consistency proof from that size, "
                                     "a blank line, then the checkpoint (a signed note)."}}}}}
ANSWERS = {
    200: {"description": "The witness's cosignature line.", "content": {"text/plain": {"schema": {"type": "string"}}}},
    400: {"description": "malformed"}, 403: {"description": "not signed by the log's key"},
    404: {"description": "no log of that origin is witnessed here"},
    409: {"description": "not the size co-signed last: the body is that size",
          "content": {SIZE_TYPE: {"schema": {"type": "string"}}}},
    413: {"description": "too large"}, 422: {"description": "the consistency proof does not verify"},
}


def create_witness_app(state: Path) -> FastAPI:
    """The HTTP API of the witness kept in `state` (it must exist: `rollbook witness add` makes it)."""
    from ..replay.log_sources import Refusal
    from ..replay.witness import add_checkpoint, known_logs, open_witness

    witness = open_witness(state)
    api = FastAPI(title=f"Rollbook witness {witness.name}", version="1",
                  description="C2SP tlog-witness: co-signs each checkpoint that extends the last one it co-signed.")

    @api.post("/add-checkpoint", response_class=PlainTextResponse, openapi_extra=REQUEST, responses=ANSWERS)
    async def add(request: Request) -> Response:
        """Co-sign a checkpoint that extends the one co-signed last for its origin (the consistency proof shows it)."""
        body = await request.body()
        if len(body) > MAX_REQUEST:
            return PlainTextResponse(f"a request of {len(body)} bytes; at most {MAX_REQUEST}\n", status_code=413)
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return PlainTextResponse("the request is not UTF-8\n", status_code=400)
        where = f"add-checkpoint from {request.client.host if request.client else 'a client'}"
        try:
            cosignature = await run_in_threadpool(lambda: add_checkpoint(witness, text, known_logs(witness),
                                                                         source=where))
        except Refusal as refusal:
            if refusal.status == 409:
                # Set as a header: a media type given to a response gets `; charset=` added after it.
                return Response(refusal.body, status_code=409, headers={"Content-Type": SIZE_TYPE})
            return PlainTextResponse(refusal.reason + "\n", status_code=refusal.status)
        return PlainTextResponse(cosignature.line)

    return api
