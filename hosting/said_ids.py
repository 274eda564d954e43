"""Ids a person can say: a command posted without an id of its own gets its poster's name and a counter, `anna-7`.

The id is decided where the post is stored, and stored with it: the command's transaction keeps, beside its
claim on its id, the id its Idempotency-Key was given (a KeptAnswer under `said#KEY`; '#' is in no key, so it
never meets a ruling's kept answer). So

- a refused post stores nothing, and its number goes to the next post;
- two server processes on one store that pick `anna-7` at once cannot both store it: the command's claim on
  its id is unique, the second transaction is refused, and that post takes the next number;
- a key that comes back (a lost answer, the same post on another process) finds its id and is the same command.

Within a process the campaign's lock (host.py) is held around all of it. Ids a poster gives keep working as
ever; a number some command of any revision already has as its id is passed over. A chat's post (Discord,
Telegram) is one too: its request's id is its key, and what the chat delivered is stored in the same transaction.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from ..commands.service import Rollbook
from ..domain.accounts import KeptAnswer
from ..domain.revisions import revision_key
from ..store.failures import IntegrityError
from ..store.reads import StoredEvent
from ..store.unit_of_work import StoringAlso
from .accounts import Accounts

#: How many numbers one post tries while other processes store them first.
ATTEMPTS = 100


class KeyTaken(Exception):
    """Another process stored a command under the same key a moment ago: this post repeats it."""


class SaidIds:
    def __init__(self, accounts: Accounts, service: Rollbook) -> None:
        self.accounts, self.service = accounts, service
        #: (campaign, poster) → the number after the last this process stored: the next is likely free.
        self._next: dict[tuple[str, str], int] = {}

    def kept(self, campaign: str, key: str) -> str | None:
        """The id the key's command was stored under, if it was."""
        kept = self.accounts.fresh(KeptAnswer.create_id(campaign, _said(key)))
        return None if kept is None else str(kept.request["id"])

    def next_id(self, campaign: str, user: str) -> str:
        """The poster's next id no command has: from where his numbers are likely to end on."""
        number = self._next.get((campaign, user)) or self._past_the_taken(campaign, user)
        while self.taken(campaign, f"{user}-{number}"):
            number += 1
        return f"{user}-{number}"

    def stored(self, campaign: str, user: str, said: str) -> None:
        """`said` is stored: the poster's next number is the one after it."""
        self._next[(campaign, user)] = int(said.rpartition("-")[2]) + 1

    def taken(self, campaign: str, said: str) -> bool:
        """Whether a command of any revision of the campaign has the id (an undone one keeps it)."""
        root = self.service.campaign(campaign)
        revisions = root.revision if root is not None else 1
        return any(self.service.is_recorded(revision_key(campaign, n), said) for n in range(1, revisions + 1))

    def storing(self, campaign: str, key: str, said: str, also: Sequence[Any] = ()) -> Rollbook:
        """The service, its command's transaction also keeping the id the key was given, and `also` (what a chat
        delivered: new aggregates of one event)."""
        service = copy.copy(self.service)
        service.unit = _KeepingTheKey(self.service.unit, KeptAnswer(
            campaign=campaign, key=_said(key), request={"id": said}, answer={}), *also,
            kept_now=lambda: self.kept(campaign, key))
        return service

    def _past_the_taken(self, campaign: str, user: str) -> int:
        """Where the poster's numbers end, in a process that has stored none yet: they are handed out in order,
        so a doubling search and then halving finds it in a few looks, not one per post."""
        low, high = 0, 1  # low is taken (0: nothing is), high the first guess

        def taken(number: int) -> bool:
            return self.taken(campaign, f"{user}-{number}")

        while taken(high):
            low, high = high, high * 2
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if taken(middle) else (low, middle)
        return high


def _said(key: str) -> str:
    return f"said#{key}"


class _KeepingTheKey(StoringAlso):
    """Stores the key's id with the command; a key another process stored meanwhile is a repeat, not a conflict
    to decide again on (it would be refused again on every try)."""

    def __init__(self, unit: Any, kept: KeptAnswer, *also: Any, kept_now: Any) -> None:
        super().__init__(unit, kept, *also)
        self.kept_now = kept_now

    def keep(self, events: Sequence[Any], stored: Sequence[StoredEvent], aggregates: Iterable[Any]) -> int | None:
        try:
            return super().keep(events, stored, aggregates)
        except IntegrityError:
            if self.kept_now() is not None:
                raise KeyTaken from None
            raise
