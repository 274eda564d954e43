"""What one server process holds: the store, the service, the projections, the accounts, one lock.

Every use of the store goes through `lock`: the aggregate cache hands out its objects
without copying them, so two threads must never decide on the same campaign at once. One
process is one writer; more throughput is more processes on PostgreSQL, which the store's
optimistic concurrency keeps consistent (a command decided on stale state is decided again).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from ..commands.service import Rollbook
from ..projections.narration.stored import summary_of
from ..projections.queries import Reader
from ..store import Store
from .accounts import Accounts
from .auth import RateLimit

#: What an answer shows of each roll (the full roll is in its event, and in GET /rolls).
ROLL_KEYS = ("id", "faces", "total", "outcome", "text")


def jsonable(data: Any) -> Any:
    """As the CLI's --json prints it: values JSON has no type for (times, ids) as text."""
    return json.loads(json.dumps(data, ensure_ascii=False, default=str))


class Answers:
    """A stored command's answer, rebuilt from what its transaction stored: the same every time it is asked."""

    def __init__(self, store: Store, service: Rollbook, reader: Reader) -> None:
        self.app, self.service, self.reader = store.app, service, reader

    def recorded(self, campaign: str, command_id: str) -> dict[str, Any] | None:
        """The command as recorded under this id in the campaign's current revision, if any."""
        key = self.service.key_for(campaign)
        if not self.service.is_recorded(key, command_id):
            return None
        self.reader.catch_up()  # only a repeated key pays for catching the projections up
        doc = self.reader.views.get(key, "command", command_id)
        assert doc is not None, "a recorded command is projected once caught up"
        return dict(self._applied_at(int(doc["position"])).command)

    def answer(self, campaign: str, command_id: str) -> dict[str, Any]:
        """The answer for a command stored earlier (a repeated key), found through the projections."""
        key = self.service.key_for(campaign)
        self.reader.catch_up()
        doc = self.reader.views.get(key, "command", command_id)
        assert doc is not None, "answered only for a command stored"
        return self.answer_at(campaign, key, command_id, int(doc["position"]))

    def answer_at(self, campaign: str, key: str, command_id: str, position: int) -> dict[str, Any]:
        """The answer of the command whose CommandApplied is at `position`, from the store alone."""
        applied = self._applied_at(position)
        # The campaign as this command left it (or later) names every aggregate its events touch.
        campaign_now = self.service.campaign(key)
        sheet = campaign_now.sheet()
        # One transaction: the claim, the command's events, then CommandApplied, at consecutive positions.
        start = position - len(applied.writes) - 1
        events = jsonable(list(self.reader.log(key, start=start, stop=position, doc=sheet)))
        rolls = [{k: e["data"]["roll"].get(k) for k in ROLL_KEYS} for e in events if e["type"] == "DiceRolled"]
        return {
            "command_id": command_id, "campaign": campaign, "revision_key": key, "seq": applied.seq,
            "position": position, "events": events, "rolls": rolls,
            "summary": summary_of(self.app, campaign_now.ruleset, key, command_id),
        }

    def _applied_at(self, position: int) -> Any:
        notification = self.app.recorder.select_notifications(position, 1)[0]
        return self.app.mapper.to_domain_event(notification)


@dataclass
class State:
    store: Store
    service: Rollbook
    reader: Reader
    accounts: Accounts
    answers: Answers
    rate_limit: RateLimit
    lock: threading.RLock

    @classmethod
    def open(cls, store_url: str, rate_limit: RateLimit) -> State:
        store = Store.open(store_url)
        service, reader = Rollbook(store), Reader(store)
        return cls(store=store, service=service, reader=reader, accounts=Accounts(store),
                   answers=Answers(store, service, reader), rate_limit=rate_limit, lock=threading.RLock())

    def close(self) -> None:
        self.store.close()

    def campaigns_of(self, user: str) -> list[tuple[Any, dict[str, Any]]]:
        """The user's memberships with each campaign's document (`GET /campaigns`, the home page)."""
        with self.lock:
            self.reader.catch_up()
            found = [(m, self.reader.views.get(m.campaign, "campaign", "")) for m in self.accounts.memberships(user)]
        return [(membership, doc) for membership, doc in found if doc is not None]
