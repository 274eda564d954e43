"""The FastAPI application: `create_app(store_url)`; the routes are thin, the service layer decides.

    uvicorn.run(create_app("sqlite:///rollbook.db"), host="127.0.0.1", port=8421)

Each response body has the shape of the CLI's `--json` for the same verb; errors are
`{"error": {"field", "reason", ...}}` (see errors.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from . import audit, errors, health, live, memberships, posting, reads, statuses, tiles, transparency
from .auth import RateLimit
from .state import State
from .warmup import warm_up

#: Posts a minute each token may make (a burst of BURST at once), unless `create_app` is told otherwise.
POSTS_PER_MINUTE = 600
BURST = 60


def create_app(store_url: str, *, posts_per_minute: float = POSTS_PER_MINUTE, burst: int = BURST,
               poll_seconds: float = 0.5, allow_webhook_networks: tuple[str, ...] = ()) -> FastAPI:
    """The Rollbook HTTP API on the store at `store_url`. `posts_per_minute` 0 lifts the rate limit; webhooks may
    send to public addresses, and to the CIDR ranges in `allow_webhook_networks`."""
    state = State.open(store_url, RateLimit(posts_per_minute, burst))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await run_in_threadpool(warm_up, state.reader)  # before the first request: see warmup.py
        yield
        state.close()

    app = FastAPI(title="Rollbook", version="1", lifespan=lifespan,
                  description="Play-by-post campaigns: players post their own moves, signed in as themselves.")
    app.state.rollbook = state
    app.state.poll_seconds = poll_seconds
    app.state.bell = live.Bell(state.store)
    errors.install(app)

    for resource in (health, memberships, posting, reads, audit, live, transparency, tiles):
        app.include_router(resource.router)
    from ..integrations import install as install_integrations  # Discord, the mirror, webhooks, forum lines

    install_integrations(app, allow_webhook_networks)
    from ..web import install as install_pages

    install_pages(app)
    statuses.document(app)  # after every route: each one's statuses read from what it depends on
    return app

