"""Open pages update when a command lands: a server-sent event `changed` with the campaign's new position.

The pages do not need the events themselves (the API's `/events` stream has them): only a
nudge to fetch their fragment again. The stream waits on the server's bell, which every
command this process stores rings, and on PostgreSQL every process's commands too.

A page stream holds no thread while it waits, as `/events` does: hundreds of open pages must
not take the threads the posts and the other pages are answered on. And however many pages
watch one campaign, its position is read once per ring of the bell (or per poll), not once
per page.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from .pages import member

router = APIRouter(include_in_schema=False)
#: Seconds between keep-alive comments, so proxies keep an idle stream open.
KEEP_ALIVE = 15.0
Position = tuple[int, str]


class Positions:
    """Each campaign's position (its command count and current revision), read in a thread once for
    every page that asks at the same ring of the bell and the same poll period."""

    def __init__(self, state: Any, poll: float) -> None:
        self.state, self.poll = state, poll
        self._reads: dict[str, tuple[tuple[int, int], asyncio.Future[Position]]] = {}

    async def of(self, campaign: str, rung: int) -> Position:
        loop = asyncio.get_running_loop()
        stamp = (rung, int(loop.time() / self.poll))
        held = self._reads.get(campaign)
        if held is None or held[0] != stamp or _failed(held[1]):
            held = (stamp, asyncio.ensure_future(run_in_threadpool(self._read, campaign)))
            self._reads[campaign] = held
        return await asyncio.shield(held[1])  # a page that leaves does not cancel the others' read

    def _read(self, campaign: str) -> Position:
        state = self.state
        state.caught_up()
        key = state.current_key(campaign)
        commands = state.reader.views.get(key, "campaign", "") or {}
        return int(commands.get("commands", 0)), key


def _failed(read: asyncio.Future[Position]) -> bool:
    """A read that failed (the store went away) is tried again by the next page that asks."""
    return read.done() and (read.cancelled() or read.exception() is not None)


async def opened(request: Request, campaign: str) -> tuple[int, Position]:
    """The member check and the position the page was drawn at, before the stream opens: a stranger
    gets the page's 403 (a signed-out browser the sign-in page), not an open stream, and a command
    stored once the stream has answered is always told."""
    await run_in_threadpool(member, request, campaign)
    rung = request.app.state.bell.rung  # before the read: a ring during it is waited for no longer than that
    return rung, await request.app.state.live_positions.of(campaign, rung)


@router.get("/campaigns/{campaign}/live", response_class=EventSourceResponse)
async def live(request: Request, campaign: str,
               start: tuple[int, Position] = Depends(opened)) -> AsyncIterator[ServerSentEvent]:
    bell, poll, reads = request.app.state.bell, request.app.state.poll_seconds, request.app.state.live_positions
    (rung, seen), idle = start, 0.0
    while True:
        waited = await bell.wait_async(rung, poll)
        rung = bell.rung
        now = await reads.of(campaign, rung)
        if now != seen:
            seen, idle = now, 0.0
            yield ServerSentEvent(event="changed", data={"commands": now[0], "revision_key": now[1]})
            continue
        idle += waited
        if idle >= KEEP_ALIVE:
            idle = 0.0
            yield ServerSentEvent(comment="waiting")
