"""An update from Telegram answered: who sends it, from where, what it asks; each update applied once.

The sender is the Rollbook user his Telegram account is linked to (`Members` over `TELEGRAM`), with his
role in the campaign the chat (or the forum topic) is bound to; a command goes through the chat core
(`chat.post_from_chat`) under the key `telegram-<update_id>`, with an id a person can say (`anna-7`) and the update
in its `via` (`telegram:<update_id>`), the update kept beside it (`ReceivedUpdate`), so a second delivery of the
update, after a restart too, finds it and applies nothing. A move's salt is the
chat's id and the update's, both Telegram's: the seed's holder cannot choose it.

`/move` answers with buttons of the character's moves (the book's, as the move's command lists them,
`x-choices`), then of the stats for a move that fixes none; a press posts the move, and its message is edited
into the command's line. A press for another's character is refused privately (`answerCallbackQuery`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from telegram import Update

from ...commands.catalogue import commands_for
from ...domain.accounts import actor_for
from ...domain.errors import CommandRejected
from ...domain.ids import member_id
from ...domain.integrations import ReceivedUpdate, chat_key, received_update_id
from ...domain.rulesets import ruleset as ruleset_named
from ...hosting.host import Host
from ...hosting.refusals import CommandRefused, Refusal
from ...language import chat_language, gettext, refusal, speaking
from ..answers import Answers, Refused
from ..chat import post_from_chat
from ..config import Keeper
from ..lines import telegram_message
from ..markup import escape_telegram_html as esc
from ..members import Members
from ..slash import _plain, book_label
from ..style import TELEGRAM_STYLE
from ..words import words_body
from . import TELEGRAM, place_of
from . import texts

PLATFORM = "telegram"
#: Telegram's limit on a button's callback_data, in bytes.
CALLBACK_LIMIT = 64
#: A move button's data begins with this.
MOVE_MARK = "mv"
#: Buttons in a keyboard's row.
ROW = 2


@dataclass
class Answer:
    """What the bot sends for an update: a message (or an edit of one), and for a press its private answer."""

    chat: int
    text: str
    topic: int | None = None
    reply_to: int | None = None
    #: The message this one replaces (a `/move` message edited into its line).
    edit: int | None = None
    #: Buttons, row by row: (label, callback_data).
    buttons: list[list[tuple[str, str]]] = field(default_factory=list)
    #: The callback query answered, and whether `text` is said there privately instead of in the chat.
    callback: str | None = None
    private: bool = False


@dataclass(frozen=True)
class Sender:
    campaign: str
    user: str
    role: str


class TelegramDesk:
    """The answers to Telegram's updates: one per `rollbook serve` (or `rollbook telegram poll`), over its state."""

    def __init__(self, state: Host, keeper: Keeper) -> None:
        self.state = state
        self.keeper = keeper
        self.members = Members(state.store, TELEGRAM)
        self.answers = Answers(state)

    def received(self, update_id: int | str) -> bool:
        return self.members.accounts.fresh(received_update_id(PLATFORM, str(update_id))) is not None

    def handle(self, data: dict[str, Any]) -> list[Answer]:
        """The answers to one update (in a worker thread: it may decide and store a command); none if it was
        applied already or asks nothing of Rollbook."""
        try:
            update = Update.de_json(data, None)
        except (KeyError, TypeError, ValueError):  # not an update Telegram would send: nothing is asked
            return []
        if update is None or self.received(update.update_id):
            return []
        sender = update.effective_user
        with speaking(chat_language(sender.language_code if sender is not None else None)):
            return self._handled(update, data)

    def _handled(self, update: Update, data: dict[str, Any]) -> list[Answer]:
        """The answers, in the sender's language; a command's line is the group's, in the campaign's."""
        if update.callback_query is not None and update.callback_query.message is not None:
            return self._pressed(update, data)
        message = update.message
        if message is None or message.from_user is None or not (message.text or "").startswith("/"):
            return []
        topic = message.message_thread_id if message.is_topic_message else None
        where = Answer(chat=message.chat.id, text="", topic=topic, reply_to=message.message_id)
        name, rest = (message.text[1:].split(maxsplit=1) + ["", ""])[:2]
        name = name.split("@", 1)[0].lower()  # `/move@rollbook_bot`, as a group's menu sends it
        try:
            if name == "link":
                kept = self._kept(data, update.update_id, None, None)
                user = self.members.redeem(rest.strip(), str(message.from_user.id), also=(kept,))
                return [_say(where, gettext(texts.LINKED).format(user=esc(user)))]
            sender = self._sender(message.chat.id, topic, message.from_user.id)
            if name == "post":
                if not rest.strip():
                    raise Refused(gettext(texts.GIVE_WORDS))
                body = words_body(rest, "Telegram")
                return [_say(where, self._post(sender, update.update_id, message.chat.id, body, data))]
            if name == "move":
                return [self._move_buttons(where, sender, rest.strip())]
            return [_say(where, self._answer(name, rest, sender, update.update_id, message.chat.id, data))]
        except Refused as refused:
            return [_say(where, str(refused))]
        except (CommandRejected, CommandRefused, Refusal) as error:
            return [_say(where, gettext(texts.REFUSED).format(reason=esc(_reason(error))))]

    # --- who, where -----------------------------------------------------------------------------

    def _sender(self, chat: int, topic: int | None, account: int) -> Sender:
        campaign = self.members.campaign_of(place_of(chat, topic)) or self.members.campaign_of(str(chat))
        if campaign is None:
            raise Refused(gettext(texts.NOT_BOUND).format(place=place_of(chat, topic), chat=chat,
                                                 topic=f" --topic {topic}" if topic else ""))
        user = self.members.user_of(str(account))
        if user is None:
            raise Refused(gettext(texts.NOT_LINKED).format(account=account))
        role = self.state.accounts.role_of(campaign, user)
        if role is None:
            raise Refused(gettext(texts.NOT_MEMBER).format(user=esc(user), campaign=esc(campaign)))
        return Sender(campaign, user, role)

    def _kept(self, data: dict[str, Any], update_id: int, key: str | None, command_id: str | None) -> ReceivedUpdate:
        return ReceivedUpdate(platform=PLATFORM, update_id=str(update_id), body=json.dumps(data, ensure_ascii=False),
                              command_key=key, command_id=command_id)

    def _post(self, sender: Sender, update_id: int, chat: int, body: dict[str, Any], data: dict[str, Any]) -> str:
        if "dice" not in body and body.get("salt") is None:
            body["salt"] = f"telegram:{chat}:{update_id}"  # Telegram's ids: the seed's holder cannot choose them
        told = post_from_chat(self.state, sender.campaign, sender.user, PLATFORM, str(update_id), body,
                              lambda key, command_id: self._kept(data, update_id, key, command_id),
                              self.keeper.load().proof_base)
        return telegram_message(told)

    def _answer(self, name: str, rest: str, sender: Sender, update_id: int, chat: int, data: dict[str, Any]) -> str:
        """/roll, /sheet, /odds, /checkpoint, /undo: as Discord's `/rb` has them, the words after the command."""
        if name == "roll":
            return self._post(sender, update_id, chat, self._roll_body(sender, rest), data)
        if name == "sheet":
            return self.answers.sheet(sender.campaign, sender.user, rest.strip() or None, TELEGRAM_STYLE,
                                      gettext("<code>/sheet NAME</code>"))
        if name == "odds":
            return self.answers.odds(sender.campaign, actor_for(sender.role, sender.user), words_body(rest, "Telegram"),
                                     TELEGRAM_STYLE)
        if name == "checkpoint":
            return self.answers.checkpoint(sender.campaign, sender.role, TELEGRAM_STYLE)
        if name == "undo":
            target, _, reason = rest.strip().partition(" ")
            if not target or not reason.strip():
                raise Refused(gettext(texts.GIVE_UNDO))
            command_id = chat_key(PLATFORM, update_id)  # a ruling keeps the update's key as its id
            told = self.answers.undo(sender.campaign, sender.user, sender.role, command_id, target, reason.strip(),
                                     self._kept(data, update_id, sender.campaign, command_id),
                                     self.keeper.load().proof_base, TELEGRAM_STYLE)
            return telegram_message(told)
        raise Refused(gettext(texts.NO_COMMAND).format(name=esc(name)))

    def _roll_body(self, sender: Sender, rest: str) -> dict[str, Any]:
        """/roll FIELD=VALUE…: the game's move (its common move that rolls from the book), for the member's own
        character unless he names one."""
        doc = self._doc(sender.campaign)
        move = moves_of(doc["ruleset"])
        if move is None:
            raise Refused(gettext(texts.NO_BOOK).format(campaign=esc(sender.campaign)))
        body = {"type": move.command_type, **words_body(f"{move.command_type} {rest}", "Telegram")}
        if "character" not in body:
            own = [n for n, entry in doc["members"].items() if entry.get("player") == sender.user]
            if len(own) != 1:
                raise Refused(gettext(texts.NO_CHARACTER).format(user=esc(sender.user), campaign=esc(sender.campaign)))
            body["character"] = own[0]
        return body

    # --- moves from buttons -------------------------------------------------------------------------

    def _doc(self, campaign: str) -> dict[str, Any]:
        from ...replay.timetravel import key_of

        self.state.reader.catch_up()
        return self.state.reader.campaign(key_of(self.state.reader, campaign, None))

    def _move_buttons(self, where: Answer, sender: Sender, named: str) -> Answer:
        doc = self._doc(sender.campaign)
        move = moves_of(doc["ruleset"])
        if move is None:
            raise Refused(gettext(texts.NO_BOOK).format(campaign=esc(sender.campaign)))
        own = [n for n, entry in doc["members"].items() if entry.get("player") == sender.user] \
            if sender.role == "player" else list(doc["members"])
        chosen = [n for n in own if n == named] if named else own
        if len(chosen) != 1:
            raise Refused(gettext(texts.NO_CHARACTER).format(user=esc(sender.user), campaign=esc(sender.campaign)))
        character = chosen[0]
        mark = f"{MOVE_MARK}|{member_id(sender.campaign, doc['members'][character]['kind'], character).hex[:16]}"
        buttons = [(move.label(key) + (f" · {gettext(move.fixed[key])}" if key in move.fixed else ""), f"{mark}|{key}")
                   for key in move.choices]
        return Answer(where.chat, gettext(texts.PICK_MOVE).format(character=esc(character)), where.topic,
                      where.reply_to,
                      buttons=_rows([b for b in buttons if len(b[1].encode()) <= CALLBACK_LIMIT]))

    def _pressed(self, update: Update, data: dict[str, Any]) -> list[Answer]:
        query = update.callback_query
        message = query.message
        topic = getattr(message, "message_thread_id", None) if getattr(message, "is_topic_message", False) else None
        where = Answer(chat=message.chat.id, text="", topic=topic, edit=message.message_id, callback=query.id)
        parts = (query.data or "").split("|")
        try:
            if len(parts) not in (3, 4) or parts[0] != MOVE_MARK:
                raise Refused(gettext(texts.STALE))
            sender = self._sender(message.chat.id, topic, query.from_user.id)
            doc = self._doc(sender.campaign)
            move = moves_of(doc["ruleset"])
            character = next((n for n, e in doc["members"].items()
                              if member_id(sender.campaign, e["kind"], n).hex[:16] == parts[1]), None)
            if move is None or character is None or parts[2] not in move.choices:
                raise Refused(gettext(texts.STALE))
            owner = doc["members"][character].get("player")
            if sender.role == "player" and owner != sender.user:
                raise Refused(gettext(texts.NOT_YOURS).format(character=esc(character)))
            stat = parts[3] if len(parts) == 4 else move.fixed.get(parts[2])
            if stat is None:  # the move fixes no stat: the player picks one
                picks = [(gettext(s), f"{'|'.join(parts[:3])}|{s}") for s in move.stats]
                return [Answer(where.chat, gettext(texts.PICK_STAT).format(character=esc(character),
                                                                           move=esc(move.label(parts[2]))),
                               edit=where.edit, buttons=_rows(picks)), Answer(where.chat, "", callback=query.id)]
            body = {"type": move.command_type, "character": character, "move": parts[2], "stat": stat}
            line = self._post(sender, update.update_id, message.chat.id, body, data)
            return [Answer(where.chat, line, edit=where.edit), Answer(where.chat, "", callback=query.id)]
        except Refused as refused:
            return [Answer(where.chat, str(refused), callback=query.id, private=True)]
        except (CommandRejected, CommandRefused, Refusal) as error:
            return [Answer(where.chat, gettext(texts.REFUSED).format(reason=esc(_reason(error))), callback=query.id,
                           private=True)]


@dataclass(frozen=True)
class Moves:
    """A game's moves as buttons: its common move's command, the book's moves (key -> label), stats, fixed stats."""

    command_type: str
    choices: dict[str, str]
    stats: list[str]
    fixed: dict[str, str]
    ruleset: str = ""

    def label(self, key: str) -> str:
        """The move's name in the language spoken (the book's own words)."""
        return book_label(self.ruleset, key, self.choices[key])


def moves_of(ruleset: str) -> Moves | None:
    """The game's rolled moves, from its declarations: the common move whose command lists a book of moves
    (`x-choices` of its `move` field), the stats its `stat` field takes, and the stat the book fixes for some."""
    game = ruleset_named(ruleset)
    for _, command_type in game.common_moves:
        properties = commands_for(ruleset)[command_type][0].model_json_schema()["properties"]
        choices = properties.get("move", {}).get("x-choices")
        if choices and "stat" in properties:
            book = game.move_book() if game.move_book else {}
            fixed = {key: entry["stat"] for entries in book.values() for key, entry in entries.items()
                     if "stat" in entry}
            return Moves(command_type, dict(choices), list(_plain(properties["stat"]).get("enum", [])), fixed, ruleset)
    return None


def _rows(buttons: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    return [buttons[i:i + ROW] for i in range(0, len(buttons), ROW)]


def _say(where: Answer, text: str) -> Answer:
    return Answer(where.chat, text, where.topic, where.reply_to)


def _reason(error: Exception) -> str:
    """Why a command was refused, in the language spoken: the rules' refusal said there, else as the server said it."""
    if isinstance(error, CommandRefused) and error.rejection is not None:
        error = error.rejection
    if isinstance(error, CommandRejected):
        return (f"{error.field}: " if error.field else "") + refusal(error)
    if isinstance(error, CommandRefused):
        return (f"{error.error.field}: " if error.error.field else "") + error.error.message
    return error.reason if isinstance(error, Refusal) else str(error)
