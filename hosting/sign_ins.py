"""Who a token signs in, kept between requests: the server's, the pages' and the chats' sign-ins share it."""

from __future__ import annotations

import threading
from typing import Generic, TypeVar

from ..domain.accounts import User
from .accounts import Accounts, token_hash

#: Tokens whose user is kept between requests (beyond, the oldest is read afresh next time).
KEPT_SIGN_INS = 10_000
#: What a `Kept` keeps.
V = TypeVar("V")


class Kept(Generic[V]):
    """At most `size` values by key, safe across threads; past it the one kept longest goes first (a busy
    server's keys stay)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: dict[str, V] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> V | None:
        return self._values.get(key)

    def keep(self, key: str, value: V | None) -> None:
        """Keep `value` under `key`; None forgets it."""
        with self._lock:
            if value is None:
                self._values.pop(key, None)
                return
            if len(self._values) >= self.size:
                self._values.pop(next(iter(self._values)))
            self._values[key] = value


class SignIns:
    """Who each token signs in, kept per token: a request with a token seen before costs one indexed read of
    its user's events (none since: the same user, the same token) instead of reading and folding the
    credential and the user. A token replaced or revoked, by any process, is an event of its user, so
    it is refused at the very next request everywhere."""

    def __init__(self, accounts: Accounts, *, size: int = KEPT_SIGN_INS) -> None:
        self.accounts = accounts
        self._users: Kept[User] = Kept(size)

    def user(self, token: str) -> str | None:
        digest = token_hash(token)
        user = self._users.get(digest)
        if user is None or self.accounts.changed_since(user):
            user = self.accounts.token_user(digest)
            self._users.keep(digest, user)
        return user.name if user is not None else None

    def kept(self, token: str) -> User | None:
        """The user this token signed in when last read, not read again: the caller checks he has no event since
        (standing.py does, in the read it makes anyway)."""
        return self._users.get(token_hash(token))
