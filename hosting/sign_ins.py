"""Who a token signs in, kept between requests: the server's, the pages' and the chats' sign-ins share it."""

from __future__ import annotations

import threading

from ..domain.accounts import User
from .accounts import Accounts, token_hash

#: Tokens whose user is kept between requests (beyond, the oldest is read afresh next time).
KEPT_SIGN_INS = 10_000


class SignIns:
    """Who each token signs in, kept per token: a request with a token seen before costs one indexed read of
    its user's events (none since: the same user, the same token) instead of reading and folding the
    credential and the user. A token replaced or revoked, by any process, is an event of its user, so
    it is refused at the very next request everywhere."""

    def __init__(self, accounts: Accounts, *, size: int = KEPT_SIGN_INS) -> None:
        self.accounts, self.size = accounts, size
        self._users: dict[str, User] = {}
        self._lock = threading.Lock()

    def user(self, token: str) -> str | None:
        digest = token_hash(token)
        user = self._users.get(digest)
        if user is None or self.accounts.changed_since(user):
            user = self.accounts.token_user(digest)
            self._keep(digest, user)
        return user.name if user is not None else None

    def kept(self, token: str) -> User | None:
        """The user this token signed in when last read, not read again: the caller checks he has no event since
        (standing.py does, in the read it makes anyway)."""
        return self._users.get(token_hash(token))

    def _keep(self, digest: str, user: User | None) -> None:
        with self._lock:
            if user is None:
                self._users.pop(digest, None)
                return
            if len(self._users) >= self.size:
                self._users.pop(next(iter(self._users)))  # the oldest kept: a busy server's tokens stay
            self._users[digest] = user
