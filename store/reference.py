"""The store port's reference: the library's public API alone (see `store/port.py`)."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent

Row = Sequence[Any]  # position, originator, version, topic, state

#: Notifications read per query where the reference scans the log.
SCAN_PAGE = 1000


class Pages:
    """Pages from `select_notifications`, skipped topics filtered out here."""

    def __init__(self, app: Application, skipped_topics: Collection[str]) -> None:
        self.recorder = app.recorder
        self.skipped = frozenset(skipped_topics)
        #: A row's event, decoded from `stored_event(row)` (or from a notification).
        self.to_domain_event = app.mapper.to_domain_event

    def read(self, start: int, limit: int) -> tuple[list[Row], int]:
        """The rows of interest after `start`, and the position they reach (`start` if none)."""
        notifications = self.recorder.select_notifications(start, limit, inclusive_of_start=False)
        if not notifications:
            return [], start
        return self.rows(notifications), int(notifications[-1].id)

    def rows(self, notifications: Sequence[Any]) -> list[Row]:
        skipped = self.skipped
        return [
            (n.id, n.originator_id, n.originator_version, n.topic, n.state)
            for n in notifications
            if n.topic not in skipped
        ]

    def originator_id(self, originator: Hashable) -> Any:
        """The aggregate id of a row's `originator` (a key that stays the same for one store)."""
        return originator

    def stored_event(self, row: Row) -> StoredEvent:
        """What the library's mapper decodes."""
        return StoredEvent(
            originator_id=self.originator_id(row[1]), originator_version=row[2], topic=row[3], state=row[4]
        )


class LibraryPort:
    """The reference: every answer from the library's public API (positions by scanning the log)."""

    def __init__(self, app: Application) -> None:
        self.app = app

    def pages(self, skipped_topics: Collection[str]) -> Pages:
        return Pages(self.app, skipped_topics)

    def version_at(self, originator_id: UUID, position: int) -> int | None:
        """The aggregate's highest version stored at or before `position`; None if it did not exist yet."""
        found = None
        for notification in self._scan(stop=position):
            if notification.originator_id == originator_id:
                found = notification.originator_version
        return found

    def position_of(self, originator_id: UUID, version: int) -> int | None:
        """Where the aggregate's event of `version` stands in the log; None if it is not stored."""
        for notification in self._scan(stop=None):
            if notification.originator_id == originator_id and notification.originator_version == version:
                return int(notification.id)
        return None

    def snapshot_version(self, originator_id: UUID, last: int) -> int | None:
        """The version of the aggregate's latest snapshot at or before version `last`; None if there is none
        (or the store takes no snapshots)."""
        snapshots = self.app.snapshots
        if snapshots is None:
            return None
        latest = snapshots.recorder.select_events(originator_id, desc=True, limit=1, lte=last)
        return latest[0].originator_version if latest else None

    def timestamp_transcodings(self) -> dict[str, Any] | None:
        """The transcodings by type name, if a stored event that is plain JSON apart from its
        timestamp decodes to `json.loads` of it with the timestamp decoded alone; None if only
        the mapper can say (this reference: always the mapper)."""
        return None

    def _scan(self, stop: int | None) -> Any:
        recorder = self.app.recorder
        start = 0
        while True:
            page = recorder.select_notifications(start, SCAN_PAGE, stop=stop, inclusive_of_start=False)
            yield from page
            if len(page) < SCAN_PAGE:
                return
            start = page[-1].id
