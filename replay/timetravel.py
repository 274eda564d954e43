"""Looking at a campaign as it was: any revision, at any point of its history.

A point (`--at`) is one of:
- an event position: `1234`;
- a command id: the state right after that command;
- an ISO-8601 time: right after the last command that happened (`at`) by then;
- a boundary `LABEL:N` in the ruleset's own words (`chapter:3`, `issue:2`, `scene:12`,
  `story:1`, `battle:4`, `move:7`, `page:9`, `round:2`, `turn:5`): right after that
  chapter (scene, …) ended, or its latest point while it is still open; `LABEL:N:start`
  for right after it began.

Sheets at a point are their aggregates at the version stored by then, which the store
rebuilds from the nearest snapshot: looking into a long history never folds all of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..domain.errors import UnknownName, Word
from ..domain.ids import campaign_id, member_id
from ..domain.revisions import REVISION_MARK, revision_key, revision_of, spoken
from ..domain.sheet_layout import N_, Phrase
from ..projections.campaign_logs import roll_text
from ..projections.queries import Reader
from ..store.port import position_of, version_at

#: Beyond any position a store reaches: the version stored by then is the latest.
LAST_POSSIBLE_POSITION = 2**62


def key_of(reader: Reader, campaign: str, revision: int | None) -> str:
    """The stored key of a campaign's revision (its current one by default)."""
    if REVISION_MARK in campaign:
        raise UnknownName("name the campaign ({campaign!r}) and use --revision", field="campaign",
                          campaign=campaign.split(REVISION_MARK)[0])
    root = reader.campaign(campaign)
    if revision is None:
        return str(root["current_key"])
    if not 1 <= revision <= root["revision"]:
        raise UnknownName("{campaign} has revisions 1..{last}, not {revision}", field="revision", campaign=campaign,
                          last=root["revision"], revision=revision)
    return revision_key(campaign, revision)


def as_revision(reader: Reader, key: str, doc: dict[str, Any]) -> dict[str, Any]:
    """A revision's campaign document names the campaign as players know it (`campaign`), which
    revision it is (`revision`), and which is current.

    The stored aggregate of revision N counts from 1 again, and the first revision's counts the
    revisions adopted, so neither number alone is the one a reader of revision N wants.
    """
    root, _, number = key.partition(REVISION_MARK)
    current = reader.campaign(root)["revision"] if number else doc["revision"]
    return {**doc, "campaign": root, "revision": int(number) if number else 1, "current_revision": int(current)}


@dataclass(frozen=True)
class Point:
    """Where a point resolved to; `note` is what the reader is told besides (a unit still open)."""

    position: int
    note: str | None = None


def resolve_point(reader: Reader, key: str, point: str) -> int:
    """The event position a point names in one revision: what every verb that takes one uses."""
    return resolve(reader, key, point).position


def resolve(reader: Reader, key: str, point: str) -> Point:
    """A point of one revision's history, or UnknownName naming the point and what exists."""
    point = point.strip()
    first, last = span_of(reader, key)
    if point.isdigit():
        position = int(point)
        if not first <= position <= last:
            raise _outside(reader, key, position, first, last)
        return Point(position)
    parts = point.split(":")
    if len(parts) in (2, 3) and parts[1].isdigit() and not _looks_like_time(point):
        return _boundary(reader, key, point, parts, last)
    command = reader.views.get(key, "command", point)
    if command is not None:
        return Point(int(command["position"]))
    if _looks_like_time(point):
        try:
            moment = datetime.fromisoformat(point.replace("Z", "+00:00"))
        except ValueError:
            raise UnknownName("{point!r} is not an ISO-8601 time (e.g. 2026-03-02T19:30:00Z)", field="at",
                              point=point) from None
        if moment.tzinfo is None:
            raise UnknownName("the time {point!r} needs a time zone (e.g. Z or +00:00)", field="at", point=point)
        before = [c for c in reader.views.all(key, "command") if datetime.fromisoformat(c["at"]) <= moment]
        if not before:
            raise UnknownName("{campaign} had not begun by {point}", field="at", campaign=spoken(key), point=point)
        return Point(int(max(before, key=lambda c: c["position"])["position"]))
    raise UnknownName(
        "{point!r} is not a position, a command id of {campaign}, an ISO time or a boundary like chapter:3",
        field="at", point=point, campaign=spoken(key),
    )


def span_of(reader: Reader, key: str) -> tuple[int, int]:
    """The first and last event positions of a revision: its campaign's creation, its last command."""
    store, aggregate = reader.store, campaign_id(key)
    latest = version_at(store, aggregate, LAST_POSSIBLE_POSITION)
    first = position_of(store, aggregate, 1) if latest else None
    last = position_of(store, aggregate, latest) if latest else None
    if first is None or last is None:
        raise UnknownName("{campaign} has no events", field="campaign", campaign=spoken(key))
    return first, last


def _outside(reader: Reader, key: str, position: int, first: int, last: int) -> UnknownName:
    """Why a position is refused: where this revision's positions run, and which revision holds it."""
    root = key.partition(REVISION_MARK)[0]
    holders = []
    for number in range(1, int(reader.campaign(root)["revision"]) + 1):
        other = revision_key(root, number)
        if other != key:
            other_first, other_last = span_of(reader, other)
            if other_first <= position <= other_last:
                holders.append(number)
    said = {"field": "at", "position": position, "revision": revision_of(key), "campaign": root, "first": first,
            "last": last}
    if holders:
        return UnknownName("position {position} is not in revision {revision} of {campaign} (its positions run from "
                           "{first} to {last}): it is in revision {holder} of {campaign}, read it with --revision "
                           "{holder}", holder=holders[-1], **said)
    return UnknownName("position {position} is not in revision {revision} of {campaign} (its positions run from "
                       "{first} to {last})", **said)


def _boundary(reader: Reader, key: str, point: str, parts: list[str], last: int) -> Point:
    label, number = parts[0], int(parts[1])
    if len(parts) == 3 and parts[2] != "start":
        raise UnknownName("{point!r}: a boundary is LABEL:N or LABEL:N:start, e.g. chapter:3:start", field="at",
                          point=point)
    entries = reader.views.all(key, "timeline")
    for entry in entries:
        if entry["label"] == label and entry["number"] == number:
            if len(parts) == 3:
                return Point(_end_of_command(reader, key, int(entry["start"])))
            if entry["end"] is None:
                return Point(last, Phrase(N_("{label} {number} is still open: showing its latest point, now (position "
                                             "{position})"), label=Phrase(label), number=number, position=last))
            return Point(_end_of_command(reader, key, int(entry["end"])))
    numbers = [e["number"] for e in entries if e["label"] == label]
    labels = ", ".join(sorted({e["label"] for e in entries}))
    asked = {"field": "at", "label": Word(label), "number": number, "campaign": spoken(key)}
    if len(numbers) > 1:
        raise UnknownName("no {label} {number} in the timeline of {campaign} ({label} {first} to {last})",
                          first=min(numbers), last=max(numbers), **asked)
    if numbers:
        raise UnknownName("no {label} {number} in the timeline of {campaign} (only {label} {only})",
                          only=numbers[0], **asked)
    if labels:
        raise UnknownName("no {label} {number} in the timeline of {campaign} (it has {labels})", labels=labels,
                          **asked)
    raise UnknownName("no {label} {number} in the timeline of {campaign} (it has no boundary yet)", **asked)


def _end_of_command(reader: Reader, key: str, position: int) -> int:
    """A boundary is crossed by a command; the state "right after" it is after that whole command."""
    ends = [c["position"] for c in reader.views.all(key, "command") if c["position"] >= position]
    return int(min(ends)) if ends else position


def _looks_like_time(text: str) -> bool:
    return len(text) >= 10 and text[4:5] == "-" and text[7:8] == "-"


class PastView:
    """The read verbs' answers for one revision at one position."""

    def __init__(self, reader: Reader, key: str, position: int, note: str | None = None) -> None:
        self.reader = reader
        self.key = key
        self.position = position
        #: What the reader is told about the point besides (a unit still open shows its latest point).
        self.note = note
        self.store = reader.store
        self._campaign: Any = None

    def _aggregate(self, aggregate_id: Any) -> Any:
        version = version_at(self.store, aggregate_id, self.position)
        if version is None:
            return None
        return self.store.get(aggregate_id, version)

    def campaign(self) -> Any:
        """The campaign at the position, rebuilt once per view (every sheet and limit asks for it)."""
        if self._campaign is None:
            self._campaign = self._aggregate(campaign_id(self.key))
            if self._campaign is None:
                raise UnknownName("{campaign} did not exist yet at position {position}", field="at",
                                  campaign=spoken(self.key), position=self.position)
        return self._campaign

    def campaign_doc(self) -> dict[str, Any]:
        return as_revision(self.reader, self.key, dict(self.campaign().sheet()))

    def sheet(self, name: str) -> tuple[str, dict[str, Any]]:
        entry = self.campaign().roster.get(name)
        found = self._aggregate(member_id(self.key, entry["kind"], name)) if entry else None
        if found is None:
            raise UnknownName("no {name!r} in {campaign} at position {position}", field="name", name=name,
                              campaign=spoken(self.key), position=self.position)
        return found.kind, found.sheet()

    def sheets(self) -> list[tuple[str, dict[str, Any]]]:
        return [self.sheet(name) for name in self.campaign().roster]

    def limits(self) -> list[dict[str, Any]]:
        ledger = self.campaign().ledger()
        return self.reader.limit_rows(self.campaign_doc()["ruleset"], ledger)

    def timeline(self) -> list[dict[str, Any]]:
        entries = []
        for entry in self.reader.views.all(self.key, "timeline"):
            if entry["start"] > self.position:
                continue
            if entry["end"] is not None and entry["end"] > self.position:
                entry = {**entry, "end": None, "ended_at": None}
            entries.append(entry)
        return entries

    def rolls(self) -> list[dict[str, Any]]:
        rolls = []
        for roll in self.reader.views.all(self.key, "roll"):
            if roll["position"] > self.position:
                continue
            changes = [c for c in roll["changes"] if c["position"] <= self.position]
            original = roll["original"]
            rolls.append({
                **roll,
                "changes": changes,
                "modifiers": original["modifiers"] + [c["modifier"] for c in changes if c.get("modifier")],
                "total": changes[-1]["total"] if changes else original["total"],
                "outcome": changes[-1]["outcome"] if changes else original["outcome"],
                "text": roll_text(original.get("text") or roll["text"], changes),
            })
        return rolls

    def log(self) -> Any:
        return self.reader.log(self.key, stop=self.position)

    def struck(self) -> list[dict[str, Any]]:
        return struck_before(self.reader, self.key)


class PresentView:
    """The read verbs' answers for one revision as it stands now."""

    def __init__(self, reader: Reader, key: str) -> None:
        self.reader = reader
        self.key = key
        self.note: str | None = None

    def campaign_doc(self) -> dict[str, Any]:
        return as_revision(self.reader, self.key, self.reader.campaign(self.key))

    def sheet(self, name: str) -> tuple[str, dict[str, Any]]:
        return self.reader.sheet(self.key, name)

    def sheets(self) -> list[tuple[str, dict[str, Any]]]:
        return self.reader.sheets(self.key)

    def limits(self) -> list[dict[str, Any]]:
        return self.reader.limits(self.key)

    def timeline(self) -> list[dict[str, Any]]:
        return self.reader.views.all(self.key, "timeline")

    def rolls(self) -> list[dict[str, Any]]:
        return self.reader.rolls(self.key)

    def log(self) -> Any:
        return self.reader.log(self.key)

    def struck(self) -> list[dict[str, Any]]:
        return struck_before(self.reader, self.key)


def struck_before(reader: Reader, key: str) -> list[dict[str, Any]]:
    """The rolls the rulings that made revision `key` (and those before it) struck (replay/struck.py)."""
    from .revisions import revisions
    from .struck import struck_rolls

    root = key.split(REVISION_MARK, 1)[0]
    return struck_rolls(revisions(reader.store, root), lambda number: reader.rolls(revision_key(root, number)),
                        revision_of(key))


def view_for(reader: Reader, campaign: str, *, revision: int | None = None, at: str | None = None) -> PresentView | PastView:
    """What a read verb looks at: the campaign's revision (current by default), now or at a point."""
    key = key_of(reader, campaign, revision)
    if at is None:
        return PresentView(reader, key)
    point = resolve(reader, key, at)
    return PastView(reader, key, point.position, point.note)
