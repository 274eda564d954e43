"""A post's answer: its id and status, events, rolls, line in words and position, the same whenever it is asked;
every key `rollbook post --json` prints is in it (tests/server/test_answer_shape.py).

A command just applied is answered from what its transaction stored, held in memory: the
very bytes the store took, decoded again, at the positions the store gave them. A repeated
key (the first reply was lost, or another process stored it) is answered by reading those
same rows back from the store. Both go through `_answer`, so the two are the same byte for
byte, as the idempotency contract promises.
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields, is_dataclass
from collections.abc import Sequence
from typing import Any

from ..commands.service import Applied, Rollbook
from ..domain.campaign import Campaign
from ..projections.narration import Happening, summarize
from ..projections.narration.stored import event_fields, whose
from ..projections.queries import BOOKKEEPING, Reader, event_name
from ..store import Store
from ..store.reads import decoded, stored_notifications

#: What an answer shows of each roll (the full roll is in its event, and in GET /rolls).
ROLL_KEYS = ("id", "faces", "total", "outcome", "text")


def jsonable(data: Any) -> Any:
    """As the CLI's --json prints it: values JSON has no type for (times, ids) as text."""
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))


def own_fields(event: Any) -> dict[str, Any]:
    """`event_payload(event)` uncopied: the event's own fields, as they are (for JSON to encode at once)."""
    return {field.name: getattr(event, field.name) for field in fields(event) if field.name not in BOOKKEEPING}


def _as_jsonable(value: Any) -> Any:
    """What JSON encodes for a value it has no type for, as `jsonable(event_payload(...))` did: a dataclass
    (which `event_payload` made a dict) as its fields, anything else (times, ids) as text."""
    return asdict(value) if is_dataclass(value) and not isinstance(value, type) else str(value)


class Answers:
    def __init__(self, store: Store, service: Rollbook, reader: Reader) -> None:
        self.store, self.service, self.reader = store, service, reader

    def recorded(self, campaign: str, command_id: str) -> dict[str, Any] | None:
        """The command as recorded under this id in the campaign's current revision, if any."""
        key = self.service.key_for(campaign)
        if not self.service.is_recorded(key, command_id):
            return None
        position = self._position_of(key, command_id)
        return dict(decoded(self.store, stored_notifications(self.store, position, 1)[0]).command)

    def answer(self, campaign: str, command_id: str) -> dict[str, Any]:
        """The answer for a command stored earlier (a repeated key), read back from the store."""
        key = self.service.key_for(campaign)
        position = self._position_of(key, command_id)
        applied = decoded(self.store, stored_notifications(self.store, position, 1)[0])
        # One transaction: the claim, the command's events, then CommandApplied, at consecutive positions.
        first = position - len(applied.writes)
        rows = stored_notifications(self.store, first, len(applied.writes) + 1, stop=position)
        return self._answer(campaign, key, command_id, [(row.id, row) for row in rows])

    def decided(self, campaign: str, command_id: str, applied: Applied) -> dict[str, Any]:
        """The answer for a command this process has just stored, from what `applied` holds: no read of the store."""
        assert applied.position is not None, "a command stored in the store has a position"
        stored = applied.stored
        first = applied.position - len(stored) + 1  # one transaction's rows take consecutive positions
        return self._answer(campaign, self.service.key_for(campaign), command_id,
                            [(first + offset, row) for offset, row in enumerate(stored)])

    def _answer(self, campaign: str, key: str, command_id: str, rows: Sequence[tuple[int, Any]]) -> dict[str, Any]:
        """The answer from the rows one command's transaction stored (the claim first, CommandApplied last)."""
        # The campaign as this command left it (or later) names every aggregate its events touch.
        campaign_now: Campaign = self.service.campaign(key)
        names = self.reader.aggregate_names(key, campaign_now.sheet())
        read = [(position, row, decoded(self.store, row)) for position, row in rows]
        record = read[-1][2]
        # One encoding copies the events' fields: `event_payload`'s deep copy of them would be a second.
        events = json.loads(json.dumps([
            {"position": position, "aggregate": names[row.originator_id], "version": row.originator_version,
             "type": event_name(event), "at": event.timestamp.isoformat(), "data": own_fields(event)}
            for position, row, event in read if row.originator_id in names
        ], ensure_ascii=False, default=_as_jsonable))
        rolls = [{k: e["data"]["roll"].get(k) for k in ROLL_KEYS} for e in events if e["type"] == "DiceRolled"]
        # `post --json`'s keys first (`id`, `status`, ...): a stored command's answer is one applied (a repeated
        # key says so in its Idempotent-Replayed header, the body staying the same byte for byte).
        return {
            "id": command_id, "status": "applied",
            "command_id": command_id, "campaign": campaign, "revision_key": key, "seq": record.seq,
            "position": read[-1][0], "events": events, "rolls": rolls,
            "summary": summarize(campaign_now.ruleset, _happenings(campaign_now, read)),
        }

    def _position_of(self, key: str, command_id: str) -> int:
        """Where the command's CommandApplied is, found through the projections (caught up first)."""
        self.reader.catch_up()
        doc = self.reader.views.get(key, "command", command_id)
        assert doc is not None, "a recorded command is projected once caught up"
        return int(doc["position"])


def _happenings(campaign: Campaign, read: Sequence[tuple[int, Any, Any]]) -> list[Happening]:
    """The command's events as its line in words reads them (projections/narration/stored.py)."""
    names = whose(campaign)
    *writes, (_, _, record) = read
    return [*(Happening(names.get(row.originator_id.hex, "someone"), event_name(event), event_fields(event))
              for _, row, event in writes),
            Happening("campaign", "CommandApplied", event_fields(record))]
