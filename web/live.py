"""Open pages update when a command lands: a server-sent event `changed` with the campaign's new position.

The pages do not need the events themselves (the API's `/events` stream has them): only a
nudge to fetch their fragment again. The stream waits on the server's bell, which every
command this process stores rings, and on PostgreSQL every process's commands too.
"""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import APIRouter, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent

from .pages import member

router = APIRouter(include_in_schema=False)
#: Seconds between keep-alive comments, so proxies keep an idle stream open.
KEEP_ALIVE = 15.0


@router.get("/campaigns/{campaign}/live", response_class=EventSourceResponse)
def live(request: Request, campaign: str) -> Iterator[ServerSentEvent]:
    member(request, campaign)
    state, bell, poll = request.app.state.rollbook, request.app.state.bell, request.app.state.poll_seconds

    def position() -> tuple[int, str]:
        with state.lock:
            state.reader.catch_up()
            key = state.service.key_for(campaign)
            commands = state.reader.views.get(key, "campaign", "") or {}
            return int(commands.get("commands", 0)), key

    seen, rung, idle = position(), bell.rung, 0.0
    while True:
        rung = bell.wait(rung, poll)
        now = position()
        if now != seen:
            seen, idle = now, 0.0
            yield ServerSentEvent(event="changed", data={"commands": now[0], "revision_key": now[1]})
            continue
        idle += poll
        if idle >= KEEP_ALIVE:
            idle = 0.0
            yield ServerSentEvent(comment="waiting")
