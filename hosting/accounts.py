"""Users, tokens and roles: adding, signing in, granting; the CLI's `users` and `grant` and the server share it.

Every read here goes to the store, never to the aggregate cache: a token revoked by
`rollbook users revoke` in another process must stop working at the very next request,
and a role granted on one server must count on the others at once.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from ..domain.accounts import (
    Credential,
    Roster,
    User,
    actor_for,
    check_role,
    check_user_name,
    credential_id,
    roster_id,
    user_id,
)
from ..domain.errors import CommandRejected, UnknownName
from ..store import Store
from ..store.failures import IntegrityError
from ..store.reads import events_of, has_events, logged

#: Random bytes in a token: far beyond guessing, so one SHA-256 of it is a safe thing to store.
TOKEN_BYTES = 32
TOKEN_PREFIX = "rb_"
#: How often a grant decides again when another writer changed the roster first.
GRANT_ATTEMPTS = 5


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(TOKEN_BYTES)


@dataclass(frozen=True)
class Membership:
    user: str
    campaign: str
    role: str

    @property
    def actor(self) -> str:
        return actor_for(self.role, self.user)


class Accounts:
    def __init__(self, store: Store) -> None:
        self.store = store

    # --- users and tokens -----------------------------------------------------------------

    def add(self, name: str) -> str:
        """Create a user; its token (shown once: only its hash is kept)."""
        check_user_name(name)
        if self.fresh(user_id(name)) is not None:
            raise CommandRejected(f"user {name!r} already exists (`rollbook users token {name}` gives a new token)",
                                  field="user")
        token = new_token()
        digest = token_hash(token)
        try:
            self.store.save(User(name=name, token_hash=digest), Credential(token_hash=digest, user=name))
        except IntegrityError:
            raise CommandRejected(f"user {name!r} already exists", field="user") from None
        return token

    def new_token(self, name: str) -> str:
        """A new token for `name` (a revoked user signs in again with it); the old one stops working."""
        user = self.user(name)
        token = new_token()
        digest = token_hash(token)
        user.replace_token(digest)
        self.store.save(user, Credential(token_hash=digest, user=name))
        return token

    def revoke(self, name: str) -> None:
        user = self.user(name)
        if user.active:
            user.revoke()
            self.store.save(user)

    def user(self, name: str) -> User:
        found = self.fresh(user_id(name)) if isinstance(name, str) else None
        if found is None:
            raise UnknownName(f"no user {name!r} (`rollbook users add {name}` creates one)", field="user")
        return found

    def users(self) -> list[dict[str, Any]]:
        """Every user: whether its token works, and its role in each campaign."""
        roles: dict[str, dict[str, str]] = {}
        for campaign, user, role in self._grants():
            roles.setdefault(user, {})[campaign] = role
        names = sorted(event.name for event in self._all(User.Registered))
        return [
            {"user": name, "active": self.user(name).active, "roles": dict(sorted(roles.get(name, {}).items()))}
            for name in names
        ]

    def authenticate(self, token: str) -> str | None:
        """The name of the user whose current token this is, else None (unknown, replaced or revoked)."""
        found = self.token_user(token_hash(token))
        return found.name if found is not None else None

    def token_user(self, digest: str) -> User | None:
        """The user whose current token has this hash, as stored now, else None (unknown, replaced or revoked)."""
        credential = self.fresh(credential_id(digest))
        if credential is None:
            return None
        user = self.fresh(user_id(credential.user))
        if user is None or user.token_hash is None:
            return None
        # The stored hash is compared in constant time, so the answer's timing tells nothing of it.
        return user if hmac.compare_digest(user.token_hash, digest) else None

    def changed_since(self, user: User) -> bool:
        """Whether the user has an event past this one's version (a token replaced or revoked): one indexed read."""
        return has_events(self.store, user.id, after=user.version)

    # --- roles ----------------------------------------------------------------------------

    def grant(self, campaign: str, user: str, role: str, *, by: str) -> Membership:
        """Give `user` the `role` in `campaign` (replacing any role before), recorded with who granted it."""
        check_role(role)
        self.user(user)
        for _ in range(GRANT_ATTEMPTS):
            roster = self.fresh(roster_id(campaign)) or Roster(campaign=campaign)
            if roster.roles.get(user) == role:
                break
            roster.grant(user=user, role=role, by=by)
            try:
                self.store.save(roster)
                break
            except IntegrityError:
                continue  # another grant changed the roster first: decide again on it
        else:
            raise CommandRejected(f"the roster of {campaign!r} kept changing; grant again", field="campaign")
        return Membership(user=user, campaign=campaign, role=role)

    def role_of(self, campaign: str, user: str) -> str | None:
        roster = self.fresh(roster_id(campaign))
        return roster.roles.get(user) if roster is not None else None

    def roster(self, campaign: str) -> dict[str, str]:
        roster = self.fresh(roster_id(campaign))
        return dict(roster.roles) if roster is not None else {}

    def memberships(self, user: str) -> list[Membership]:
        """The campaigns `user` holds a role in, each with that role (the latest grant wins)."""
        latest = {campaign: role for campaign, granted, role in self._grants() if granted == user}
        return [Membership(user=user, campaign=c, role=r) for c, r in sorted(latest.items())]

    # --- reading the store directly -------------------------------------------------------

    def fresh(self, aggregate_id: UUID) -> Any:
        """The aggregate as stored now: folded from its events, past the cache."""
        aggregate = None
        for stored in events_of(self.store, aggregate_id):
            aggregate = stored.mutate(aggregate)
        return aggregate

    def _all(self, event_class: type[Any]) -> Iterator[Any]:
        for _, _, _, event in logged(self.store, page=500, topics=[get_topic(event_class)]):
            yield event

    def _grants(self) -> Iterator[tuple[str, str, str]]:
        """Every grant ever made, in order: (campaign, user, role)."""
        campaigns = {opened.originator_id: opened.campaign for opened in self._all(Roster.Opened)}
        for grant in self._all(Roster.Granted):
            yield campaigns[grant.originator_id], grant.user, grant.role
