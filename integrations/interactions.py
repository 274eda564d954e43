"""Answering Discord's interactions: who acts, in which campaign, and what the thread is told.

The actor is the Rollbook user the interaction's member is linked to, with his role in the
campaign the channel is bound to; then a command goes through the group's own posting
(`hosting/posting.py`): the same membership, ownership and rules checks as `POST /commands`, the
interaction's id (`discord-<id>`) as the Idempotency-Key, so a delivery repeated is answered the
same and applied once, and as the default salt of its dice. The command gets an id a person can say (`anna-7`)
and records the interaction (`via`: `discord:<id>`); the signed interaction is stored in the command's own
transaction (`provenance.py`). A ruling (`/rb undo`) keeps the interaction's key as its id. An unlinked member, an unbound channel, a
non-member, a refusal: an ephemeral answer in words, and nothing written.

Each answer is in the member's language, as his Discord says it (the interaction's `locale`: `ru` is Russian,
any other English); a command's answer is its line (`lines.discord_message`), in the campaign's language, told
from what its transaction stored, the same words the mirror would post, so the mirror does not post it again.
Work not done within `defer_after` seconds (Discord waits 3 s; a ruling re-executes the history, `verify` reads all of
it) is deferred (type 5) and goes on; its answer is then edited in, by the mirror for a command
stored, here for anything else (a refusal, a reading).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..domain.accounts import actor_for
from ..domain.errors import CommandRejected
from ..domain.integrations import DISCORD, SignedInteraction, discord_command_id
from ..hosting.host import Host
from ..hosting.refusals import CommandRefused, Refusal
from ..language import chat_language, gettext, speaking
from ..language import refusal as language_refusal
from ..store.outbox import outbox_for
from .answers import Answers, Refused
from .chat import post_from_chat
from .style import DISCORD_STYLE
from .config import Keeper
from .discord_api import EPHEMERAL, NO_PINGS, DiscordAPI, DiscordError
from .lines import DISCORD_LIMIT, discord_message
from .markup import escape_markdown, markdown_code
from .members import Members
from .provenance import check_discord
from .readings import rolls_text, suggestions, verify_text
from .words import ID_MARK, asked, command_body, with_names, words_body

PING, APPLICATION_COMMAND, AUTOCOMPLETE = 1, 2, 4
PONG, MESSAGE, DEFERRED, CHOICES = 1, 4, 5, 8
#: Seconds a command may take before its answer is deferred (Discord waits 3 s for the first answer).
DEFER_AFTER = 2.0


@dataclass(frozen=True)
class Incoming:
    """An interaction as Discord sent it: the raw body it signed, the signature, the timestamp, the JSON."""

    body: bytes
    signature: str
    timestamp: str
    data: dict[str, Any]

    @property
    def id(self) -> str:
        return str(self.data.get("id", ""))

    @property
    def member(self) -> str:
        user = (self.data.get("member") or {}).get("user") or self.data.get("user") or {}
        return str(user.get("id", ""))

    @property
    def channel(self) -> str:
        return str(self.data.get("channel_id") or (self.data.get("channel") or {}).get("id") or "")


@dataclass
class Reply:
    content: str
    ephemeral: bool = False
    #: The command whose answer this is (campaign, command id): the mirror is told how it was answered.
    answers: tuple[str, str] | None = None

    def response(self) -> dict[str, Any]:
        data: dict[str, Any] = {"content": self.content[:DISCORD_LIMIT], "allowed_mentions": NO_PINGS}
        if self.ephemeral:
            data["flags"] = EPHEMERAL
        return {"type": MESSAGE, "data": data}


def refused(text: str) -> Reply:
    return Reply(text, ephemeral=True)


class Desk:
    """The server's answers to interactions: one per `rollbook serve`, over its state."""

    def __init__(self, state: Host, keeper: Keeper) -> None:
        self.state = state
        self.keeper = keeper
        self.members = Members(state.store)
        self.outbox = outbox_for(state.store, state.store.kind)
        self.defer_after = DEFER_AFTER
        self.answers = Answers(state)

    # --- who acts, where ----------------------------------------------------------------------

    def handle(self, incoming: Incoming) -> Reply:
        """The answer to a slash command (in a worker thread: it may decide and store a command), in the language
        of the member's Discord (its `locale`); a command's line is the thread's, in the campaign's language."""
        with speaking(chat_language(incoming.data.get("locale"))):
            return self._handled(incoming)

    def _handled(self, incoming: Incoming) -> Reply:
        request = asked(incoming.data)
        try:
            if request.name == "rb" and request.sub == "link":
                user = self.members.redeem(str(request.options.get("code", "")), incoming.member)
                return refused(gettext("Linked: your Discord account acts as the Rollbook user **{user}** from now "
                                       "on.").format(user=escape_markdown(user)))
            campaign = self.members.campaign_of(incoming.channel)
            if campaign is None:
                return refused(gettext("This channel ({channel}) is not bound to a Rollbook campaign: the GM binds "
                                       "it with `rollbook discord bind CAMPAIGN --channel {channel}`.")
                               .format(channel=incoming.channel))
            user = self.members.user_of(incoming.member)
            if user is None:
                return refused(gettext("Your Discord account ({account}) is not linked to a Rollbook user: ask the GM "
                                       "for a code (`rollbook users link-code NAME`) and type `/rb link code:…`, or "
                                       "have the GM link you (`rollbook users link NAME --discord {account}`).")
                               .format(account=incoming.member))
            role = self.state.accounts.role_of(campaign, user)
            if role is None:
                return refused(gettext("{user} is not a member of {campaign}: the GM grants a role ({grant}).").format(
                    user=escape_markdown(user), campaign=escape_markdown(campaign),
                    grant=markdown_code(f"rollbook grant {user} player -c {campaign}")))
            return self._answer(incoming, request, campaign, user, role)
        except Refused as refusal:
            return refused(str(refusal))
        except CommandRejected as error:
            return refused(refused_text(error))
        except Refusal as error:
            return refused(gettext("Refused: {reason}").format(reason=escape_markdown(error.reason)))
        except CommandRefused as refusal:
            return refused(_refusal_text(refusal))

    def _answer(self, incoming: Incoming, request: Any, campaign: str, user: str, role: str) -> Reply:
        sub = request.sub if request.name == "rb" else None
        if sub == "sheet":
            return self._sheet(campaign, user, role, self._named(campaign, request.options))
        if sub == "rolls":
            return self._rolls(campaign, self._named(campaign, request.options))
        if sub == "odds":
            return self._odds(campaign, actor_for(role, user), request.options)
        if sub == "verify":
            return self._verify(campaign)
        if sub == "checkpoint":
            return self._checkpoint(campaign, role)
        if sub == "undo":
            return self._undo(incoming, campaign, user, role, request.options)
        body = command_body(incoming.data)
        if body is None:
            asked_for = escape_markdown(f"/{request.name} {sub or ''}".rstrip())
            return refused(gettext("Rollbook has no command {command}: `/rb post` takes any command.")
                           .format(command=asked_for))
        return self._post(incoming, campaign, user, self._named(campaign, body))

    def _named(self, campaign: str, values: dict[str, Any]) -> dict[str, Any]:
        """`values` with a long name's choice (its id, `words.member_choice`) read back as the name."""
        if not any(isinstance(value, str) and value.startswith(ID_MARK) for value in values.values()):
            return values
        _, doc = self._current(campaign)
        return with_names(values, campaign, doc["members"])

    # --- commands -------------------------------------------------------------------------------

    def _signed(self, incoming: Incoming, key: str, command_id: str) -> SignedInteraction:
        return SignedInteraction(interaction_id=incoming.id, body=incoming.body.decode("utf-8", "surrogateescape"),
                                 signature=incoming.signature, timestamp=incoming.timestamp, command_key=key,
                                 command_id=command_id)

    def _post(self, incoming: Incoming, campaign: str, user: str, body: dict[str, Any]) -> Reply:
        message = post_from_chat(self.state, campaign, user, DISCORD, incoming.id, body,
                                 lambda key, command_id: self._signed(incoming, key, command_id),
                                 self.keeper.load().proof_base)
        return Reply(discord_message(message), answers=(campaign, message.command_id))

    def _undo(self, incoming: Incoming, campaign: str, user: str, role: str, options: dict[str, Any]) -> Reply:
        command_id = discord_command_id(incoming.id)
        message = self.answers.undo(campaign, user, role, command_id, str(options.get("command", "")),
                                    str(options.get("reason", "")), self._signed(incoming, campaign, command_id),
                                    self.keeper.load().proof_base, DISCORD_STYLE)
        return Reply(discord_message(message), answers=(campaign, command_id))

    # --- reading --------------------------------------------------------------------------------

    def _current(self, campaign: str) -> tuple[str, dict[str, Any]]:
        return self.answers.current(campaign)

    def _sheet(self, campaign: str, user: str, role: str, options: dict[str, Any]) -> Reply:
        name = options.get("character")
        text = self.answers.sheet(campaign, user, None if name is None else str(name), DISCORD_STYLE,
                                  gettext("`/rb sheet character:…`"))
        return Reply(text, ephemeral=not options.get("show"))

    def _rolls(self, campaign: str, options: dict[str, Any]) -> Reply:
        key, _ = self._current(campaign)
        rolls = self.state.reader.rolls(key)
        character = options.get("character")
        if character:
            rolls = [r for r in rolls if r.get("character") == character]
        return Reply(rolls_text(campaign, rolls[-int(options.get("count") or 10):]), ephemeral=True)

    def _odds(self, campaign: str, actor: str, options: dict[str, Any]) -> Reply:
        return Reply(self.answers.odds(campaign, actor, words_body(options.get("command", "")), DISCORD_STYLE),
                     ephemeral=True)

    def _verify(self, campaign: str) -> Reply:
        from ..replay.verify import verify

        settings = self.keeper.load()
        with self.state.writing(campaign):  # held still while it is checked
            key, _ = self._current(campaign)
            report = verify(self.state.store, key)
            signed = check_discord(self.state.store, campaign, [key], settings.public_key) if settings.public_key else None
        return Reply(verify_text(campaign, report, signed))

    def _checkpoint(self, campaign: str, role: str) -> Reply:
        return Reply(self.answers.checkpoint(campaign, role, DISCORD_STYLE))

    # --- autocomplete ----------------------------------------------------------------------------

    def autocomplete(self, incoming: Incoming) -> list[dict[str, str]]:
        """The choices for the focused option, their names in the language of the member's Discord."""
        with speaking(chat_language(incoming.data.get("locale"))):
            return self._completed(incoming)

    def _completed(self, incoming: Incoming) -> list[dict[str, str]]:
        campaign = self.members.campaign_of(incoming.channel)
        user = self.members.user_of(incoming.member) if campaign else None
        if campaign is None or user is None:
            return []
        role = self.state.accounts.role_of(campaign, user)
        if role is None:
            return []
        key, doc = self._current(campaign)
        sheets = {sheet.get("name", ""): sheet for _, sheet in self.state.reader.sheets(key)}
        commands = self.state.reader.commands(key)[-25:]
        return suggestions(asked(incoming.data), campaign, role, user, doc, sheets, commands)

    # --- how it was answered ------------------------------------------------------------------------

    def answered(self, reply: Reply, how: str) -> None:
        """Note that the command `reply` answers was answered (`answered`) or will be edited in (`deferred`)."""
        if reply.answers is not None:
            self.outbox.mark(*reply.answers, how)

    def edit_original(self, incoming: Incoming, content: str) -> None:
        """A deferred answer that stored nothing (a refusal, a reading), edited in; a failure is only logged."""
        from ..store.logs import Log

        settings = self.keeper.load()
        api = DiscordAPI(settings.api, settings.bot_token)
        try:
            api.edit_original(str(incoming.data.get("application_id")), str(incoming.data.get("token")),
                              content[:DISCORD_LIMIT])
        except DiscordError as error:
            Log("rollbook.discord").error("discord.follow_up_failed", interaction=incoming.id, problem=str(error))
        finally:
            api.close()


def refused_text(error: CommandRejected) -> str:
    """A refusal in the language spoken: its field (as the command names it), then why."""
    field = f"{error.field}: " if error.field else ""
    return gettext("Refused: {reason}").format(reason=escape_markdown(field + language_refusal(error)))


def _refusal_text(refusal: CommandRefused) -> str:
    if refusal.rejection is not None:
        return refused_text(refusal.rejection)
    error = refusal.error
    field = f"{error.field}: " if error.field else ""
    reason = field + (error.message or gettext("the command was refused"))
    return gettext("Refused: {reason}").format(reason=escape_markdown(reason))
