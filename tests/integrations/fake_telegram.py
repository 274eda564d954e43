"""A fake Telegram Bot API on 127.0.0.1: `/bot<token>/<method>` answered with the Bot API's JSON.

It keeps every call it took (`calls`, in order, the 429s too) with its parameters, serves `getUpdates` from
`updates` (those after the `offset`), and answers a queued failure first: `limit(retry_after=1)` makes the
next call a 429 with `parameters.retry_after`. Only the test token is known: any other is 401.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from .fake_discord import Running

BOT_TOKEN = "123456:test-telegram-token"
BOT = {"id": 123456, "is_bot": True, "first_name": "Rollbook", "username": "rollbook_test_bot"}


@dataclass
class FakeTelegram:
    calls: list[dict[str, Any]] = field(default_factory=list)
    updates: list[dict[str, Any]] = field(default_factory=list)
    failures: deque[int] = field(default_factory=deque)
    lock: threading.Lock = field(default_factory=threading.Lock)
    ids: Any = field(default_factory=lambda: itertools.count(1000))

    def reset(self) -> None:
        with self.lock:
            self.calls.clear()
            self.updates.clear()
            self.failures.clear()

    def limit(self, retry_after: int = 1, count: int = 1) -> None:
        with self.lock:
            self.failures.extend([retry_after] * count)

    def made(self, method: str) -> list[dict[str, Any]]:
        """The calls of `method` Telegram took (not those it answered 429)."""
        with self.lock:
            return [c["params"] for c in self.calls if c["method"] == method and c["status"] == 200]

    def _message(self, params: dict[str, Any]) -> dict[str, Any]:
        chat = {"id": int(params["chat_id"]), "type": "supergroup", "title": "Black Sails"}
        message = {"message_id": int(params.get("message_id") or next(self.ids)), "date": int(time.time()),
                   "chat": chat, "text": params.get("text", ""), "from": BOT}
        if params.get("message_thread_id"):
            message |= {"message_thread_id": int(params["message_thread_id"]), "is_topic_message": True}
        return message

    def answer(self, method: str, params: dict[str, Any]) -> Any:
        if method == "getMe":
            return BOT
        if method in ("sendMessage", "editMessageText"):
            return self._message(params)
        if method == "getUpdates":
            offset = int(params.get("offset") or 0)
            return [u for u in self.updates if u["update_id"] >= offset][: int(params.get("limit") or 100)]
        return True  # setMyCommands, setWebhook, answerCallbackQuery, deleteWebhook

    def app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/bot{token}/{method}")
        async def call(token: str, method: str, request: Request) -> JSONResponse:
            raw = await request.body()
            if request.headers.get("content-type", "").startswith("application/json"):
                params = json.loads(raw or b"{}")
            else:
                form = await request.form()
                params = {k: _value(str(v)) for k, v in form.items()}
            if token != BOT_TOKEN:
                return JSONResponse({"ok": False, "error_code": 401, "description": "Unauthorized"}, status_code=401)
            with self.lock:
                if self.failures and method != "getMe":
                    wait = self.failures.popleft()
                    self.calls.append({"method": method, "params": params, "status": 429})
                    return JSONResponse({"ok": False, "error_code": 429, "parameters": {"retry_after": wait},
                                         "description": f"Too Many Requests: retry after {wait}"}, status_code=429)
                self.calls.append({"method": method, "params": params, "status": 200})
                result = self.answer(method, params)
            return JSONResponse({"ok": True, "result": result})

        return app


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


class RunningTelegram(Running):
    """The fake served by uvicorn on a thread, on a free port of 127.0.0.1 (as the fake Discord is)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"
