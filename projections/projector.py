"""Catching the projections up with the events: sheets, timeline, limits, roll log, commands.

The projector pulls notifications after its tracked position in batches (SQLite has no
subscriptions; on PostgreSQL the same pull is simply what catching up means), folds each
event into its aggregate, and writes what changed — one document per sheet, roll,
timeline entry or command — together with the new position in one transaction.

Sheets are each aggregate's own `sheet()` after the batch, so a projected sheet is by
construction the aggregate's state; the roll log and the timeline are built from the
campaign's generic events. Rebuilding is clearing and catching up from position 0.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Application
from eventsourcing.utils import get_topic

from ..domain.campaign import Campaign
from ..domain.members import CommandClaim, Member, Scene
from .views import Document, TrackingConflict, ViewStore

BATCH_SIZE = 1000
SKIPPED_TOPICS = {get_topic(CommandClaim.Recorded)}


def timeline_key(scope: str, number: int) -> str:
    return f"{scope}:{number}"


class Projector:
    def __init__(self, app: Application, views: ViewStore, *, batch_size: int = BATCH_SIZE) -> None:
        self.app = app
        self.views = views
        self.batch_size = batch_size
        self.folded: dict[Any, Any] = {}

    def catch_up(self) -> int:
        """Process every event stored so far; returns the position reached."""
        while True:
            start = self.views.position()
            notifications = self.app.recorder.select_notifications(
                start, self.batch_size, inclusive_of_start=False
            )
            if not notifications:
                return start
            documents = self._project(notifications)
            try:
                self.views.write(start, notifications[-1].id, documents)
            except TrackingConflict:
                continue

    def project(self, start: int, notifications: list[Any]) -> int:
        """Project notifications that directly follow position `start` (as a subscription hands
        them over); the new position. `TrackingConflict` if the views are no longer at `start`."""
        self.views.write(start, notifications[-1].id, self._project(notifications))
        return int(notifications[-1].id)

    def rebuild(self) -> int:
        self.views.clear()
        self.folded.clear()
        return self.catch_up()

    # --- folding ------------------------------------------------------------------------

    def _fold(self, event: Any) -> Any:
        aggregate = self.folded.get(event.originator_id)
        if aggregate is None or aggregate.version != event.originator_version - 1:
            aggregate = (
                None
                if event.originator_version == 1
                else self.app.repository.get(event.originator_id, version=event.originator_version - 1)
            )
        aggregate = event.mutate(aggregate)
        self.folded[event.originator_id] = aggregate
        return aggregate

    def _project(self, notifications: list[Any]) -> list[Document]:
        documents: dict[tuple[str, str, str], Document] = {}
        changed: dict[Any, tuple[Any, int]] = {}

        def put(campaign: str, kind: str, key: str, position: int, doc: dict[str, Any]) -> None:
            documents[(campaign, kind, key)] = (campaign, kind, key, position, doc)

        def current(campaign: str, kind: str, key: str) -> dict[str, Any] | None:
            found = documents.get((campaign, kind, key))
            return found[4] if found else self.views.get(campaign, kind, key)

        for notification in notifications:
            if notification.topic in SKIPPED_TOPICS:
                continue
            event = self.app.mapper.to_domain_event(notification)
            aggregate = self._fold(event)
            position = notification.id
            changed[aggregate.id] = (aggregate, position)
            if isinstance(aggregate, Campaign):
                self._campaign_event(aggregate, event, position, put, current)

        for aggregate, position in changed.values():
            if isinstance(aggregate, Member):
                put(aggregate.campaign, "sheet", aggregate.name, position,
                    {"kind": aggregate.kind, "sheet": aggregate.sheet()})
            elif isinstance(aggregate, Campaign):
                put(aggregate.campaign, "campaign", "", position, aggregate.sheet())
                put(aggregate.campaign, "limits", "", position, {"ledger": aggregate.ledger()})
            elif isinstance(aggregate, Scene):
                key = timeline_key("scene", aggregate.number)
                entry = current(aggregate.campaign, "timeline", key)
                if entry is not None:
                    put(aggregate.campaign, "timeline", key, entry["start"], {**entry, "enemy": aggregate.enemy})
        return list(documents.values())

    @staticmethod
    def _campaign_event(campaign: Campaign, event: Any, position: int, put: Any, current: Any) -> None:
        name = type(event).__name__
        when = event.timestamp.isoformat()
        c = campaign.campaign
        if name == "DiceRolled":
            roll = dict(event.roll)
            original = {"total": roll["total"], "outcome": roll["outcome"], "modifiers": roll["modifiers"]}
            put(c, "roll", roll["id"], position,
                {**roll, "position": position, "at": when, "original": original, "changes": []})
        elif name == "RollModified":
            roll = current(c, "roll", event.roll)
            if roll is not None:
                if event.modifier is not None:
                    roll["modifiers"] = [*roll["modifiers"], event.modifier]
                roll["total"], roll["outcome"] = event.total, event.outcome
                roll["changes"] = [*roll["changes"], {"position": position, "reason": event.reason,
                                                      "modifier": event.modifier,
                                                      "total": event.total, "outcome": event.outcome}]
                put(c, "roll", event.roll, roll["position"], roll)
        elif name in ("ScopeStarted", "Ticked"):
            key = timeline_key(event.scope, event.number)
            put(c, "timeline", key, position, {
                "scope": event.scope, "label": event.label, "number": event.number,
                "title": getattr(event, "title", None), "start": position, "started_at": when,
                "end": position if name == "Ticked" else None, "ended_at": when if name == "Ticked" else None,
            })
        elif name == "ScopeEnded":
            key = timeline_key(event.scope, event.number)
            entry = current(c, "timeline", key)
            if entry is not None:
                put(c, "timeline", key, entry["start"], {**entry, "end": position, "ended_at": when})
        elif name == "MoveBegun":
            key = timeline_key("move", event.number)
            put(c, "timeline", key, position, {
                "scope": "move", "label": campaign.label_for("move"), "number": event.number,
                "title": f"{event.character} ({event.roll})", "start": position, "started_at": when,
                "end": position, "ended_at": when, "roll": event.roll, "character": event.character,
            })
        elif name == "CommandApplied":
            command = event.command
            put(c, "command", event.command_id, position, {
                "id": event.command_id, "seq": event.seq, "type": command.get("type"),
                "actor": command.get("actor", "gm"), "at": command.get("at", when), "position": position,
            })
