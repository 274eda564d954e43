"""Telegram's settings, beside the store with the other secrets (`../config.py`'s `Keeper`), never printed.

The bot's token (from BotFather), the secret token Telegram sends with each webhook delivery (made here:
`X-Telegram-Bot-Api-Secret-Token`), the public URL the webhook and the proof links start with, and the last
update `rollbook telegram poll` applied.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

from ...store import Store
from ...settings import current
from ..config import Keeper, keeper_for

#: The Bot API's base, the token appended (python-telegram-bot's `base_url`).
TELEGRAM_API = "https://api.telegram.org/bot"


@dataclass(frozen=True)
class TelegramSettings:
    bot_token: str | None = None
    secret_token: str | None = None
    public_url: str | None = None
    #: The last update `rollbook telegram poll` applied: it resumes after it.
    polled: int = 0

    @property
    def api(self) -> str:
        return current().telegram_api or TELEGRAM_API

    @property
    def proof_base(self) -> str | None:
        base = current().public_url or self.public_url
        return base.rstrip("/") if base else None

    @property
    def webhook_url(self) -> str | None:
        return f"{self.public_url.rstrip('/')}/telegram/webhook" if self.public_url else None

    def shown(self) -> dict[str, Any]:
        """What may be printed: the secrets are said to be set or not."""
        return {"bot_token": "set" if self.bot_token else "not set",
                "secret_token": "set" if self.secret_token else "not set",
                "api_base": self.api, "public_url": self.public_url, "webhook": self.webhook_url,
                "polled": self.polled}

    def as_json(self) -> str:
        return json.dumps(asdict(self), indent=2)

    @classmethod
    def from_json(cls, text: str) -> TelegramSettings:
        return cls(**json.loads(text))


def telegram_keeper(store: Store) -> Keeper:
    return keeper_for(store, "telegram", TelegramSettings, "Telegram")
