"""`POST /telegram/webhook`: Telegram's deliveries, accepted only with the bot's secret token.

Telegram sends the secret token `setWebhook` was given in `X-Telegram-Bot-Api-Secret-Token`; any request
without it (compared in constant time) is 401 before its body is read, and nothing is applied. A delivery
is answered 200 once handled (Telegram would deliver it again otherwise); each update is applied once.
"""

from __future__ import annotations

import hmac
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from telegram.error import TelegramError

from ...hosting.refusals import Refusal
from ...store.logs import Log
from .bot import deliver, new_bot

router = APIRouter()
log = Log("rollbook.telegram")
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
#: The largest update taken: Telegram's are a few kilobytes.
MAX_UPDATE = 100_000


def _unauthorized(reason: str) -> JSONResponse:
    return JSONResponse({"error": {"field": f"{SECRET_HEADER} header", "reason": reason}}, status_code=401)


@router.post("/telegram/webhook", tags=["telegram"],
             responses={401: {"description": "no secret token, or not the bot's"},
                        400: {"description": "not JSON"},
                        413: {"description": f"a body over {MAX_UPDATE} bytes"},
                        422: {"description": "JSON, but not an update (an object with an integer update_id)"}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["update_id"], "description": "A Bot API Update "
                 "(https://core.telegram.org/bots/api#update): a message or a callback_query.",
                 "properties": {"update_id": {"type": "integer"}}}}}}})
async def webhook(request: Request) -> Any:
    """Telegram's updates for the bot (`rollbook telegram register` points the webhook here)."""
    desk = request.app.state.telegram
    settings = desk.keeper.load()
    if not settings.secret_token:
        return _unauthorized("no Telegram bot is set up here (`rollbook telegram setup --bot-token-file F`)")
    given = request.headers.get(SECRET_HEADER, "")
    if not hmac.compare_digest(given.encode(), settings.secret_token.encode()):
        return _unauthorized("not the bot's secret token")
    raw = await request.body()
    if len(raw) > MAX_UPDATE:
        raise Refusal("too_large", "body", f"an update of {len(raw)} bytes; at most {MAX_UPDATE}")
    try:
        data = json.loads(raw)
    except ValueError:
        raise Refusal("malformed", "body", "not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
        raise Refusal("invalid", "body", "expected an update: a JSON object with an integer update_id")
    answers = await run_in_threadpool(desk.handle, data)
    if answers:
        try:
            async with new_bot(settings) as bot:
                await deliver(bot, answers)
        except TelegramError as error:  # applied all the same: Telegram's redelivery would find it and say nothing
            log.error("telegram.answer_failed", update_id=data["update_id"], problem=f"{type(error).__name__}: {error}")
    return {"ok": True}
