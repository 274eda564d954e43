"""A generic outgoing webhook: each line of a campaign, as JSON, POSTed to any URL, signed.

For groups on Matrix, Telegram or a forum with an API: a small bridge receives Rollbook's
lines and posts them where the group plays. Each delivery is signed like GitHub's webhooks:
`X-Rollbook-Signature: sha256=` and the hex HMAC-SHA256 of the raw body under the webhook's
secret, so the bridge can tell Rollbook's deliveries from anyone else's (compare in constant
time). `X-Rollbook-Delivery` is the same for a delivery sent again (`campaign:position`), so a
bridge can drop a repeat; `X-Rollbook-Event` is `command`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import httpx

from .config import Webhook
from .lines import Told

SIGNATURE_HEADER = "X-Rollbook-Signature"


class WebhookError(Exception):
    def __init__(self, status: int | None, reason: str) -> None:
        super().__init__(f"the webhook answered {status}: {reason}" if status else f"the webhook could not be reached: {reason}")
        self.status = status


def signature(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signed_by(secret: str, body: bytes, header: str) -> bool:
    """A receiver's check: whether `header` is the signature of `body` under `secret`."""
    return hmac.compare_digest(signature(secret, body), header or "")


class WebhookTarget:
    def __init__(self, webhook: Webhook, *, timeout: float = 10.0) -> None:
        self.webhook = webhook
        self.timeout = timeout

    def body(self, told: Told) -> bytes:
        return json.dumps(told.as_json(), ensure_ascii=False, sort_keys=True).encode()

    def send(self, told: Told, lane: Any) -> bool:
        body = self.body(told)
        headers = {"Content-Type": "application/json", SIGNATURE_HEADER: signature(self.webhook.secret, body),
                   "X-Rollbook-Delivery": f"{told.campaign}:{told.position}", "X-Rollbook-Event": "command",
                   "User-Agent": "Rollbook-Webhook"}
        try:
            response = httpx.post(self.webhook.url, content=body, headers=headers, timeout=self.timeout)
        except httpx.HTTPError as error:
            raise WebhookError(None, f"{type(error).__name__}: {error}") from None
        if response.status_code >= 300:
            raise WebhookError(response.status_code, response.text[:300] or response.reason_phrase)
        return True


def add(keeper: Any, store: Any, campaign: str, url: str, secret: str | None) -> Webhook:
    """A new webhook for the campaign: sent what is stored from now on. Its secret is made here unless given."""
    from urllib.parse import urlparse

    from ..domain.errors import CommandRejected

    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise CommandRejected(f"a webhook's URL is http:// or https://, with a host (got {url[:200]!r})", field="url")
    settings, webhook = keeper.load().with_webhook(campaign, url, secret, store.head())
    keeper.save(settings)
    return webhook


def remove(keeper: Any, campaign: str, webhook_id: str) -> None:
    from ..domain.errors import CommandRejected

    settings = keeper.load()
    if not any(w.id == webhook_id and w.campaign == campaign for w in settings.webhooks):
        raise CommandRejected(f"{campaign} has no webhook {webhook_id!r}", field="webhook")
    keeper.save(settings.without_webhook(webhook_id))
