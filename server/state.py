"""What one server process holds: the store, the service, the projections, the accounts, a lock per campaign.

There is no process-wide lock. What needs one, and what does not:

- The aggregate cache hands out its objects without copying them, so two threads must never
  decide on the same campaign at once: every command, ruling and odds of a campaign is decided
  under `writing(campaign)`, one lock per campaign (by its name, which covers its revisions).
  Commands of different campaigns go on side by side; SQLite's single writer takes their
  transactions one by one, PostgreSQL side by side. Across processes the store's optimistic
  concurrency keeps a campaign consistent (a command decided on stale state is decided again).
- Reads are answered from the projections: documents in the store, read by any thread. Catching
  them up holds the reader's own lock (`Reader.catch_up`) for as long as that takes, never a write.
- Users, tokens and roles are read from the store itself (accounts.py), never from the cache.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request

from ..commands.service import Rollbook
from ..domain.revisions import REVISION_MARK
from ..projections.queries import Reader
from ..store import Store
from .accounts import Accounts
from .answers import Answers, jsonable
from .auth import RateLimit, SignIns
from .said_ids import SaidIds

__all__ = ["CampaignLocks", "State", "jsonable"]


class CampaignLocks:
    """One re-entrant lock per campaign (a Discord post holds it around the post it makes)."""

    def __init__(self) -> None:
        self._locks: dict[str, threading.RLock] = {}
        self._guard = threading.Lock()

    @contextmanager
    def held(self, campaign: str) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(campaign, threading.RLock())
        with lock:
            yield


@dataclass
class State:
    store: Store
    service: Rollbook
    reader: Reader
    accounts: Accounts
    answers: Answers
    said_ids: SaidIds
    rate_limit: RateLimit
    sign_ins: SignIns
    locks: CampaignLocks = field(default_factory=CampaignLocks)

    @classmethod
    def open(cls, store_url: str, rate_limit: RateLimit) -> State:
        store = Store.open(store_url)
        service, reader = Rollbook(store), Reader(store)
        accounts = Accounts(store)
        return cls(store=store, service=service, reader=reader, accounts=accounts,
                   answers=Answers(store, service, reader), said_ids=SaidIds(accounts, service),
                   rate_limit=rate_limit, sign_ins=SignIns(accounts))

    def close(self) -> None:
        self.store.close()

    def writing(self, campaign: str) -> Any:
        """Held while the campaign's cached aggregates are decided on: one command of a campaign at a time."""
        return self.locks.held(campaign.partition(REVISION_MARK)[0])

    def caught_up(self) -> Reader:
        """The projections with every event stored so far."""
        self.reader.catch_up()
        return self.reader

    def current_key(self, campaign: str) -> str:
        """Where the campaign's commands go now (its current revision), as the projections have it."""
        doc = self.reader.views.get(campaign, "campaign", "")
        return str(doc["current_key"]) if doc is not None else campaign

    def campaigns_of(self, user: str) -> list[tuple[Any, dict[str, Any]]]:
        """The user's memberships with each campaign's document (`GET /campaigns`, the home page)."""
        reader = self.caught_up()
        found = [(m, reader.views.get(m.campaign, "campaign", "")) for m in self.accounts.memberships(user)]
        return [(membership, doc) for membership, doc in found if doc is not None]


async def state_of(request: Request) -> State:
    """The server's state, as a dependency (`CurrentState`): async, since it does no I/O and so needs no thread."""
    return request.app.state.rollbook


#: A route's parameter for the server's state (the store, its service, reader, accounts and limits).
CurrentState = Annotated[State, Depends(state_of)]
