"""Signing in: a Bearer token names the user; a campaign's roster gives the role. Reusable as dependencies.

    @router.get("/campaigns/{campaign}/sheets/{name}")
    def sheet(member: Membership = Depends(campaign_member)): ...

No token, or one that is unknown, replaced or revoked: 401. Signed in but not in the
campaign's roster (or not in a role the route needs): 403. A campaign that does not exist: 404.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..domain.accounts import User
from ..hosting.accounts import Accounts, Membership, token_hash
from .errors import HTTPError

bearer = HTTPBearer(auto_error=False, description="A token from `rollbook users add NAME` or `rollbook users token NAME`.")

#: A campaign's name in a path: what a command's `campaign` takes (no '@': revisions are read with `revision`).
CAMPAIGN = Path(min_length=1, max_length=200, pattern=r"^[^@\s]+$", description="The campaign's id.")
SIGN_IN = {"WWW-Authenticate": "Bearer"}
#: Tokens whose user is kept between requests (beyond, the oldest is read afresh next time).
KEPT_SIGN_INS = 10_000
#: What a `Kept` keeps.
V = TypeVar("V")


async def token_given(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
    """The Bearer token sent; 401 before anything else if there is none (no I/O: no thread of its own)."""
    if credentials is None:
        raise HTTPError(401, "Authorization header", "sign in: send Authorization: Bearer TOKEN", SIGN_IN)
    return credentials.credentials


def signed_in(request: Request, token: str = Depends(token_given)) -> str:
    """The signed-in user's name."""
    return _user_of(request, token)


def campaign_member(request: Request, campaign: str = CAMPAIGN, token: str = Depends(token_given)) -> Membership:
    """The signed-in user's role in the campaign of the path: signed in and looked up in one call (one thread)."""
    return membership(request, campaign, _user_of(request, token))


def _user_of(request: Request, token: str) -> str:
    user = request.app.state.rollbook.sign_ins.user(token)
    if user is None:
        raise HTTPError(401, "Authorization header", "this token is unknown, replaced or revoked", SIGN_IN)
    return user


def membership(request: Request, campaign: str, user: str) -> Membership:
    """`user`'s role in the campaign; 404 if there is no such campaign, 403 if not a member."""
    state = request.app.state.rollbook
    exists = state.caught_up().views.get(campaign, "campaign", "") is not None
    role = state.accounts.role_of(campaign, user) if exists else None
    if not exists:
        raise HTTPError(404, "campaign", f"no campaign {campaign!r}")
    if role is None:
        raise HTTPError(403, "campaign", f"{user} is not a member of {campaign}")
    return Membership(user=user, campaign=campaign, role=role)


def in_role(*roles: str) -> Callable[..., Membership]:
    """A dependency: a member of the campaign in one of `roles`."""

    async def dependency(member: Membership = Depends(campaign_member)) -> Membership:  # no I/O: no thread
        if member.role not in roles:
            raise HTTPError(403, "role", f"{member.user} is {member.role} of {member.campaign}; "
                                         f"this needs {' or '.join(roles)}")
        return member

    return dependency


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
        (server/standing.py does, in the read it makes anyway)."""
        return self._users.get(token_hash(token))


@dataclass
class RateLimit:
    """Each token may POST `per_minute` times a minute, in bursts of up to `burst` (a token bucket).

    It keeps one looping client from filling the single writer's queue; the others go on.
    """

    per_minute: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self, user: str) -> None:
        if self.per_minute <= 0:
            return
        now = self.clock()
        with self._lock:
            tokens, since = self._buckets.get(user, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - since) * self.per_minute / 60)
            if tokens < 1:
                wait = (1 - tokens) * 60 / self.per_minute
                self._buckets[user] = (tokens, now)
                raise HTTPError(429, "Authorization header",
                                f"{user} posts more than {self.per_minute:g} times a minute; retry in {wait:.1f} s",
                                {"Retry-After": str(max(1, round(wait)))})
            self._buckets[user] = (tokens - 1, now)


async def posting(request: Request, user: str = Depends(signed_in)) -> str:  # no I/O: no thread
    """The signed-in user, within the POST rate limit."""
    request.app.state.rollbook.rate_limit.take(user)
    return user
