"""The FastAPI application of the HTTP API: `create_api(host)`; the routes are thin, the use cases decide.

The composition root (bootstrap/) builds the host and mounts the pages and the chats beside the API:

    uvicorn.run(bootstrap.create_app("sqlite:///rollbook.db"), host="127.0.0.1", port=8421)

Each response body has the shape of the CLI's `--json` for the same verb; errors are
`{"error": {"field", "reason", ...}}` (see errors.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from ..hosting.host import Host
from . import audit, errors, health, live, memberships, posting, reads, statuses, tiles, transparency
from .warmup import warm_up


def create_api(host: Host, *, poll_seconds: float = 0.5) -> FastAPI:
    """The Rollbook HTTP API over `host`, which it closes when it stops; `poll_seconds`: how often the live
    routes look for what another process stored."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(warm_up, host.reader)  # before the first request: see warmup.py
        yield
        host.close()

    app = FastAPI(title="Rollbook", version="1", lifespan=lifespan,
                  description="Play-by-post campaigns: players post their own moves, signed in as themselves.")
    app.state.rollbook = host
    app.state.poll_seconds = poll_seconds
    app.state.bell = live.Bell(host.store)
    errors.install(app)

    for resource in (health, memberships, posting, reads, audit, live, transparency, tiles):
        app.include_router(resource.router)
    # Read when the document is first asked for: the routes mounted beside the API by then are documented too.
    statuses.document(app)
    return app
