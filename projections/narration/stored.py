"""A command's stored events, read back from the event store for its line in words.

The campaign's `CommandApplied` names every event the command stored (aggregate, version);
they are read back by those names, one query per aggregate, and labelled with the member's
name from the campaign's roster. Reading the store rather than keeping the events in
memory keeps `rollbook run` of a long file as light as before.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.application import Application

from ...domain.errors import UnknownName
from ...domain.ids import campaign_id, member_id
from . import Happening, summarize

#: How many of the campaign's latest events are read at a time while looking for a command.
PAGE = 64


def happenings_of(app: Application, key: str, command_id: str) -> list[Happening]:
    """Every event the command `command_id` stored in campaign `key` (a revision's key), in order."""
    return happenings_of_record(app, key, _command_applied(app, campaign_id(key), command_id))


def happenings_of_record(app: Application, key: str, record: Any) -> list[Happening]:
    """The same for a `CommandApplied` already in hand (the mirror reads it from the store's log)."""
    names = whose(app.repository.get(campaign_id(key)))
    versions: dict[str, list[int]] = {}
    for aggregate, version, _ in record.writes:
        versions.setdefault(aggregate, []).append(version)
    events: dict[tuple[str, int], Any] = {}
    for aggregate, numbers in versions.items():
        for stored in app.recorder.select_events(UUID(aggregate), gt=min(numbers) - 1, lte=max(numbers)):
            events[(aggregate, stored.originator_version)] = app.mapper.to_domain_event(stored)
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


def summary_of(app: Application, ruleset: str, key: str, command_id: str) -> str:
    """The line in words for a command already stored (what the server returns as `summary`)."""
    return summarize(ruleset, happenings_of(app, key, command_id))


def _command_applied(app: Application, originator: UUID, command_id: str) -> Any:
    below: int | None = None
    while True:
        page = app.recorder.select_events(originator, desc=True, limit=PAGE, lte=below)
        if not page:
            raise UnknownName(f"no command {command_id!r} recorded", field="id")
        for stored in page:
            if stored.topic.endswith(".CommandApplied"):
                event = app.mapper.to_domain_event(stored)
                if event.command_id == command_id:
                    return event
        below = page[-1].originator_version - 1


def event_fields(event: Any) -> dict[str, Any]:
    return {k: v for k, v in vars(event).items() if k not in ("originator_id", "originator_version", "timestamp")}
