"""A fake Discord HTTP API on 127.0.0.1: the few endpoints Rollbook calls, with failures on demand.

It keeps every request it took (`deliveries`, in order, 429s and 500s included) and what they
made (`messages` per channel, `originals` per interaction token), and applies Discord's
`enforce_nonce`: a message sent again with the same nonce returns the first and makes none.
`answer(...)` queues failures: `answer(429, retry_after=0.05)`, `answer(500, count=3)`.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from rollbook.testing.serving import free_port

BOT_TOKEN = "test-bot-token"


@dataclass
class FakeDiscord:
    deliveries: list[dict[str, Any]] = field(default_factory=list)
    messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    originals: dict[str, str] = field(default_factory=dict)
    follow_ups: list[dict[str, Any]] = field(default_factory=list)
    commands: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: Interaction tokens Discord knows (answered at once or deferred): an edit of any other is 404.
    tokens: set[str] = field(default_factory=set)
    failures: deque[tuple[int, float]] = field(default_factory=deque)
    #: Seconds each request waits before it is answered (a slow Discord).
    delay: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: Any = field(default_factory=lambda: itertools.count(10**17))

    def reset(self) -> None:
        """Forget everything, for the next test (one fake serves a whole run)."""
        with self.lock:
            for kept in (self.deliveries, self.follow_ups, self.failures):
                kept.clear()
            for held in (self.messages, self.originals, self.commands):
                held.clear()
            self.tokens.clear()
            self.delay = 0.0

    def answer(self, status: int, *, count: int = 1, retry_after: float = 0.05) -> None:
        with self.lock:
            self.failures.extend([(status, retry_after)] * count)

    def channel(self, channel: str) -> list[str]:
        with self.lock:
            return [m["content"] for m in self.messages.get(channel, [])]

    def sent(self, kind: str) -> list[dict[str, Any]]:
        with self.lock:
            return [d for d in self.deliveries if d["kind"] == kind]

    def _failure(self, kind: str, body: Any) -> JSONResponse | None:
        with self.lock:
            if not self.failures:
                return None
            status, retry = self.failures.popleft()
            self.deliveries.append({"kind": kind, "status": status, "body": body, "at": time.monotonic()})
        if status == 429:
            return JSONResponse({"message": "You are being rate limited.", "retry_after": retry, "global": False},
                                status_code=429, headers={"Retry-After": str(max(1, round(retry)))})
        return JSONResponse({"message": "Internal Server Error", "code": 0}, status_code=status)

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/api/v10/channels/{channel}/messages")
        async def create_message(channel: str, request: Request) -> JSONResponse:
            body = await request.json()
            if self.delay:
                time.sleep(self.delay)
            if request.headers.get("authorization") != f"Bot {BOT_TOKEN}":
                return JSONResponse({"message": "401: Unauthorized", "code": 0}, status_code=401)
            failed = self._failure("message", body)
            if failed is not None:
                return failed
            with self.lock:
                self.deliveries.append({"kind": "message", "status": 200, "body": body, "channel": channel,
                                        "at": time.monotonic()})
                kept = self.messages.setdefault(channel, [])
                same = next((m for m in kept if body.get("enforce_nonce") and m["nonce"] == body.get("nonce")), None)
                if same is None:
                    same = {"id": str(next(self.ids)), "channel_id": channel, "content": body["content"],
                            "nonce": body.get("nonce")}
                    kept.append(same)
            return JSONResponse(same)

        @app.patch("/api/v10/webhooks/{application}/{token}/messages/@original")
        async def edit_original(application: str, token: str, request: Request) -> JSONResponse:
            body = await request.json()
            failed = self._failure("edit", body)
            if failed is not None:
                return failed
            with self.lock:
                known = token in self.tokens
                self.deliveries.append({"kind": "edit", "status": 200 if known else 404, "body": body, "token": token,
                                        "at": time.monotonic()})
                if known:
                    self.originals[token] = body["content"]
            if not known:
                return JSONResponse({"message": "Unknown Webhook", "code": 10015}, status_code=404)
            return JSONResponse({"id": str(next(self.ids)), "content": body["content"]})

        @app.post("/api/v10/webhooks/{application}/{token}")
        async def follow_up(application: str, token: str, request: Request) -> JSONResponse:
            body = await request.json()
            with self.lock:
                self.follow_ups.append({"token": token, **body})
            return JSONResponse({"id": str(next(self.ids)), **body})

        @app.put("/api/v10/applications/{application}/commands")
        @app.put("/api/v10/applications/{application}/guilds/{guild}/commands")
        async def put_commands(application: str, request: Request, guild: str | None = None) -> JSONResponse:
            if request.headers.get("authorization") != f"Bot {BOT_TOKEN}":
                return JSONResponse({"message": "401: Unauthorized", "code": 0}, status_code=401)
            body = await request.json()
            with self.lock:
                self.commands[guild or "global"] = body
            return JSONResponse([{**c, "id": str(next(self.ids))} for c in body])

        return app


class Running:
    """The fake served by uvicorn on a thread, on a free port of 127.0.0.1."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(fake.app(), host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    def __enter__(self) -> FakeDiscord:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the fake Discord did not start")
            time.sleep(0.01)
        return self.fake

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
