"""The chat core every adapter (Discord, Telegram) posts through: a command asked in a chat, applied once.

A chat's request goes through the group's own posting (`hosting/posting.py`): the same membership,
ownership and rules checks as `POST /commands`, the chat's own id for the request as the
Idempotency-Key (a delivery repeated is answered the same and applied once, under the same id). The command gets
an id a person can say (`anna-7`, hosting/said_ids.py) and records where it came from (`via`:
`discord:<interaction id>`, `telegram:<update id>`); what the chat delivered (Discord's signed interaction,
Telegram's update) is kept in the command's own transaction, stored with its command or not at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..domain.integrations import chat_key, chat_via
from ..hosting.host import Host
from ..hosting.posting import post_command
from .lines import Told, told_by_id


def post_from_chat(state: Host, campaign: str, user: str, platform: str, request_id: str, body: dict[str, Any],
                   kept: Callable[[str, str], Any], proof_base: str | None) -> Told:
    """Post `body` as `user`, from the chat's request `request_id`, with `kept(revision key, the command's id)`
    (what the chat delivered, a one-event aggregate) in its transaction; its line."""
    state.rate_limit.take(user)  # the same posts a minute as over the API (a 429 is said in words)
    key = chat_key(platform, request_id)
    with state.writing(campaign):
        answer, _ = post_command(state, campaign, user, key, None, body, via=chat_via(platform, request_id),
                                 delivered=lambda said: kept(state.service.key_for(campaign), said))
        return told_by_id(state.store, answer["revision_key"], str(answer["command_id"]), proof_base)
