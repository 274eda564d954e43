"""The outbox's ledger: how far each outside target (a Discord thread, a webhook) has been sent each campaign.

What is to be sent is already in the store, written in each command's own transaction: its
`CommandApplied` (and the checkpoint a chapter's end signs) is the outbox's entry, so a command
that is stored is a message that will be sent, and one rolled back is none, on every store and
every write path (one command, a file's pipelined commits, a group commit, an import). This
ledger only says what has been done with those entries, per target and campaign (a *lane*):

- `cursor`: the last position sent (or passed over: another revision's copies, a command the
  interaction itself answered); the next message is the first entry after it;
- `sending`: set just before a message is sent and cleared once it is recorded as sent, so a
  process that stops in between is known, when the lane is taken up again, to have perhaps sent
  it: it is sent again and counted in `resent` (the only way a message can reach a target twice);
- `attempts`, `next_at`, `last_error`: the current message's failures and when to try again;
- `owner`, `lease_until`: which process delivers the lane now (several `rollbook serve` on one
  PostgreSQL store deliver each lane once).

`marks` note how a Discord-posted command was answered (inline, or deferred and followed up),
which the mirror needs to post it as the interaction's answer and not twice.

The ledger lives in the store's own database (a table beside the events), in memory for `memory://`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, fields, replace
from typing import Any, Protocol

from eventsourcing.application import Application

from .app import EventStore, application
from .own_tables import OwnTables
from .schema_lock import creating_tables


@dataclass(frozen=True)
class Lane:
    target: str
    campaign: str
    cursor: int
    sending: int | None = None
    delivered: int = 0
    resent: int = 0
    dropped: int = 0
    attempts: int = 0
    next_at: float = 0.0
    last_error: str | None = None
    last_error_at: str | None = None
    owner: str | None = None
    lease_until: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("owner", "lease_until")}


COLUMNS = [f.name for f in fields(Lane)]


class Outbox(Protocol):
    def lane(self, target: str, campaign: str, start: int) -> Lane:
        """The lane, made with its cursor at `start` if it is new."""
        ...

    def lanes(self) -> list[Lane]: ...

    def claim(self, lane: Lane, owner: str, now: float, lease: float) -> bool:
        """Take (or keep) the lane for `owner` until `now + lease`, unless another owner holds it."""
        ...

    def update(self, lane: Lane, **changes: Any) -> Lane: ...

    def mark(self, campaign: str, command_id: str, how: str) -> None: ...

    def mark_of(self, campaign: str, command_id: str) -> str | None: ...


class MemoryOutbox:
    def __init__(self) -> None:
        self._lanes: dict[tuple[str, str], Lane] = {}
        self._marks: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def lane(self, target: str, campaign: str, start: int) -> Lane:
        with self._lock:
            return self._lanes.setdefault((target, campaign), Lane(target, campaign, start))

    def lanes(self) -> list[Lane]:
        with self._lock:
            return sorted(self._lanes.values(), key=lambda lane: (lane.campaign, lane.target))

    def claim(self, lane: Lane, owner: str, now: float, lease: float) -> bool:
        with self._lock:
            held = self._lanes[(lane.target, lane.campaign)]
            if held.owner not in (None, owner) and held.lease_until > now:
                return False
            self._lanes[(lane.target, lane.campaign)] = replace(held, owner=owner, lease_until=now + lease)
            return True

    def update(self, lane: Lane, **changes: Any) -> Lane:
        with self._lock:
            changed = replace(self._lanes[(lane.target, lane.campaign)], **changes)
            self._lanes[(lane.target, lane.campaign)] = changed
            return changed

    def mark(self, campaign: str, command_id: str, how: str) -> None:
        with self._lock:
            self._marks[(campaign, command_id)] = how

    def mark_of(self, campaign: str, command_id: str) -> str | None:
        with self._lock:
            return self._marks.get((campaign, command_id))


class SQLOutbox(OwnTables):
    """The ledger as two tables in the application's own SQLite or PostgreSQL database."""

    def __init__(self, app: Application, *, postgres: bool) -> None:
        super().__init__(app, postgres=postgres)
        self.lanes_table = self.table("rollbook_outbox")
        self.marks_table = self.table("rollbook_outbox_marks")
        with creating_tables(self.datastore), self.datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {self.lanes_table} (target TEXT NOT NULL, campaign TEXT NOT NULL, "
                "cursor BIGINT NOT NULL, sending BIGINT, delivered BIGINT NOT NULL, resent BIGINT NOT NULL, "
                "dropped BIGINT NOT NULL, attempts BIGINT NOT NULL, next_at DOUBLE PRECISION NOT NULL, "
                "last_error TEXT, last_error_at TEXT, owner TEXT, lease_until DOUBLE PRECISION NOT NULL, "
                "PRIMARY KEY (target, campaign))"
            )
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {self.marks_table} (campaign TEXT NOT NULL, command_id TEXT NOT NULL, "
                "how TEXT NOT NULL, PRIMARY KEY (campaign, command_id))"
            )

    def _select(self, where: str = "", params: tuple[Any, ...] = ()) -> list[Lane]:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(f"SELECT {', '.join(COLUMNS)} FROM {self.lanes_table} {where}"), params)
            return [Lane(**{name: row[name] for name in COLUMNS}) for row in cursor.fetchall()]

    def lane(self, target: str, campaign: str, start: int) -> Lane:
        with self.datastore.transaction(commit=True) as cursor:
            fresh = Lane(target, campaign, start)
            cursor.execute(self._sql(
                f"INSERT INTO {self.lanes_table} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))}) "
                "ON CONFLICT (target, campaign) DO NOTHING"), tuple(getattr(fresh, name) for name in COLUMNS))
        return self._select("WHERE target = ? AND campaign = ?", (target, campaign))[0]

    def lanes(self) -> list[Lane]:
        return self._select("ORDER BY campaign, target")

    def claim(self, lane: Lane, owner: str, now: float, lease: float) -> bool:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._sql(
                f"UPDATE {self.lanes_table} SET owner = ?, lease_until = ? WHERE target = ? AND campaign = ? "
                "AND (owner IS NULL OR owner = ? OR lease_until <= ?) RETURNING owner"),
                (owner, now + lease, lane.target, lane.campaign, owner, now))
            return bool(cursor.fetchall())

    def update(self, lane: Lane, **changes: Any) -> Lane:
        assignments = ", ".join(f"{name} = ?" for name in changes)
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._sql(f"UPDATE {self.lanes_table} SET {assignments} WHERE target = ? AND campaign = ?"),
                           (*changes.values(), lane.target, lane.campaign))
        return replace(lane, **changes)

    def mark(self, campaign: str, command_id: str, how: str) -> None:
        with self.datastore.transaction(commit=True) as cursor:
            cursor.execute(self._sql(
                f"INSERT INTO {self.marks_table} (campaign, command_id, how) VALUES (?, ?, ?) "
                "ON CONFLICT (campaign, command_id) DO UPDATE SET how = excluded.how"), (campaign, command_id, how))

    def mark_of(self, campaign: str, command_id: str) -> str | None:
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(f"SELECT how FROM {self.marks_table} WHERE campaign = ? AND command_id = ?"),
                           (campaign, command_id))
            rows = cursor.fetchall()
        return str(rows[0]["how"]) if rows else None


def outbox_for(store: EventStore, kind: str) -> Outbox:
    """The store's ledger; in memory, one per application, shared by everything in the process that uses it."""
    app = application(store)
    if kind == "memory":
        kept = getattr(app, "_rollbook_outbox", None)
        if kept is None:
            kept = MemoryOutbox()
            app._rollbook_outbox = kept  # type: ignore[attr-defined]
        return kept
    return SQLOutbox(app, postgres=kind != "sqlite")
