"""`rollbook replay`: re-execute a campaign's recorded commands in memory, with their recorded dice.

The commands are decided again by the ordinary service, on aggregates held in memory
(`MemoryUnit`): nothing is written, and memory holds the campaign's members, not its
history. With `--verify` each command's re-executed events are held to its record: the
stored `CommandApplied` names every event its command wrote (aggregate, version, and the
fingerprint of its type, payload and time), so the re-executed `CommandApplied` byte-identical
to the stored one means every event is, in the same order. Only the campaign's stream is
read (it is the history); the other stored events are read only on a difference, to name
the first event that differs and its position in the store.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from ..domain.chain import event_digest
from ..domain.members import CommandClaim
from ..store import Store
from ..store.port import position_of
from ..store.reads import StoredEvent, decoded, stored_events
from ..store.unit_of_work import MemoryUnit
from .history import RecordedCommand, chain_start, recorded_commands
from .reexecute import reexecute

CLAIM_TOPIC = get_topic(CommandClaim.Recorded)


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


class FirstDifference(Exception):
    """Ends a verifying replay: the rest of the history cannot be compared meaningfully."""


def replay(
    store: Store, key: str, *, until_seq: int | None = None, verify: bool = False,
    on_command: Callable[[RecordedCommand], None] | None = None,
) -> ReplayReport:
    report = ReplayReport(key=key, commands=0)
    comparison = Comparison(store, report) if verify else None
    unit = MemoryUnit(store, comparison)
    pages = comparison.campaign_page if comparison is not None else None
    history = recorded_commands(store, key, until_seq=until_seq, pages=pages)
    with contextlib.suppress(FirstDifference):
        outcome = reexecute(history, store, key=key, keeper=store.seeds, signing_keys=store.keys, source=store, unit=unit,
                            on_command=on_command, start=chain_start(store, key))
        report.commands = outcome.applied
    return report


class Comparison:
    """Each command's re-executed events against what its recorded `CommandApplied` says it wrote."""

    def __init__(self, store: Store, report: ReplayReport) -> None:
        self.store = store
        self.report = report
        self.ahead: deque[StoredEvent] = deque()
        self.campaign: UUID | None = None

    def campaign_page(self, page: list[StoredEvent]) -> None:
        """The campaign's stream as the history reads it: always ahead of the comparison,
        since a command is read (its `CommandApplied`) only after everything it wrote there."""
        self.campaign = page[0].originator_id
        self.ahead.extend(page)

    def __call__(self, events: Sequence[Any], stored: Sequence[StoredEvent]) -> None:
        closing = stored[-1]  # the command's CommandApplied: it names everything before it
        self.report.events_compared += sum(1 for again in stored if again.topic != CLAIM_TOPIC)
        original = self._recorded(closing.originator_version)
        if original is not None and original.topic == closing.topic and original.state == closing.state:
            return
        recorded = {} if original is None else {
            (hex_id, version): digest
            for hex_id, version, digest in decoded(self.store, original).writes
        }
        for again in stored[:-1]:
            if recorded.get((again.originator_id.hex, again.originator_version)) != event_digest(again):
                self._differs(self._stored(again.originator_id, again.originator_version), again, stored)
        self._differs(original, closing, stored)

    def _differs(self, original: StoredEvent | None, again: StoredEvent, stored: Sequence[StoredEvent]) -> None:
        problem = _difference(original, again, self.store)
        if problem is None:
            return
        self.report.difference = problem
        # A removed event has no position: name where its command ends instead.
        self.report.position = next(
            (p for s in (again, stored[-1])
             if (p := position_of(self.store, s.originator_id, s.originator_version)) is not None),
            None,
        )
        raise FirstDifference(problem)

    def _recorded(self, version: int) -> StoredEvent | None:
        """The stored campaign event at `version`, from the pages the history has read."""
        while self.ahead and self.ahead[0].originator_version < version:
            self.ahead.popleft()
        if self.ahead and self.ahead[0].originator_version == version:
            return self.ahead.popleft()
        return None

    def _stored(self, originator: UUID, version: int) -> StoredEvent | None:
        found = stored_events(self.store, originator, gt=version - 1, lte=version)
        return found[0] if found else None


def _difference(original: StoredEvent | None, again: StoredEvent, store: Store) -> str | None:
    name = again.topic.rsplit(".", 1)[-1]
    where = f"{name} v{again.originator_version} of {again.originator_id}"
    if original is None:
        return f"{where}: re-executed, but not in the store"
    if original.topic != again.topic:
        return f"{where}: the store has {original.topic.rsplit('.', 1)[-1]} there"
    if original.state != again.state:
        before = decoded(store, original).__dict__
        after = decoded(store, again).__dict__
        fields = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        return f"{where}: stored and re-executed payloads differ in {', '.join(fields)}"
    return None
