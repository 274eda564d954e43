"""A generic outgoing webhook: each line of a campaign, as JSON, POSTed to any URL, signed.

For groups on Matrix, Telegram or a forum with an API: a small bridge receives Rollbook's
lines and posts them where the group plays. Each delivery is signed like GitHub's webhooks:
`X-Rollbook-Signature: sha256=` and the hex HMAC-SHA256 of the raw body under the webhook's
secret, so the bridge can tell Rollbook's deliveries from anyone else's (compare in constant
time). `X-Rollbook-Delivery` is the same for a delivery sent again (`campaign:position`), so a
bridge can drop a repeat; `X-Rollbook-Event` is `command`.

Where it may send is `outbound.py`'s: checked at `add` and again at every delivery, sent to the address that was
checked, no redirect followed. A failed delivery is told by its status and that status's standard phrase, never by what
the receiver answered (`last_error` is the GM's to read).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import httpx

from ..domain.errors import CommandRejected
from .config import Webhook
from .lines import Told
from .outbound import PinnedTransport, Reach

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
    def __init__(self, webhook: Webhook, reach: Reach, *, timeout: float = 10.0) -> None:
        self.webhook = webhook
        self.reach = reach
        self.timeout = timeout

    def body(self, told: Told) -> bytes:
        return json.dumps(told.as_json(), ensure_ascii=False, sort_keys=True).encode()

    def send(self, told: Told, lane: Any) -> bool:
        body = self.body(told)
        headers = {"Content-Type": "application/json", SIGNATURE_HEADER: signature(self.webhook.secret, body),
                   "X-Rollbook-Delivery": f"{told.campaign}:{told.position}", "X-Rollbook-Event": "command",
                   "User-Agent": "Rollbook-Webhook"}
        try:
            with httpx.Client(transport=PinnedTransport(self.reach), timeout=self.timeout, trust_env=False,
                              follow_redirects=False) as client:
                response = client.post(self.webhook.url, content=body, headers=headers)
        except CommandRejected as refused:
            raise WebhookError(None, refused.message) from None
        except httpx.HTTPError as error:
            raise WebhookError(None, f"{type(error).__name__}: {str(error)[:200]}") from None
        if 300 <= response.status_code < 400:
            raise WebhookError(response.status_code, "a redirect, not followed (give the webhook its final URL)")
        if response.status_code >= 400:
            # The standard phrase of the status: nothing the receiver wrote, not even its status line, is shown.
            raise WebhookError(response.status_code, httpx.codes.get_reason_phrase(response.status_code) or "refused")
        return True


def add(keeper: Any, store: Any, campaign: str, url: str, secret: str | None, reach: Reach) -> Webhook:
    """A new webhook for the campaign: sent what is stored from now on. Its secret is made here unless given;
    its URL is refused if `reach` would refuse to deliver there."""
    reach.addresses(url)
    settings, webhook = keeper.load().with_webhook(campaign, url, secret, store.head())
    keeper.save(settings)
    return webhook


def remove(keeper: Any, campaign: str, webhook_id: str) -> None:
    settings = keeper.load()
    if not any(w.id == webhook_id and w.campaign == campaign for w in settings.webhooks):
        raise CommandRejected(f"{campaign} has no webhook {webhook_id!r}", field="webhook")
    keeper.save(settings.without_webhook(webhook_id))
