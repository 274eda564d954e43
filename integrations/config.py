"""The integrations' settings, kept beside the store with its other secrets, never in it.

The Discord application (its id, its public key, the bot's token), where Discord's API is
(tests point it at a fake on 127.0.0.1), the public URL proof links start with, and the outgoing
webhooks (URL and signing secret) each campaign is mirrored to. For a SQLite store they are
`FILE.db.secrets/discord/config.json`, for PostgreSQL `$ROLLBOOK_SECRETS/discord/config.json`:
a file only its owner can read (0600) in folders only its owner can enter (0700), written whole
and renamed into place. `memory://` keeps them in memory, for the process. Nothing here is ever
printed: `rollbook discord setup --json` says whether a token is set, not what it is.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ..domain.errors import CommandRejected
from ..settings import current
from ..store import Store, secrets_folder
from ..store.keys import PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE
from .outbound import without_credentials

#: Discord's HTTP API, version 10 (https://discord.com/developers/docs/reference#api-versioning).
DISCORD_API = "https://discord.com/api/v10"


@dataclass(frozen=True)
class Webhook:
    id: str
    campaign: str
    url: str
    secret: str
    #: The store's position when it was added: it is sent what comes after.
    since: int

    def shown(self) -> dict[str, Any]:
        """What may be printed: not the secret, nor credentials in the URL (refused now, kept by older versions)."""
        return {"id": self.id, "campaign": self.campaign, "url": without_credentials(self.url), "since": self.since}


@dataclass(frozen=True)
class Settings:
    application_id: str | None = None
    public_key: str | None = None
    bot_token: str | None = None
    api_base: str = DISCORD_API
    public_url: str | None = None
    webhooks: tuple[Webhook, ...] = field(default_factory=tuple)

    @property
    def api(self) -> str:
        return (current().discord_api or self.api_base).rstrip("/")

    @property
    def proof_base(self) -> str | None:
        base = current().public_url or self.public_url
        return base.rstrip("/") if base else None

    def shown(self) -> dict[str, Any]:
        """What may be printed: everything but the secrets, which are said to be set or not."""
        return {"application_id": self.application_id, "public_key": self.public_key,
                "bot_token": "set" if self.bot_token else "not set", "api_base": self.api,
                "public_url": self.proof_base, "webhooks": [w.shown() for w in self.webhooks]}

    def as_json(self) -> str:
        data = asdict(self)
        data["webhooks"] = [asdict(w) for w in self.webhooks]
        return json.dumps(data, indent=2)

    @classmethod
    def from_json(cls, text: str) -> Settings:
        data = json.loads(text)
        webhooks = tuple(Webhook(**w) for w in data.pop("webhooks", []))
        return cls(**data, webhooks=webhooks)

    def with_webhook(self, campaign: str, url: str, secret: str | None, since: int) -> tuple[Settings, Webhook]:
        webhook = Webhook(id=f"wh-{secrets.token_hex(4)}", campaign=campaign, url=url,
                          secret=secret or secrets.token_hex(32), since=since)
        return replace(self, webhooks=(*self.webhooks, webhook)), webhook

    def without_webhook(self, webhook_id: str) -> Settings:
        if not any(w.id == webhook_id for w in self.webhooks):
            raise CommandRejected(f"no webhook {webhook_id!r} (`rollbook webhook list` shows them)", field="webhook")
        return replace(self, webhooks=tuple(w for w in self.webhooks if w.id != webhook_id))


class Keeper:
    """Reads and writes the settings of one store; re-read whenever the file changes (another process set them).

    `kind` is the settings' class (Discord's `Settings`, Telegram's `telegram.config.TelegramSettings`): a frozen
    dataclass with `as_json` and `from_json`; `what` names them in an error."""

    def __init__(self, path: Path | None, kind: Any = Settings, what: str = "Discord") -> None:
        self.path = path
        self.kind = kind
        self.what = what
        self._held = kind()
        self._stamp: tuple[int, int] | None = None
        self._lock = threading.Lock()

    def load(self) -> Any:
        if self.path is None:
            return self._held
        with self._lock:
            try:
                stat = self.path.stat()
            except FileNotFoundError:
                return self.kind()
            if (stat.st_mtime_ns, stat.st_size) != self._stamp:
                self._held = self.kind.from_json(self.path.read_text())
                self._stamp = (stat.st_mtime_ns, stat.st_size)
            return self._held

    def save(self, settings: Any) -> None:
        if self.path is None:
            self._held = settings
            return
        try:
            for folder in (self.path.parent.parent, self.path.parent):
                folder.mkdir(mode=PRIVATE_FOLDER_MODE, parents=True, exist_ok=True)
                folder.chmod(PRIVATE_FOLDER_MODE)
            temporary = self.path.with_name(f".config.{secrets.token_hex(6)}.tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
            with os.fdopen(descriptor, "w") as file:
                file.write(settings.as_json())
            os.replace(temporary, self.path)
        except OSError as error:
            raise CommandRejected(f"cannot keep the {self.what} settings in {self.path.parent}: "
                                  f"{error.strerror or error}; nothing was changed", field="store") from None


def keeper_for(store: Store, platform: str = "discord", kind: Any = Settings, what: str = "Discord") -> Keeper:
    """The settings of `store` for a platform (in `PLATFORM/config.json` beside it): one keeper per store object and
    platform, so memory:// keeps them for the process."""
    kept = store.shared("integrations", dict)
    if platform not in kept:
        folder = secrets_folder(store.url)
        kept[platform] = Keeper(None if folder is None else folder / platform / "config.json", kind, what)
    return kept[platform]
