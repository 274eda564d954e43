"""`GET /campaigns/{c}/events`: the campaign's events as they are stored, as server-sent events.

Each event's `id:` is its position and its `data:` the `log --json` entry. A first connection
gets the live end: what is stored from then on, not the history (`/log` has that, or `?from=0`:
everything after position 0; `?from=N`, after N). A client that reconnects with `Last-Event-ID`
gets what came after that position, so nothing is missed and nothing repeated; the header wins
over `from`. A stream waits for news on a `Bell`: rung by the library's
subscription on PostgreSQL (LISTEN/NOTIFY: a command stored by any server process), and on
SQLite, which has no subscriptions, by this process's own commands and a poll.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.sse import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from ..domain.accounts import ROLES
from ..store import Store
from ..store.failures import is_store_failure
from ..store.reads import subscription_after
from ..hosting.accounts import Membership
from .auth import in_role
from ..hosting.answers import jsonable

router = APIRouter(prefix="/campaigns/{campaign}")
#: Seconds between keep-alive comments on an idle stream, so proxies do not close it.
KEEP_ALIVE = 15.0


class Bell:
    """Rung whenever events may have been stored: a waiting stream reads the store again only then
    (or after its poll, for another process's commands on SQLite)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.condition = threading.Condition()
        self.rung = 0
        self._listening = False
        #: The streams waiting on an event loop, each woken by its own future: a ring costs one call per
        #: waiting stream, and a stream costs nothing while nothing rings.
        self._waiting: dict[asyncio.Future[None], asyncio.AbstractEventLoop] = {}

    def ring(self) -> None:
        with self.condition:
            self.rung += 1
            self.condition.notify_all()
            waiting, self._waiting = self._waiting, {}
        for future, loop in waiting.items():
            try:
                loop.call_soon_threadsafe(_wake, future)  # rung from a thread (a post) or from the loop itself
            except RuntimeError:
                pass  # that loop has closed (its server stopped): nobody is left there to wake

    def wait(self, seen: int, timeout: float) -> int:
        """Wait in this thread until rung after `seen` (or `timeout` seconds); the count to wait after next."""
        self._listen()
        with self.condition:
            self.condition.wait_for(lambda: self.rung != seen, timeout=timeout)
            return self.rung

    async def wait_async(self, seen: int, timeout: float) -> float:
        """Wait, without holding a thread, until rung after `seen` or `timeout` seconds; the seconds waited."""
        self._listen()
        loop = asyncio.get_running_loop()
        started = loop.time()
        with self.condition:
            if self.rung != seen:
                return 0.0
            future: asyncio.Future[None] = loop.create_future()
            self._waiting[future] = loop
        try:
            await asyncio.wait_for(future, timeout)
        except TimeoutError:
            pass
        finally:
            with self.condition:
                self._waiting.pop(future, None)
        return loop.time() - started

    def _listen(self) -> None:
        """On PostgreSQL, one thread per process follows the subscription and rings at every commit."""
        if self._listening or self.store.kind not in ("postgresql", "postgres"):
            return
        self._listening = True
        threading.Thread(target=self._follow, name="rollbook-bell", daemon=True).start()

    def _follow(self) -> None:
        stopping = threading.Event()
        while not stopping.is_set():
            try:
                with subscription_after(self.store, self.store.head()) as subscription:
                    for _ in subscription:
                        self.ring()
            except Exception as error:
                if not is_store_failure(error):
                    raise
                stopping.wait(1.0)  # the database went away: listen again once it is back


@router.get("/events", response_class=EventSourceResponse)
async def events(
    request: Request,
    last_event_id: Annotated[int | None, Header(alias="Last-Event-ID", ge=0, le=2**53,
                                                description="Resume after this position (wins over `from`).")] = None,
    after: Annotated[int | None, Query(alias="from", ge=0, le=2**53, description=(
        "Start after this position: 0 for the whole history. Left out (and no Last-Event-ID): the live end, "
        "only what is stored from now on."))] = None,
    member: Membership = Depends(in_role(*ROLES)),
) -> AsyncIterator[ServerSentEvent]:
    """The campaign's events as they are stored: from the live end, or after `Last-Event-ID` (a reconnection) or `from`.

    A stream holds no thread while it waits (only while it reads), so many open streams do not
    starve the posts of threads."""
    state = request.app.state.rollbook
    bell: Bell = request.app.state.bell
    poll = request.app.state.poll_seconds

    def read(after: int) -> list[dict[str, Any]]:
        # Only as far as the projections have read: the roster they hold names every aggregate up to there.
        reached = state.reader.catch_up()
        return jsonable(list(state.reader.log(state.current_key(member.campaign), start=after, stop=reached)))

    if last_event_id is not None:
        position = last_event_id
    elif after is not None:
        position = after
    else:  # the live end: nothing stored before the stream opened
        position = await run_in_threadpool(state.store.head)
    idle = 0.0
    while True:
        rung = bell.rung
        entries = await run_in_threadpool(read, position)
        for entry in entries:
            position = entry["position"]
            yield ServerSentEvent(id=str(position), data=entry)
        if entries:
            idle = 0.0
            continue
        if idle >= KEEP_ALIVE:
            idle = 0.0
            yield ServerSentEvent(comment="waiting")
        idle += await bell.wait_async(rung, poll)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():  # a stream whose wait timed out (or whose client left) has cancelled it
        future.set_result(None)
