"""The chat core's answers, one set for every adapter: a sheet, the odds, a checkpoint, a ruling taken back.

Each reads and decides through the server's state as Discord's desk always did; what differs between chats
is only their markup, a `Style` (`style.py`: Discord's Markdown, Telegram's HTML). A refusal is `Refused`, in words,
said in the language spoken where it is asked (the member's own, `language.chat_language`).
"""

from __future__ import annotations

from typing import Any

from ..domain.errors import CommandRejected
from ..language import gettext, refusal
from ..hosting.host import Host
from ..store.failures import IntegrityError
from .lines import Told, told_by_id
from .readings import odds_text, sheet_text
from .style import Style


class Refused(Exception):
    """Said in words to the member who asked; nothing applied."""


class Answers:
    """What a member asks a chat for, answered from the server's state."""

    def __init__(self, state: Host) -> None:
        self.state = state

    def current(self, campaign: str) -> tuple[str, dict[str, Any]]:
        from ..replay.timetravel import key_of

        self.state.reader.catch_up()
        key = key_of(self.state.reader, campaign, None)
        return key, self.state.reader.campaign(key)

    def sheet(self, campaign: str, user: str, name: str | None, style: Style, ask: str) -> str:
        """A character's sheet; with no name, the member's own one (`ask`: how to name one, in the chat's words)."""
        key, doc = self.current(campaign)
        if name is None:
            own = [n for n, entry in doc["members"].items() if entry.get("player") == user]
            if len(own) != 1:
                listed = ", ".join(style.escape(n) for n in own or doc["members"]) or gettext("none yet")
                raise Refused(gettext("Name the character ({ask}): {listed}.").format(ask=ask, listed=listed))
            name = own[0]
        kind, sheet = self.state.reader.sheet(key, str(name))
        return sheet_text(doc["ruleset"], kind, sheet, style)

    def odds(self, campaign: str, actor: str, body: dict[str, Any], style: Style) -> str:
        self.state.caught_up()
        with self.state.writing(campaign):  # decided on copies of the cached aggregates, none changing meanwhile
            odds = self.state.service.odds(campaign, {**body, "actor": actor})
        return odds_text(body, odds, style)

    def checkpoint(self, campaign: str, role: str, style: Style) -> str:
        """The C2SP checkpoint of the campaign's current revision now, with every cosignature kept for it (what
        `rollbook checkpoint` prints; the witnesses it names are asked there, not within a chat's answer time)."""
        from ..replay.transparency import published
        from .lines import thread_note

        if role != "gm":
            raise Refused(gettext("Only the GM signs a checkpoint."))
        try:
            note = thread_note(published(self.state.store, campaign).note)
        except CommandRejected as error:
            raise Refused(gettext("No checkpoint of {campaign} can be signed here: {reason}").format(
                campaign=style.escape(campaign), reason=style.escape(refusal(error)))) from None
        said = gettext("Checkpoint of {campaign}: keep it, {verify} holds the record to it.").format(
            campaign=style.bold(style.escape(campaign)), verify=style.code("rollbook verify --checkpoint"))
        return f"{said}\n{style.block(note.rstrip())}"

    def undo(self, campaign: str, user: str, role: str, command_id: str, target: str, reason: str,
             kept: Any, proof_base: str | None, style: Style) -> Told:
        """The GM's or an auditor's ruling that drops `target`, recorded as `command_id`, with `kept` (what the
        chat delivered) stored right after it; the ruling's line."""
        from ..hosting.accounts import Membership
        from ..hosting.rulings import DisputeRequest, rule

        if role not in ("gm", "auditor"):
            raise Refused(gettext("Only the GM or an auditor takes a command back; {user} is {role} of {campaign}.")
                          .format(user=style.escape(user), role=gettext(role), campaign=style.escape(campaign)))
        ruled = DisputeRequest(roll=target, reason=reason, drop=True)
        rule(self.state, Membership(user=user, campaign=campaign, role=role), command_id, ruled)
        with self.state.writing(campaign):
            try:  # a ruling is many transactions' worth: what the chat delivered is kept right after it
                self.state.store.save(kept)
            except IntegrityError:
                pass  # the same request delivered again: kept the first time
            return told_by_id(self.state.store, campaign, command_id, proof_base)
