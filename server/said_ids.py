"""Ids a person can say: a command posted without an id of its own gets its poster's name and a counter, `anna-7`.

The id is decided where the post is stored, so no two posts get the same one, whether one server process
or several share the store. Handing out `anna-7` stores, in one transaction, a claim on the id (a
KeptAnswer under `id#anna-7`) and the id the post's Idempotency-Key was given (`said#KEY`). Of two
processes that pick `anna-7` at once the store keeps one claim and refuses the other, which picks again;
a key that comes back (a retry, the same post on another process) finds its id and is the same command.
('#' is in no key or id, so these never meet a ruling's kept answer.) Within a process the campaign's
lock (state.py) is held around all of it. A post refused by the rules leaves its number used: the key
keeps it for the next try.

Ids a poster gives keep working as ever; a number some command already has as its id is skipped.
"""

from __future__ import annotations

from typing import Any

from ..commands.service import ConcurrencyError, Rollbook
from ..domain.accounts import KeptAnswer
from ..store.failures import IntegrityError
from .accounts import Accounts

#: How many numbers one post tries while other processes take them first.
ATTEMPTS = 100


class SaidIds:
    def __init__(self, accounts: Accounts, service: Rollbook) -> None:
        self.accounts, self.service = accounts, service
        #: (campaign, poster) → the number after the last this process handed out: the next is likely free.
        self._next: dict[tuple[str, str], int] = {}

    def id_for(self, campaign: str, user: str, key: str) -> str:
        """The id of the command posted to `campaign` by `user` under the Idempotency-Key `key`."""
        for _ in range(ATTEMPTS):
            given = self._kept(campaign, f"said#{key}")
            if given is not None:
                return str(given.request["id"])
            number = self._free(campaign, user)
            said = f"{user}-{number}"
            try:
                self.accounts.app.save(
                    KeptAnswer(campaign=campaign, key=f"said#{key}", request={"id": said}, answer={}),
                    KeptAnswer(campaign=campaign, key=f"id#{said}", request={"key": key}, answer={}))
            except IntegrityError:  # another post took this number, or this key, a moment ago: look again
                continue
            self._next[(campaign, user)] = number + 1
            return said
        raise ConcurrencyError(f"gave up finding a free id for {user} after {ATTEMPTS} tries, each taken by "
                               "another post first; post again", field="id")

    def _kept(self, campaign: str, key: str) -> Any:
        return self.accounts.fresh(KeptAnswer.create_id(campaign, key))

    def _taken(self, campaign: str, user: str, number: int) -> bool:
        said = f"{user}-{number}"
        return (self._kept(campaign, f"id#{said}") is not None
                or self.service.is_recorded(self.service.key_for(campaign), said))

    def _free(self, campaign: str, user: str) -> int:
        """The first number from where the poster's numbers are likely to end on that no command has."""
        number = self._next.get((campaign, user)) or self._past_the_taken(campaign, user)
        while self._taken(campaign, user, number):
            number += 1
        return number

    def _past_the_taken(self, campaign: str, user: str) -> int:
        """Where the poster's numbers end, in a process that has handed out none yet: numbers are handed out
        in order, so a doubling search and then halving finds it in a few looks, not one per post."""
        low, high = 0, 1  # low is taken (0: nothing is), high is the first guess
        while self._taken(campaign, user, high):
            low, high = high, high * 2
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if self._taken(campaign, user, middle) else (low, middle)
        return high
