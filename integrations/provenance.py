"""A Discord-posted command's provenance: Discord's signed interaction, kept with it, and checked later.

Storing: the `SignedInteraction` (body, signature, timestamp as Discord sent them) is one row more in the
command's transaction (`chat.post_from_chat`), before the command's claim: stored with its command or not at
all, and never in its hash chain (a replay re-executes the command alone, and finds it identical).

Checking (`rollbook verify --discord-key HEX`): for every command of the campaign whose record says it
was posted through Discord (its `via`, `discord:<interaction id>`, in the chained record itself; or, recorded
before `via`, its id `discord-<interaction id>`), the signed interaction must be kept, Discord's signature must
hold over its timestamp and body, its id must be the command's interaction, no other command may say it came
from the same interaction, the command recorded must be exactly what its options ask (read by the same
code that read them when it was posted), and its actor must be the user that Discord member was
linked to, in the role he held, when it was posted. The store's operator can write any command
he likes, but not one Discord signed for a member who never sent it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..domain.accounts import Roster, actor_for, roster_id
from ..domain.revisions import REVISION_MARK
from ..domain.errors import CommandRejected
from ..domain.integrations import interaction_of, signed_interaction_id
from ..replay.history import RecordedCommand, recorded_commands
from ..store import Store
from ..store.reads import events_of
from .members import Members
from .signature import signed_by
from .words import asked_command, snowflake_time

#: How long after Discord signed an interaction its command may be recorded (an interaction's token lasts 15 minutes).
RECORDED_WITHIN_SECONDS = 15 * 60


@dataclass
class DiscordFinding:
    command: str
    problem: str

    def __str__(self) -> str:
        return f"command {self.command}: {self.problem}"

    def as_dict(self) -> dict[str, str]:
        return {"command": self.command, "problem": self.problem}


@dataclass
class DiscordReport:
    checked: int
    findings: list[DiscordFinding]
    #: Discord member id -> the users his commands acted as.
    members: dict[str, list[str]]

    def as_dict(self) -> dict[str, Any]:
        return {"checked": self.checked, "findings": [f.as_dict() for f in self.findings], "members": self.members}


def check_discord(store: Store, campaign: str, keys: Iterable[str], public_key: str) -> DiscordReport:
    """Hold every Discord-posted command of the revisions `keys` to its signed interaction."""
    try:
        bytes.fromhex(public_key)
        if len(public_key) != 64:
            raise ValueError
    except ValueError:
        raise CommandRejected("--discord-key is the application's public key: 64 hex digits, as the Developer Portal "
                              "shows it", field="discord-key") from None
    members = Members(store)
    findings: list[DiscordFinding] = []
    seen: dict[str, list[str]] = {}
    checked = 0
    done: set[str] = set()
    posted_by: dict[str, str] = {}  # interaction -> the command it posted
    for key in keys:
        for recorded in recorded_commands(store, key):
            interaction = interaction_of(recorded.id, recorded.command.get("via"))
            if interaction is None or recorded.id in done:
                continue  # a revision's copy of a command is the same record: held once
            done.add(recorded.id)
            checked += 1
            first = posted_by.setdefault(interaction, recorded.id)
            problems = [] if first == recorded.id else [
                f"it says it came from interaction {interaction}, which posted command {first}"]
            problems += _problems(store, members, campaign, key, recorded, interaction, public_key, seen)
            findings += [DiscordFinding(recorded.id, p) for p in problems]
    return DiscordReport(checked, findings, {m: sorted(set(u)) for m, u in seen.items()})


def _problems(store: Store, members: Members, campaign: str, key: str, recorded_command: RecordedCommand,
              interaction: str, public_key: str, seen: dict[str, list[str]]) -> list[str]:
    command = recorded_command.command
    kept = _fresh(store, signed_interaction_id(interaction))
    if kept is None:
        return ["it says it was posted through Discord, but no signed interaction is kept for it"]
    if not signed_by(public_key, kept.signature, kept.timestamp, kept.body.encode()):
        return ["its signed interaction was edited: Discord's signature does not hold over it"]
    data = json.loads(kept.body)
    if str(data.get("id")) != interaction:
        return [f"its signed interaction is interaction {data.get('id')}, not {interaction}"]
    discord_user = str(((data.get("member") or {}).get("user") or data.get("user") or {}).get("id", ""))
    at = datetime.fromisoformat(str(command["at"]))
    user, _ = members.user_at(discord_user, at)
    if user is None:
        return [f"Discord member {discord_user} was linked to no user when it was posted"]
    seen.setdefault(discord_user, []).append(user)
    problems = []
    role = _role_at(store, campaign, user, at)
    if role is None or command.get("actor") != actor_for(role, user):
        problems.append(f"recorded as {command.get('actor')}, but Discord member {discord_user} was {user} "
                        f"({role or 'no role'} of {campaign}) when it was posted")
    signed_at = snowflake_time(interaction)
    if not 0 <= (at - signed_at).total_seconds() <= RECORDED_WITHIN_SECONDS:
        problems.append(f"recorded at {at.isoformat()}, but Discord made the interaction at {signed_at.isoformat()}")
    try:
        asked = asked_command(data, store, campaign, key, command.get("actor", ""),
                              recorded_command.id if "via" in command else None)
    except CommandRejected as error:
        return [*problems, f"its signed interaction asks for no command Rollbook can read: {error}"]
    recorded = {k: v for k, v in command.items() if k != "at"}
    # A ruling records more than it was asked (its decision, the revision it made): held to what was asked.
    names = set(asked) if asked.get("type") == "dispute" else set(asked) | set(recorded)
    for name in sorted(names):
        if asked.get(name) != recorded.get(name):
            problems.append(f"{name}: recorded {recorded.get(name)!r}, but the member asked for {asked.get(name)!r}")
    return problems


def _fresh(store: Store, aggregate_id: Any) -> Any:
    aggregate = None
    for event in events_of(store, aggregate_id):
        aggregate = event.mutate(aggregate)
    return aggregate


def _role_at(store: Store, campaign: str, user: str, at: datetime) -> str | None:
    root = campaign.split(REVISION_MARK, 1)[0]
    role = None
    for event in events_of(store, roster_id(root)):
        if isinstance(event, Roster.Granted) and event.user == user and event.timestamp <= at:
            role = event.role
    return role
