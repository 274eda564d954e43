"""What one process serving the group holds (the host): the store, the service, the projections, the accounts,
a lock per campaign. The composition root (bootstrap/) builds it; the server, the pages and the chats share it.

There is no process-wide lock. What needs one, and what does not:

- The aggregate cache hands out its objects without copying them, so two threads must never
  decide on the same campaign at once: every command, ruling and odds of a campaign is decided
  under `writing(campaign)`, one lock per campaign (by its name, which covers its revisions).
  Commands of different campaigns go on side by side; SQLite's single writer takes their
  transactions one by one, PostgreSQL side by side. Across processes the store's optimistic
  concurrency keeps a campaign consistent (a command decided on stale state is decided again).
- A post (posting.py) decides under the lock and lets it go before its rows are committed
  (`deciding`, `committed`; store/grouped.py): every post that arrives while the disk
  writes one COMMIT is stored in the next, and answered once stored. Everything else a route does
  under `writing(campaign)` waits for the campaign's posts in flight first, so it decides on
  the campaign as stored (or about to be, for certain) and stores what it decides itself.
- Reads are answered from the projections: documents in the store, read by any thread. Catching
  them up holds the reader's own lock (`Reader.catch_up`) for as long as that takes, never a write.
- Users, tokens and roles are read from the store itself (hosting/accounts.py), never from the cache.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..commands.service import Applied, Rollbook
from ..domain.revisions import REVISION_MARK
from ..projections.queries import Reader
from ..store import Store
from ..store.grouped import GroupedUnit
from ..store.unit_of_work import Overtaken, StoreUnit
from ..store.writer import Write, Writer
from .accounts import Accounts
from .answers import Answers
from .limits import RateLimit
from .said_ids import SaidIds
from .sign_ins import SignIns
from .standing import Standings


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
class Host:
    store: Store
    service: Rollbook
    reader: Reader
    accounts: Accounts
    answers: Answers
    said_ids: SaidIds
    rate_limit: RateLimit
    sign_ins: SignIns
    standings: Standings
    locks: CampaignLocks = field(default_factory=CampaignLocks)
    #: The posts' rows committed together (SQLite), and each campaign's posts in flight (by the lock's name).
    writer: Writer | None = None
    grouped: dict[str, GroupedUnit] = field(default_factory=dict)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.store.close()

    @contextmanager
    def writing(self, campaign: str) -> Iterator[None]:
        """Held while the campaign's cached aggregates are decided on: one command of a campaign at a
        time, on the campaign as stored (its posts in flight committed, or forgotten if they failed)."""
        with self.deciding(campaign):
            unit = self.grouped.get(_locked_name(campaign))
            if unit is not None:
                unit.settled()
            yield

    def deciding(self, campaign: str) -> Any:
        """Held while a post is decided: `writing` without waiting for the posts in flight (see `post`)."""
        return self.locks.held(_locked_name(campaign))

    def post(self, command: Any, *, precondition: Any = None) -> tuple[Applied, Write | None]:
        """Decide `command` (under `deciding` its campaign); what it did, and its write in flight, if
        the store commits posts together: the caller lets the lock go and waits for it (`committed`)."""
        assert command.campaign is not None, "the parser fills the campaign"
        if self.writer is None or type(self.service.unit) is not StoreUnit:  # a Discord post signs its own
            return self.service.execute(command, precondition=precondition), None
        name = _locked_name(command.campaign)
        unit = self.grouped.get(name) or self.grouped.setdefault(name, GroupedUnit(self.store, self.writer))
        service = copy.copy(self.service)
        service.unit = unit
        try:
            applied = service.execute(command, precondition=precondition)
        except Overtaken:  # a write it was decided on, or waited for before a snapshot, failed: applied alone
            return self.service.execute(command, precondition=precondition), None
        return applied, unit.take_write()

    def committed(self, applied: Applied, write: Write) -> bool:
        """Wait, without the campaign's lock, for a post's write: True once stored (`applied` given its
        position); False if it was not, and the post is to be applied again alone (`post_again`)."""
        write.done.wait()
        if write.failure is not None:
            return False
        applied.position = write.positions[-1] if write.positions else None
        return True

    def post_again(self, command: Any, *, precondition: Any = None) -> Applied:
        """Under `writing` its campaign: a post whose write failed, applied alone (the store's error,
        its claim stored by another request meanwhile: skipped, or stored this time)."""
        return self.service.execute(command, precondition=precondition)

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


def _locked_name(campaign: str) -> str:
    """The campaign a lock is named after: its revisions share it."""
    return campaign.partition(REVISION_MARK)[0]
