"""Chat accounts linked to Rollbook users, one-time link codes, and chat places bound to campaigns.

One core for every chat platform (`Platform`): Discord's members and channels (its own aggregates,
as older records hold them), Telegram's accounts and groups or forum topics (`ChatTie`, which a
third platform would use too). Every read goes to the store, past the aggregate
cache, as the accounts' do: a member linked by `rollbook users link` in another process acts as that
user at the very next interaction.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from ..domain.errors import CommandRejected, UnknownName
from ..domain.integrations import (
    ChatTie,
    DiscordChannel,
    DiscordMember,
    LinkCode,
    chat_tie_id,
    discord_channel_id,
    discord_member_id,
    link_code_id,
)
from ..hosting.accounts import Accounts
from ..store import Store
from ..store.failures import IntegrityError
from ..store.reads import events_of, head, logged

#: A Discord id: a snowflake, up to 20 digits.
SNOWFLAKE = re.compile(r"^[0-9]{1,20}$")
#: How long a link code may be used.
CODE_LIFETIME = timedelta(hours=24)
#: The letters a code is made of: no 0/O or 1/I/L to misread when it is typed from a message.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def check_snowflake(value: str, field: str) -> str:
    if not isinstance(value, str) or not SNOWFLAKE.match(value):
        raise CommandRejected(f"a Discord id is its digits, as Discord's developer mode copies them (got {value!r})",
                              field=field)
    return value


@dataclass(frozen=True)
class Platform:
    """What the core needs to know of a chat platform: its name, how its accounts and places are kept and checked."""

    name: str
    #: Checks an account's or a place's id as the user typed it (value, option's name) and gives it back.
    check: Callable[[str, str], str]
    member_id: Callable[[str], UUID]
    place_id: Callable[[str], UUID]
    new_member: Callable[[str], Any]
    new_place: Callable[[str], Any]
    #: The events of an account's link (linked, unlinked) and of a place's binding (bound, unbound).
    linked: type[Any]
    unlinked: type[Any]
    bound: type[Any]
    unbound: type[Any]
    #: Marks a link code used by the account.
    use_code: Callable[[Any, str], None]


def chat_platform(name: str, check: Callable[[str, str], str]) -> Platform:
    """A platform kept in the shared aggregate (`ChatTie`): all a new adapter declares here."""
    return Platform(name, check, lambda account: chat_tie_id(name, "member", account),
                    lambda place: chat_tie_id(name, "place", place),
                    lambda account: ChatTie(platform=name, thing="member", key=account),
                    lambda place: ChatTie(platform=name, thing="place", key=place),
                    ChatTie.Tied, ChatTie.Untied, ChatTie.Tied, ChatTie.Untied,
                    lambda code, account: code.use_from(platform=name, account=account))


def code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().upper().replace("-", "").encode()).hexdigest()


@dataclass(frozen=True)
class Binding:
    campaign: str
    channel: str
    #: The store's position when it was bound: the mirror sends what comes after.
    since: int


@dataclass
class Bindings:
    """What `Members.bindings` has read of the log: up to where, and each channel's latest binding."""

    read: int = 0
    latest: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    channels: dict[Any, str] = field(default_factory=dict)


DISCORD = Platform("discord", check_snowflake, discord_member_id, discord_channel_id,
                   lambda account: DiscordMember(discord_user=account), lambda channel: DiscordChannel(channel=channel),
                   DiscordMember.Linked, DiscordMember.Unlinked, DiscordChannel.Bound, DiscordChannel.Unbound,
                   lambda code, account: code.use(discord_user=account))


class Members:
    def __init__(self, store: Store, platform: Platform = DISCORD) -> None:
        self.platform = platform
        self.store = store
        self.accounts = Accounts(store)

    # --- links ----------------------------------------------------------------------------

    def link(self, user: str, discord_user: str, *, by: str) -> None:
        """Link a chat account to a Rollbook user: what it sends acts as that user (one user per account)."""
        self.accounts.user(user)
        self.platform.check(discord_user, self.platform.name)
        member = self.accounts.fresh(self.platform.member_id(discord_user)) or self.platform.new_member(discord_user)
        member.link(user, by=by)
        self._save(member)

    def unlink(self, discord_user: str, *, by: str) -> None:
        member = self.accounts.fresh(self.platform.member_id(self.platform.check(discord_user, self.platform.name)))
        if member is not None:
            member.unlink(by=by)
            self._save(member)

    def user_of(self, discord_user: str) -> str | None:
        member = self.accounts.fresh(self.platform.member_id(discord_user))
        return member.user if member is not None else None

    def links_of(self, discord_user: str) -> list[tuple[datetime, str | None, str]]:
        """Every link and unlink of the member, in order: (when, the user or None, by whom)."""
        history = []
        linked, unlinked = self.platform.linked, self.platform.unlinked
        for stored in events_of(self.store, self.platform.member_id(discord_user)):
            if isinstance(stored, linked):
                history.append((stored.timestamp, getattr(stored, "user", None) or getattr(stored, "to", None),
                                stored.by))
            elif isinstance(stored, unlinked):
                history.append((stored.timestamp, None, stored.by))
        return history

    def user_at(self, discord_user: str, when: datetime) -> tuple[str | None, str | None]:
        """(the user the member acted as at `when`, who linked him), from the record of links."""
        found: tuple[str | None, str | None] = (None, None)
        for at, user, by in self.links_of(discord_user):
            if at <= when:
                found = (user, by)
        return found

    # --- one-time codes -------------------------------------------------------------------

    def new_code(self, user: str, *, by: str, now: datetime | None = None) -> tuple[str, datetime]:
        """A code the user types in Discord (`/rb link code:…`) to link himself, once, within a day."""
        self.accounts.user(user)
        code = "-".join("".join(secrets.choice(CODE_ALPHABET) for _ in range(4)) for _ in range(3))
        expires = (now or datetime.now(UTC)) + CODE_LIFETIME
        self._save(LinkCode(code_hash=code_hash(code), user=user, expires=expires.isoformat(), by=by))
        return code, expires

    def redeem(self, code: str, discord_user: str, *, now: datetime | None = None, also: tuple[Any, ...] = ()) -> str:
        """Link the member who typed a valid code to its user; the user's name. Refused: unknown, used, expired.
        `also`: aggregates saved in the same transaction (the update that carried the code)."""
        self.platform.check(discord_user, self.platform.name)
        found = self.accounts.fresh(link_code_id(code_hash(code))) if isinstance(code, str) else None
        if found is None:
            raise UnknownName("this link code is not one Rollbook gave (ask your GM for a new one)", field="code")
        if found.used_by is not None:
            raise CommandRejected("this link code was used already: each code links once (ask for a new one)",
                                  field="code")
        if datetime.fromisoformat(found.expires) < (now or datetime.now(UTC)):
            raise CommandRejected("this link code has expired (a code lasts a day): ask for a new one", field="code")
        member = self.accounts.fresh(self.platform.member_id(discord_user)) or self.platform.new_member(discord_user)
        self.platform.use_code(found, discord_user)
        member.link(found.user, by=f"link code of {found.user}")
        self._save(found, member, *also)
        return str(found.user)

    # --- channels -------------------------------------------------------------------------

    def bind(self, campaign: str, channel: str, *, by: str) -> Binding:
        """Bind a channel or thread to a campaign: its commands are played there and mirrored into it.

        A campaign has one channel: binding another unbinds the one before, in the same transaction.
        """
        self.platform.check(channel, "channel")
        changed = []
        before = self.binding(campaign)
        if before is not None and before.channel != channel:
            old = self.accounts.fresh(self.platform.place_id(before.channel))
            old.unbind(by=by)
            changed.append(old)
        bound = self.accounts.fresh(self.platform.place_id(channel)) or self.platform.new_place(channel)
        if bound.campaign is not None and bound.campaign != campaign:
            raise CommandRejected("channel {channel} is bound to {campaign} already: a channel plays one campaign "
                                  "(unbind it first: `rollbook {platform} bind {campaign} --unbind`)",
                                  field="channel", channel=channel, campaign=bound.campaign, platform=self.platform.name)
        bound.bind(campaign, by=by)
        changed.append(bound)
        self._save(*changed)
        found = self.binding(campaign)
        assert found is not None
        return found

    def unbind(self, campaign: str, *, by: str) -> None:
        before = self.binding(campaign)
        if before is not None:
            channel = self.accounts.fresh(self.platform.place_id(before.channel))
            channel.unbind(by=by)
            self._save(channel)

    def campaign_of(self, channel: str) -> str | None:
        try:
            self.platform.check(channel, "channel")
        except CommandRejected:
            return None
        found = self.accounts.fresh(self.platform.place_id(channel))
        return found.campaign if found is not None else None

    def binding(self, campaign: str) -> Binding | None:
        return self.bindings().get(campaign)

    def bindings(self, held: Bindings | None = None) -> dict[str, Binding]:
        """Every campaign bound now, with its channel and since when (the last Bound of each channel that holds).

        `held` keeps what was read: the log is read from where it was left (the mirror asks at every pass).
        """
        held = held if held is not None else Bindings()
        reached = head(self.store)
        for position, _, _, event in self._logged(self.platform.bound, self.platform.unbound, after=held.read):
            if event.originator_id not in held.channels:
                place = self.accounts.fresh(event.originator_id)
                ours = (getattr(place, "platform", self.platform.name), getattr(place, "thing", "place")) == (
                    self.platform.name, "place")  # not another platform's place, nor an account, in the same aggregate
                held.channels[event.originator_id] = str(place.channel) if ours else ""
            if not held.channels[event.originator_id]:
                continue
            bound = getattr(event, "campaign", None) or getattr(event, "to", None)
            held.latest[held.channels[event.originator_id]] = (bound, position)
        held.read = max(held.read, reached)
        return {campaign: Binding(campaign, channel, since) for channel, (campaign, since) in held.latest.items()
                if campaign is not None}

    # --- the store ------------------------------------------------------------------------

    def _save(self, *aggregates: Any) -> None:
        try:
            self.store.save(*aggregates)
        except IntegrityError:
            raise CommandRejected("another change was made at the same moment; do it again", field="store") from None

    def _logged(self, *kinds: type[Any], after: int = 0) -> Iterator[tuple[int, Any, int, Any]]:
        return logged(self.store, start=after, page=500, topics=[get_topic(kind) for kind in kinds])
