"""The few Discord HTTP API endpoints Rollbook calls, with httpx (README, "How it is built": why not a library).

- `POST /channels/{channel}/messages`: the mirror's message into the bound thread, with a `nonce`
  and `enforce_nonce` so that Discord itself drops a message sent again within minutes;
- `PATCH /webhooks/{application}/{token}/messages/@original`: the answer of an interaction
  edited in (a deferred answer followed up, an answer the server could not record it gave);
- `POST /webhooks/{application}/{token}`: a follow-up message;
- `PUT /applications/{application}[/guilds/{guild}]/commands`: the slash commands, all at once.

Every request sends `allowed_mentions: {"parse": []}`: a line quoting a character named
`@everyone` pings no one. A 429 raises `RateLimited` with Discord's `retry_after` (seconds, from the
JSON body, else the `Retry-After` header) and whether the limit is global; any other failure raises
`DiscordError` with the status and Discord's words. The base URL is configurable (`ROLLBOOK_DISCORD_API`,
`rollbook discord setup --api-base`), so tests point it at a fake on 127.0.0.1.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

import httpx

NO_PINGS = {"parse": []}
#: Flags of a message only its interaction's member sees.
EPHEMERAL = 1 << 6
#: Discord's own limit on a nonce.
NONCE_LENGTH = 25


class DiscordError(Exception):
    def __init__(self, status: int | None, reason: str) -> None:
        super().__init__(f"Discord answered {status}: {reason}" if status else f"Discord could not be reached: {reason}")
        self.status = status
        self.reason = reason


class RateLimited(DiscordError):
    def __init__(self, retry_after: float, is_global: bool, reason: str) -> None:
        super().__init__(429, reason)
        self.retry_after = retry_after
        self.is_global = is_global


class DiscordAPI:
    def __init__(self, base: str, bot_token: str | None, *, timeout: float = 10.0,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.base = base.rstrip("/")
        self.bot_token = bot_token
        self.client = httpx.Client(timeout=timeout, transport=transport, headers={
            "User-Agent": f"DiscordBot (https://github.com/rollbook/rollbook, {version('rollbook')})"})

    def close(self) -> None:
        self.client.close()

    def create_message(self, channel: str, content: str, nonce: str) -> dict[str, Any]:
        return self._request("POST", f"/channels/{channel}/messages", {
            "content": content, "nonce": nonce[:NONCE_LENGTH], "enforce_nonce": True, "allowed_mentions": NO_PINGS})

    def edit_original(self, application: str, token: str, content: str) -> dict[str, Any]:
        return self._request("PATCH", f"/webhooks/{application}/{token}/messages/@original",
                             {"content": content, "allowed_mentions": NO_PINGS}, bot=False)

    def follow_up(self, application: str, token: str, content: str, *, ephemeral: bool = False) -> dict[str, Any]:
        body: dict[str, Any] = {"content": content, "allowed_mentions": NO_PINGS}
        if ephemeral:
            body["flags"] = EPHEMERAL
        return self._request("POST", f"/webhooks/{application}/{token}", body, bot=False)

    def put_commands(self, application: str, commands: list[dict[str, Any]], guild: str | None = None) -> Any:
        path = f"/applications/{application}" + (f"/guilds/{guild}" if guild else "") + "/commands"
        return self._request("PUT", path, commands)

    def _request(self, method: str, path: str, body: Any, *, bot: bool = True) -> Any:
        headers = {}
        if bot:
            if not self.bot_token:
                raise DiscordError(None, "no bot token is set (`rollbook discord setup --bot-token-file FILE`)")
            headers["Authorization"] = f"Bot {self.bot_token}"
        try:
            response = self.client.request(method, self.base + path, json=body, headers=headers)
        except httpx.HTTPError as error:
            raise DiscordError(None, f"{type(error).__name__}: {error}") from None
        if response.status_code == 429:
            data = _json(response)
            retry = data.get("retry_after") if isinstance(data, dict) else None
            if not isinstance(retry, (int, float)):
                retry = float(response.headers.get("Retry-After", "1") or 1)
            raise RateLimited(float(retry), bool(data.get("global")) if isinstance(data, dict) else False,
                              str(data.get("message", "rate limited")) if isinstance(data, dict) else "rate limited")
        if response.status_code >= 400:
            data = _json(response)
            reason = data.get("message") if isinstance(data, dict) else None
            raise DiscordError(response.status_code, str(reason or response.text[:300] or response.reason_phrase))
        return _json(response) if response.content else {}


def _json(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return {}
