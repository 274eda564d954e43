"""The Bot API, through python-telegram-bot's `Bot` at the configured base URL, and answers delivered in order.

A 429 (`RetryAfter`) is waited out for as long as Telegram says (`parameters.retry_after`) and the same call
made again, before the next answer is sent: a chat reads them in order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from datetime import timedelta
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import RetryAfter

from ...settings import prefer_timedelta_retries
from .config import TelegramSettings
from ...domain.integrations import came_from
from .desk import PLATFORM, Answer

prefer_timedelta_retries()
T = TypeVar("T")
#: How many 429s in a row one call waits out before it gives up (the mirror then tries again later).
RETRIES = 5


def new_bot(settings: TelegramSettings) -> Bot:
    if not settings.bot_token:
        from ...domain.errors import CommandRejected

        raise CommandRejected("no bot is set up: `rollbook telegram setup --bot-token-file F`", field="bot-token")
    return Bot(settings.bot_token, base_url=settings.api)


def seconds(limited: RetryAfter) -> float:
    wait = limited.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


async def patiently(call: Callable[[], Awaitable[T]], retries: int = RETRIES) -> T:
    """`call()`, made again after each 429's `retry_after`, up to `retries` times."""
    for attempt in range(retries + 1):
        try:
            return await call()
        except RetryAfter as limited:
            if attempt == retries:
                raise
            await asyncio.sleep(seconds(limited))
    raise AssertionError("unreachable")


def with_bot(settings: TelegramSettings, work: Callable[[Bot], Awaitable[T]]) -> T:
    """Run `work` with a bot of its own, from synchronous code (the command line, the mirror's thread)."""
    async def run() -> T:
        async with new_bot(settings) as bot:
            return await work(bot)

    return asyncio.run(run())


def _reply_to(answer: Answer) -> ReplyParameters | None:
    return ReplyParameters(answer.reply_to, allow_sending_without_reply=True) if answer.reply_to else None


def _markup(answer: Answer) -> InlineKeyboardMarkup | None:
    if not answer.buttons:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=data) for label, data in row]
                                 for row in answer.buttons])


async def deliver(bot: Bot, answers: Sequence[Answer], retries: int = RETRIES) -> list[Any]:
    """Send each answer, in order, each 429 waited out (up to `retries` times); what Telegram returned for each."""
    sent = []
    for answer in answers:
        if answer.callback is not None:
            sent.append(await patiently(lambda a=answer: bot.answer_callback_query(
                a.callback, text=a.text or None, show_alert=a.private), retries))
        elif answer.edit is not None:
            sent.append(await patiently(lambda a=answer: bot.edit_message_text(
                a.text, chat_id=a.chat, message_id=a.edit, parse_mode=ParseMode.HTML, reply_markup=_markup(a)),
                retries))
        else:
            sent.append(await patiently(lambda a=answer: bot.send_message(
                a.chat, a.text, parse_mode=ParseMode.HTML, message_thread_id=a.topic, reply_markup=_markup(a),
                reply_parameters=_reply_to(a)), retries))
    return sent


class Unsent(Exception):
    """Telegram did not take a message: `status` 400 if it refused it as it is, None if it could not be reached."""

    def __init__(self, status: int | None, reason: str) -> None:
        super().__init__(f"Telegram answered {status}: {reason}" if status
                         else f"Telegram could not be reached: {reason}")
        self.status = status


class TelegramTarget:
    """The mirror's lane to a bound chat or topic: each command's line, sent as a message in Telegram's HTML.

    A command posted from Telegram is not sent: the desk answered its update with its line there. A 429 is the
    mirror's `RateLimited`, so the lane waits `retry_after` and goes on from the same command."""

    def __init__(self, settings: TelegramSettings, place: str) -> None:
        chat, _, topic = place.partition("/")
        self.settings = settings
        self.chat = int(chat)
        self.topic = int(topic) if topic else None

    def send(self, told: Any, lane: Any) -> bool:
        from telegram.error import BadRequest, TelegramError

        from ..discord_api import RateLimited
        from ..lines import telegram_message

        if (came_from(told.command_id, told.via) or ("",))[0] == PLATFORM:
            return False
        answer = Answer(self.chat, telegram_message(told), self.topic)
        try:
            with_bot(self.settings, lambda bot: deliver_once(bot, answer))
        except RetryAfter as limited:
            raise RateLimited(seconds(limited), False, "Telegram: too many requests") from None
        except BadRequest as refused:
            raise Unsent(400, refused.message) from None
        except TelegramError as error:
            raise Unsent(None, f"{type(error).__name__}: {error}") from None
        return True


async def deliver_once(bot: Bot, answer: Answer) -> Any:
    """One answer, its 429 not waited out here (the mirror's lane waits and keeps its place)."""
    return (await deliver(bot, [answer], retries=0))[0]


def register(settings: TelegramSettings) -> dict[str, Any]:
    """setMyCommands in English (the default) and Russian; setWebhook with the secret token if a public URL is
    set, else deleteWebhook (so that `rollbook telegram poll` gets the updates)."""
    from telegram import BotCommand

    from .texts import COMMANDS

    async def work(bot: Bot) -> dict[str, Any]:
        english = [BotCommand(name, en) for name, en, _ in COMMANDS]
        russian = [BotCommand(name, ru) for name, _, ru in COMMANDS]
        await patiently(lambda: bot.set_my_commands(english))
        await patiently(lambda: bot.set_my_commands(russian, language_code="ru"))
        if settings.webhook_url:
            await patiently(lambda: bot.set_webhook(settings.webhook_url, secret_token=settings.secret_token,
                                                    allowed_updates=["message", "callback_query"]))
        else:
            await patiently(lambda: bot.delete_webhook())
        return {"commands": [name for name, _, _ in COMMANDS], "webhook": settings.webhook_url}

    return with_bot(settings, work)
