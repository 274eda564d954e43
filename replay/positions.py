"""Event positions of an aggregate's versions, on each backend.

The library looks aggregates up by version, not by position in the notification log;
time travel needs both directions: "which version of Anna existed at position P" and
"where does version V stand". Each backend answers with one indexed query.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.application import Application


def _sqlite(app: Application, statement: str, params: tuple[Any, ...]) -> Any:
    with app.recorder.datastore.transaction(commit=False) as cursor:  # type: ignore[attr-defined]
        cursor.execute(statement, params)
        row = cursor.fetchone()
        return row[0] if row else None


def _postgres(app: Application, statement: str, params: tuple[Any, ...]) -> Any:
    datastore = app.recorder.datastore  # type: ignore[attr-defined]
    table = f'"{datastore.schema}".{app.recorder.events_table_name}'  # type: ignore[attr-defined]
    with datastore.transaction(commit=False) as cursor:
        cursor.execute(statement.replace("{table}", table), params)
        row = cursor.fetchone()
        return next(iter(row.values())) if row else None


def version_at(app: Application, originator_id: UUID, position: int) -> int | None:
    """The aggregate's highest version stored at or before `position`; None if it did not exist yet."""
    kind = type(app.recorder).__module__
    if kind.endswith("sqlite"):
        return _sqlite(
            app,
            "SELECT MAX(originator_version) FROM stored_events WHERE originator_id = ? AND rowid <= ?",
            (originator_id.hex, position),
        )
    if kind.endswith("postgres"):
        return _postgres(
            app,
            "SELECT MAX(originator_version) FROM {table} WHERE originator_id = %s AND notification_id <= %s",
            (originator_id, position),
        )
    recorder: Any = app.recorder
    versions = recorder._stored_events_index.get(str(originator_id), {})
    # POPO positions are list indexes + 1, in version order for one aggregate.
    found = [v for v, index in versions.items() if index + 1 <= position]
    return max(found) if found else None


def position_of(app: Application, originator_id: UUID, version: int) -> int | None:
    kind = type(app.recorder).__module__
    if kind.endswith("sqlite"):
        return _sqlite(
            app,
            "SELECT rowid FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (originator_id.hex, version),
        )
    if kind.endswith("postgres"):
        return _postgres(
            app,
            "SELECT notification_id FROM {table} WHERE originator_id = %s AND originator_version = %s",
            (originator_id, version),
        )
    recorder: Any = app.recorder
    index = recorder._stored_events_index.get(str(originator_id), {}).get(version)
    return None if index is None else index + 1
