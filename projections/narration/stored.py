"""A command's stored events, read back from the event store for its line in words.

The campaign's `CommandApplied` names every event the command stored (aggregate, version);
they are read back by those names, one query per aggregate, and labelled with the member's
name from the campaign's roster. Reading the store rather than keeping the events in
memory keeps `rollbook run` of a long file as light as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from uuid import UUID

from ...domain.errors import UnknownName
from ...domain.ids import campaign_id, member_id
from ...store.reads import aggregate as aggregate_of, events_between, latest_first
from . import Happening, summarize

if TYPE_CHECKING:
    from ...store import EventStore

#: How many of the campaign's latest events are read at a time while looking for a command.
PAGE = 64


def happenings_of(store: EventStore, key: str, command_id: str) -> list[Happening]:
    """Every event the command `command_id` stored in campaign `key` (a revision's key), in order."""
    return happenings_of_record(store, key, _command_applied(store, campaign_id(key), command_id))


def happenings_of_record(store: EventStore, key: str, record: Any, campaign: Any = None) -> list[Happening]:
    """The same for a `CommandApplied` already in hand (the mirror reads it from the store's log). Its names are
    the roster's as the command left it (`campaign`, or read at the record's version): not a cached campaign that
    another process (the CLI) has moved on since, which would not know the character it just made."""
    names = whose(campaign or aggregate_of(store, campaign_id(key), record.originator_version))
    versions: dict[str, list[int]] = {}
    for aggregate, version, _ in record.writes:
        versions.setdefault(aggregate, []).append(version)
    events: dict[tuple[str, int], Any] = {}
    for aggregate, numbers in versions.items():
        for event in events_between(store, UUID(aggregate), min(numbers), max(numbers)):
            events[(aggregate, event.originator_version)] = event
    happenings = [
        Happening(names.get(aggregate, "someone"), type(events[(aggregate, version)]).__name__,
                  event_fields(events[(aggregate, version)]))
        for aggregate, version, _ in record.writes
    ]
    return [*happenings, Happening("campaign", "CommandApplied", event_fields(record))]


def whose(campaign: Any) -> dict[str, str]:
    """Each aggregate of the campaign (a revision's) as its line in words names it, by its id's hex:
    "campaign", a member's name, "scene 2"."""
    key = campaign.campaign
    names: dict[str, str] = {campaign_id(key).hex: "campaign"}
    for name, entry in campaign.roster.items():
        names[member_id(key, entry["kind"], name).hex] = name
    for number in range(1, int(campaign.clock.get("scene", {}).get("number", 0)) + 1):
        names[member_id(key, "scene", str(number)).hex] = f"scene {number}"
    return names


def summary_of(store: EventStore, ruleset: str, key: str, command_id: str) -> str:
    """The line in words for a command already stored (what the server returns as `summary`)."""
    return summarize(ruleset, happenings_of(store, key, command_id))


def _command_applied(store: EventStore, originator: UUID, command_id: str) -> Any:
    for event in latest_first(store, originator, ".CommandApplied", PAGE):
        if event.command_id == command_id:
            return event
    raise UnknownName(f"no command {command_id!r} recorded", field="id")


def event_fields(event: Any) -> dict[str, Any]:
    return {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version", "timestamp")}
