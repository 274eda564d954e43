"""The chat core every adapter (Discord, Telegram) posts through: a command asked in a chat, applied once.

A chat's request goes through the group's own posting (`hosting/posting.py`): the same membership,
ownership and rules checks as `POST /commands`, the chat's own id for the request as the
Idempotency-Key (a delivery repeated is answered the same and applied once), and what the chat
delivered (Discord's signed interaction, Telegram's update) kept in the command's own transaction
(`provenance.SignedUnit`), stored with its command or not at all.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from typing import Any

from ..hosting.host import Host
from ..hosting.posting import post_command
from .lines import Told, told_by_id
from .provenance import SignedUnit


def post_from_chat(state: Host, campaign: str, user: str, command_id: str, body: dict[str, Any],
                   kept: Callable[[str], Any], proof_base: str | None) -> Told:
    """Post `body` as `user` under `command_id`, with `kept(revision key)` (what the chat delivered, a one-event
    aggregate) in its transaction; its line."""
    state.rate_limit.take(user)  # the same posts a minute as over the API (a 429 is said in words)
    with state.writing(campaign):
        service = copy.copy(state.service)
        service.unit = SignedUnit(state.service.unit, kept(state.service.key_for(campaign)))
        answer, _ = post_command(dataclasses.replace(state, service=service), campaign, user, command_id, None, body)
        return told_by_id(state.store, answer["revision_key"], command_id, proof_base)
