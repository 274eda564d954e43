"""Telegram: the second adapter on the chat core (`members.py`, `chat.py`, `lines.py`, the mirror's outbox).

- `config.py`: the bot's token and the webhook's secret token, kept beside the store (0600);
- `bot.py`: the Bot API through python-telegram-bot's `Bot` (its base URL `ROLLBOOK_TELEGRAM_API`), 429s waited;
- `desk.py`: an update answered (who, where, which command), `texts.py` every word it says;
- `routes.py`: `POST /telegram/webhook`, accepted only with the secret token.

A Telegram account is a `ChatTie("telegram", "member", user id)`; a place, a group (`-100…`) or one forum topic
of it (`-100…/7`), is a `ChatTie("telegram", "place", …)`.
"""

from __future__ import annotations

import re

from ...domain.errors import CommandRejected
from ..members import chat_platform

#: A Telegram user id: its digits.
ACCOUNT = re.compile(r"^[0-9]{1,20}$")
#: A place: a chat id (a group's is negative), then `/` and a forum topic's id, if it is one topic.
PLACE = re.compile(r"^-?[0-9]{1,20}(/[0-9]{1,10})?$")


def check_telegram(value: str, field: str) -> str:
    pattern = PLACE if field == "channel" else ACCOUNT
    if not isinstance(value, str) or not pattern.match(value):
        what = "a chat id (a group's begins with -100), with /TOPIC for one forum topic" if field == "channel" \
            else "a Telegram user id: its digits"
        raise CommandRejected(f"{what} (got {value!r})", field=field)
    return value


def place_of(chat: int | str, topic: int | str | None) -> str:
    return f"{chat}/{topic}" if topic else str(chat)


TELEGRAM = chat_platform("telegram", check_telegram)
