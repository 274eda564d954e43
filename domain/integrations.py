"""Who and where outside Rollbook: Discord members linked to users, threads bound to campaigns,
one-time link codes, and the signed interactions that posted commands.

These live in the event store beside the accounts (`accounts.py`), as aggregates, so that who
linked which Discord member to which user, by whom and when, is part of the same record: it is
what `rollbook verify --discord-key` holds each Discord-posted command to. Like the accounts they
are outside the campaigns' hash chains (they are not the game's play): no command lists them.

- `DiscordMember`: one per Discord user id; the Rollbook user it acts as (linked, or unlinked).
- `LinkCode`: found by a one-time code's hash alone; whose it is, until when, and whether used.
- `DiscordChannel`: one per channel or thread id; the campaign it is bound to.
- `SignedInteraction`: one per interaction; the raw body Discord signed, with the signature and
  timestamp, stored in the transaction of the command it posted.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from .aggregate import RollbookAggregate
from .ids import ROLLBOOK_NAMESPACE

#: The Idempotency-Key of a command posted through Discord: this and the interaction's id. It was the command's id
#: too before commands got ids a person can say (`anna-7`): such records are read by it still.
DISCORD_ID_PREFIX = "discord-"
DISCORD, TELEGRAM = "discord", "telegram"
#: The chats whose requests post commands, each request's id saying where it came from.
CHATS = (DISCORD, TELEGRAM)


def discord_command_id(interaction_id: str) -> str:
    return chat_key(DISCORD, interaction_id)


def chat_key(platform: str, request_id: int | str) -> str:
    """The Idempotency-Key of a chat's request (`discord-<interaction id>`, `telegram-<update id>`): a request
    delivered again is the same post."""
    return f"{platform}-{request_id}"


def chat_via(platform: str, request_id: int | str) -> str:
    """A chat-posted command's `via`: `discord:<interaction id>`, `telegram:<update id>`."""
    return f"{platform}:{request_id}"


def came_from(command_id: str, via: str | None) -> tuple[str, str] | None:
    """(the chat, its id of the request) a command was posted from: read from its `via`, or, for a command recorded
    before `via` (its id was the request's key), from its id; None for a command no chat posted."""
    if via is not None:
        platform, _, request_id = via.partition(":")
        return (platform, request_id) if platform in CHATS and request_id.isdigit() else None
    platform, _, request_id = command_id.partition("-")
    return (platform, request_id) if platform in CHATS and request_id.isdigit() else None


def interaction_of(command_id: str, via: str | None = None) -> str | None:
    """The interaction id of a Discord-posted command (its `via`, or an older record's id), else None."""
    found = came_from(command_id, via)
    return found[1] if found is not None and found[0] == DISCORD else None


class DiscordMember(RollbookAggregate):
    @staticmethod
    def create_id(discord_user: str, **_: Any) -> UUID:
        return discord_member_id(discord_user)

    @event("Seen")
    def __init__(self, discord_user: str) -> None:
        self.discord_user = discord_user
        self.user: str | None = None

    def link(self, user: str, *, by: str) -> None:
        if self.user != user:
            self._linked(user=user, by=by)

    @event("Linked")
    def _linked(self, user: str, by: str) -> None:
        self.user = user

    def unlink(self, *, by: str) -> None:
        if self.user is not None:
            self._unlinked(by=by)

    @event("Unlinked")
    def _unlinked(self, by: str) -> None:
        self.user = None


class LinkCode(RollbookAggregate):
    """A code a user types in Discord (`/rb link code:…`) to link his Discord account to himself, once."""

    @staticmethod
    def create_id(code_hash: str, **_: Any) -> UUID:
        return link_code_id(code_hash)

    @event("Issued")
    def __init__(self, code_hash: str, user: str, expires: str, by: str) -> None:
        self.user = user
        self.expires = expires
        self.used_by: str | None = None

    @event("Used")
    def use(self, discord_user: str) -> None:
        self.used_by = discord_user

    @event("UsedFrom")
    def use_from(self, platform: str, account: str) -> None:
        """Used from a chat other than Discord (Telegram): `platform:account`."""
        self.used_by = f"{platform}:{account}"


class DiscordChannel(RollbookAggregate):
    @staticmethod
    def create_id(channel: str, **_: Any) -> UUID:
        return discord_channel_id(channel)

    @event("Opened")
    def __init__(self, channel: str) -> None:
        self.channel = channel
        self.campaign: str | None = None

    def bind(self, campaign: str, *, by: str) -> None:
        if self.campaign != campaign:
            self._bound(campaign=campaign, by=by)

    @event("Bound")
    def _bound(self, campaign: str, by: str) -> None:
        self.campaign = campaign

    def unbind(self, *, by: str) -> None:
        if self.campaign is not None:
            self._unbound(by=by)

    @event("Unbound")
    def _unbound(self, by: str) -> None:
        self.campaign = None


class SignedInteraction(RollbookAggregate):
    """What Discord signed, byte for byte: the body, the signature and the timestamp it was signed with.

    Kept in the transaction of the command it posted (`command_key`, `command_id`), never in that
    command: anyone with Discord's public key can check it, and no one who holds only the store can
    make one, so it proves which member sent the command, and with which options.
    """

    @staticmethod
    def create_id(interaction_id: str, **_: Any) -> UUID:
        return signed_interaction_id(interaction_id)

    @event("Received")
    def __init__(self, interaction_id: str, body: str, signature: str, timestamp: str,
                 command_key: str, command_id: str) -> None:
        self.interaction_id = interaction_id
        self.body = body
        self.signature = signature
        self.timestamp = timestamp
        self.command_key = command_key
        self.command_id = command_id


# --- the chats after Discord: one pair of aggregates for all, the platform in each ------------------------------


class ChatTie(RollbookAggregate):
    """A thing of a chat platform (`telegram`, …) and what it stands for in Rollbook: an account (`member`) and
    the user it acts as, or a place (`place`: a group, or one forum topic of it, `chat/topic`) and the campaign
    played there. `DiscordMember` and `DiscordChannel` are the same for Discord, kept as older records hold them."""

    @staticmethod
    def create_id(platform: str, thing: str, key: str, **_: Any) -> UUID:
        return chat_tie_id(platform, thing, key)

    @event("Seen")
    def __init__(self, platform: str, thing: str, key: str) -> None:
        self.platform = platform
        self.thing = thing
        self.key = key
        self.to: str | None = None

    @property
    def user(self) -> str | None:
        return self.to

    @property
    def campaign(self) -> str | None:
        return self.to

    @property
    def channel(self) -> str:
        return self.key

    def tie(self, to: str, *, by: str) -> None:
        if self.to != to:
            self._tied(to=to, by=by)

    @event("Tied")
    def _tied(self, to: str, by: str) -> None:
        self.to = to

    def untie(self, *, by: str) -> None:
        if self.to is not None:
            self._untied(by=by)

    @event("Untied")
    def _untied(self, by: str) -> None:
        self.to = None

    # Spoken as the members' and the places' own verbs (`integrations/members.py` calls them so for every platform).
    link = bind = tie
    unlink = unbind = untie


class ReceivedUpdate(RollbookAggregate):
    """An update a chat platform delivered (unsigned: Telegram signs none), as it came, once.

    Stored in the transaction of what it applied (the command it posted, the link it made): a second
    delivery of the same update finds it and applies nothing. It records who Telegram said sent what,
    where and when; it proves no more than the bot's token holder's word (see README, "Playing in Telegram").
    """

    @staticmethod
    def create_id(platform: str, update_id: str, **_: Any) -> UUID:
        return received_update_id(platform, update_id)

    @event("Received")
    def __init__(self, platform: str, update_id: str, body: str, command_key: str | None,
                 command_id: str | None) -> None:
        self.platform = platform
        self.update_id = update_id
        self.body = body
        self.command_key = command_key
        self.command_id = command_id


def chat_tie_id(platform: str, thing: str, key: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"chat-{thing}:{platform}:{key}")


def received_update_id(platform: str, update_id: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"chat-update:{platform}:{update_id}")


def discord_member_id(discord_user: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"discord-member:{discord_user}")


def link_code_id(code_hash: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"discord-link-code:{code_hash}")


def discord_channel_id(channel: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"discord-channel:{channel}")


def signed_interaction_id(interaction_id: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"discord-interaction:{interaction_id}")
