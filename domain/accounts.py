"""Who may sign in, and with which role in which campaign: users, their tokens, each campaign's roster.

These live in the same store as the campaigns, as aggregates like any other, so who was
granted which role, by whom and when, is part of the same audit trail as the game itself.

- `User`: a name and the hash of its one current token. Issuing a new token replaces the
  hash (the old token stops working at once); revoking clears it.
- `Credential`: found by a token's hash alone (its id is derived from the hash), it says
  whose token it is. A credential outlives its token: the user's current hash decides.
- `Roster`: one per campaign, the role each user holds there and who granted it.

Only hashes of tokens are ever stored. A token is 32 random bytes, so one SHA-256 is as
hard to invert as the token is to guess: no slow, salted password hash is needed.
"""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import event

from .aggregate import RollbookAggregate
from .errors import CommandRejected
from .ids import ROLLBOOK_NAMESPACE

#: The roles a campaign grants. The GM runs the game; a player acts for his own characters;
#: an auditor reads everything and may dispute rolls, but not play.
ROLES = ("gm", "player", "auditor")
#: A user's name becomes part of the actor (`player:NAME`), so it is a plain word.
USER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def check_user_name(name: str) -> str:
    if not USER_NAME.match(name):
        raise CommandRejected(
            "a user's name is 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (got "
            "{name!r})",
            field="user", name=name,
        )
    return name


def check_role(role: str) -> str:
    if role not in ROLES:
        raise CommandRejected("unknown role {role!r} (one of {roles})", field="role", role=role, roles=", ".join(ROLES))
    return role


def actor_for(role: str, user: str) -> str:
    """The actor a signed-in user's commands carry: the GM acts as `gm`, the others by name."""
    return "gm" if role == "gm" else f"{role}:{user}"


class User(RollbookAggregate):
    @staticmethod
    def create_id(name: str, **_: Any) -> UUID:
        return user_id(name)

    @event("Registered")
    def __init__(self, name: str, token_hash: str) -> None:
        self.name = name
        self.token_hash: str | None = token_hash

    @property
    def active(self) -> bool:
        return self.token_hash is not None

    @event("TokenReplaced")
    def replace_token(self, token_hash: str) -> None:
        self.token_hash = token_hash

    @event("Revoked")
    def revoke(self) -> None:
        self.token_hash = None


class Credential(RollbookAggregate):
    @staticmethod
    def create_id(token_hash: str, **_: Any) -> UUID:
        return credential_id(token_hash)

    @event("Issued")
    def __init__(self, token_hash: str, user: str) -> None:
        self.user = user


class Roster(RollbookAggregate):
    @staticmethod
    def create_id(campaign: str, **_: Any) -> UUID:
        return roster_id(campaign)

    @event("Opened")
    def __init__(self, campaign: str) -> None:
        self.campaign = campaign
        self.roles: dict[str, str] = {}

    @event("Granted")
    def grant(self, user: str, role: str, by: str) -> None:
        """`by` granted `user` the `role` (replacing any role before); the event's time says when."""
        self.roles[user] = role


def user_id(name: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"user:{name}")


def credential_id(token_hash: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"credential:{token_hash}")


def roster_id(campaign: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"roster:{campaign}")


class KeptAnswer(RollbookAggregate):
    """The answer to a ruling posted over HTTP, kept under its Idempotency-Key.

    A command's answer is rebuilt from its own transaction; a dispute's (what changed, which
    commands the corrected history refused) is computed once, when it is ruled, so it is
    kept: the same key with the same request gets it again, and nothing is ruled twice.
    """

    @staticmethod
    def create_id(campaign: str, key: str, **_: Any) -> UUID:
        return uuid5(ROLLBOOK_NAMESPACE, f"{campaign}:answer:{key}")

    @event("Kept")
    def __init__(self, campaign: str, key: str, request: dict[str, Any], answer: dict[str, Any]) -> None:
        self.request = request
        self.answer = answer
