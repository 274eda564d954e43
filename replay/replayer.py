"""`rollbook replay`: re-execute a campaign's recorded commands into a fresh in-memory store.

With `--verify` the re-executed streams are compared with the stored ones, aggregate by
aggregate, event by event: type, payload and time must be byte-identical (the command log
itself records what each command wrote, in order, so equal streams mean an equal history).
The first difference is reported with its position in the store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from ..domain.ids import campaign_id
from ..store import Store
from .history import recorded_commands
from .positions import position_of
from .reexecute import reexecute

PAGE = 2000


@dataclass
class ReplayReport:
    key: str
    commands: int
    events_compared: int = 0
    difference: str | None = None
    position: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.key, "commands": self.commands, "events_compared": self.events_compared,
            "identical": self.difference is None, "difference": self.difference, "position": self.position,
        }


def replay(store: Store, key: str, *, until_seq: int | None = None, verify: bool = False,
           progress: Any = None) -> tuple[ReplayReport, Store]:
    scratch = Store.open("memory://")
    outcome = reexecute(
        recorded_commands(store.app, key, until_seq=until_seq), scratch, key=key, keeper=store.seeds,
        on_command=progress, source=store,
    )
    report = ReplayReport(key=key, commands=outcome.applied)
    if verify:
        compare(store, scratch, key, report)
    return report, scratch


def _streams(scratch: Store) -> list[UUID]:
    """Every aggregate the re-execution wrote, except command claims (their ids are the commands)."""
    from ..projections.projector import SKIPPED_TOPICS

    seen: dict[UUID, None] = {}
    position = 0
    while True:
        batch = scratch.app.recorder.select_notifications(position, 5000, inclusive_of_start=False)
        if not batch:
            return list(seen)
        for notification in batch:
            if notification.topic not in SKIPPED_TOPICS:
                seen.setdefault(notification.originator_id, None)
        position = batch[-1].id


def compare(store: Store, scratch: Store, key: str, report: ReplayReport) -> None:
    ids = _streams(scratch)
    campaign = campaign_id(key)
    ids.sort(key=lambda i: i != campaign)  # the campaign's stream (with the command log) first
    for originator in ids:
        version = 0
        while True:
            replayed = scratch.app.recorder.select_events(originator, gt=version, limit=PAGE)
            if not replayed:
                break
            stored = store.app.recorder.select_events(originator, gt=version, lte=replayed[-1].originator_version)
            for index, again in enumerate(replayed):
                original = stored[index] if index < len(stored) else None
                report.events_compared += 1
                problem = _difference(original, again, store)
                if problem is not None:
                    report.difference = problem
                    report.position = position_of(store.app, originator, again.originator_version)
                    return
            version = replayed[-1].originator_version


def _difference(original: Any, again: Any, store: Store) -> str | None:
    name = again.topic.rsplit(".", 1)[-1]
    where = f"{name} v{again.originator_version} of {again.originator_id}"
    if original is None:
        return f"{where}: re-executed, but not in the store"
    if original.topic != again.topic:
        return f"{where}: the store has {original.topic.rsplit('.', 1)[-1]} there"
    if original.state != again.state:
        before = store.app.mapper.to_domain_event(original).__dict__
        after = store.app.mapper.to_domain_event(again).__dict__
        fields = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        return f"{where}: stored and re-executed payloads differ in {', '.join(fields)}"
    return None
