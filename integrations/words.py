"""What an interaction asks for, read from Discord's JSON: the same reading when it is posted and when
`verify --discord-key` holds the recorded command to it.

`/rb post command:…` takes the words of `rollbook post`: the command's type, then FIELD=VALUE
words (a value that parses as JSON is JSON, any other is text; quote a text with spaces:
`"title=Black Sails"`). A common move's command (`/<ruleset>-<move>`) gives its fields as options. Either
way the interaction's id is the command's salt unless the member gives one (or typed `dice`):
Discord made it when the member posted, so the seed's holder could not choose it.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..commands.field_values import parse_field_values
from ..domain.errors import CommandRejected
from ..domain.ids import member_id
from ..domain.integrations import DISCORD, chat_via, discord_command_id
from .slash import move_named, body_of

#: Discord's epoch (2015-01-01), in milliseconds: a snowflake's top 42 bits count from it.
DISCORD_EPOCH_MS = 1420070400000
#: Words a member does not give: Discord's interaction gives them (where, who, which, when).
GIVEN_BY_DISCORD = ("campaign", "actor", "id", "at", "via")
#: The most characters an autocomplete choice's name and value hold (Discord's limit).
CHOICE_LIMIT = 100
#: A choice's value for a member whose name is longer than CHOICE_LIMIT: this, then his id.
ID_MARK = "id:"


def snowflake_time(snowflake: str) -> datetime:
    """When Discord made the thing with this id."""
    return datetime.fromtimestamp(((int(snowflake) >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


@dataclass
class Asked:
    """An interaction's slash command: its name, its subcommand (of /rb), its options by name, the one focused."""

    name: str
    sub: str | None
    options: dict[str, Any] = field(default_factory=dict)
    raw: list[dict[str, Any]] = field(default_factory=list)
    focused: str | None = None


def member_choice(campaign: str, kind: str, name: str) -> str:
    """What an autocomplete choice gives for a member: his name, or, for a name a choice cannot carry whole (names
    of up to 200 characters were always taken), `id:` and his id, which `with_names` reads back."""
    return name if len(name) <= CHOICE_LIMIT else ID_MARK + member_id(campaign, kind, name).hex


def with_names(values: dict[str, Any], campaign: str, roster: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """`values` (options, a command's body) with each long name's choice (`member_choice`) read back as the name."""
    chosen = {member_choice(campaign, entry["kind"], name): name for name, entry in roster.items()
              if len(name) > CHOICE_LIMIT}
    return {key: chosen.get(value, value) if isinstance(value, str) else value for key, value in values.items()}


def asked(data: dict[str, Any]) -> Asked:
    command = data.get("data") or {}
    options = list(command.get("options") or [])
    sub = None
    if options and options[0].get("type") == 1:  # a subcommand: its own options are the ones given
        sub, options = str(options[0].get("name")), list(options[0].get("options") or [])
    focused = next((str(o["name"]) for o in options if o.get("focused")), None)
    return Asked(str(command.get("name", "")), sub, {str(o["name"]): o.get("value") for o in options}, options, focused)


def words_body(text: Any, chat: str = "Discord") -> dict[str, Any]:
    """`rollbook post`'s words as a command's body: TYPE FIELD=VALUE …; `chat` gives the campaign, the actor, the id
    and the time."""
    try:
        words = shlex.split(str(text))
    except ValueError as error:
        raise CommandRejected(f"the words do not split: {error} (close the quote)", field="command") from None
    if not words:
        raise CommandRejected("give the command's type and fields, as `rollbook post` takes them", field="command")
    body = {"type": words[0], **parse_field_values(words[1:])}
    given = [name for name in GIVEN_BY_DISCORD if name in body]
    if given:
        raise CommandRejected("{given}: {chat} gives this (the bound campaign, you, the request, now); leave it out",
                              field=given[0], given=", ".join(given), chat=chat)
    return body


def command_body(data: dict[str, Any]) -> dict[str, Any] | None:
    """The command an interaction posts (its body, salted with the interaction's id), or None if it posts none."""
    request = asked(data)
    if request.name == "rb" and request.sub == "post":
        body = words_body(request.options.get("command", ""))
    else:
        move = move_named(request.name)
        if move is None:
            return None
        body = body_of(move, request.raw)
    if "dice" not in body and body.get("salt") is None:
        body["salt"] = str(data["id"])
    return body


def asked_command(data: dict[str, Any], store: Any, campaign: str, key: str, actor: str,
                  said_id: str | None = None) -> dict[str, Any]:
    """The command record an interaction asks for, as the service records it (without its time): under the id a
    person can say the server gave it (`said_id`), the interaction as its `via`; or, without one (recorded before
    `via`), under the interaction's key (`discord-<id>`) as its id.

    A ruling (`/rb undo`) is held to what it names: the command dropped and the reason.
    """
    from ..commands.parse import CommandError, parse_command
    from ..domain.campaign import Campaign
    from ..domain.ids import campaign_id

    request = asked(data)
    command_id = said_id or discord_command_id(str(data["id"]))
    via = {} if said_id is None else {"via": chat_via(DISCORD, str(data["id"]))}
    if request.name == "rb" and request.sub == "undo":
        return {"type": "dispute", "roll": request.options.get("command"), "reason": request.options.get("reason"),
                "actor": actor, "campaign": campaign, "id": command_id}
    body = command_body(data)
    if body is None:
        raise CommandRejected(f"/{request.name} {request.sub or ''} posts no command".strip(), field="command")
    ruleset = store.get(campaign_id(key))
    assert isinstance(ruleset, Campaign)
    body = with_names(body, campaign, ruleset.roster)
    try:
        parsed = parse_command({**body, "campaign": campaign, "id": command_id, "actor": actor, **via},
                               ruleset_of=lambda _: ruleset.ruleset)
    except CommandError as error:
        raise CommandRejected(str(error), field=error.field) from None
    return parsed.payload() | {"id": command_id}
