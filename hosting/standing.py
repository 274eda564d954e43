"""A post's sign-in, its poster's role and its key's claim, checked in one read of the store.

A post needs three things the store decides, each by another process too: whether its token still
signs its user in (a token revoked anywhere stops working at the next request), the user's role in
the campaign (a grant on one server counts on the others at once), and whether its key already
holds a command (a retry). Each was a read of its own, a round trip apiece on PostgreSQL. Here the
user and the campaign's roster are kept between requests, and one query asks the latest version of
the three aggregates (store/reads.py `latest_versions`): a user or roster with an event past the
kept one is read afresh (a token replaced or revoked, a grant), the claim is there or not. A token
never seen before, or a roster not kept yet, costs the reads it always did, once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..commands.service import Rollbook
from ..domain.accounts import Roster, User, roster_id
from ..domain.ids import command_claim_id
from ..store.reads import latest_versions
from .accounts import Accounts
from .answers import Answers
from .refusals import Refusal
from .sign_ins import Kept, SignIns

#: Rosters kept between requests (beyond, the oldest is read afresh next time).
KEPT_ROSTERS = 10_000


@dataclass(frozen=True)
class Standing:
    """Who posts, his role in the campaign (None: not a member), and the command his key holds already."""

    user: str
    role: str | None
    recorded: dict[str, Any] | None


class Standings:
    def __init__(self, accounts: Accounts, sign_ins: SignIns, service: Rollbook, answers: Answers,
                 *, size: int = KEPT_ROSTERS) -> None:
        self.accounts, self.sign_ins, self.service, self.answers = accounts, sign_ins, service, answers
        self._rosters: Kept[Roster] = Kept(size)

    def of_token(self, token: str, campaign: str, key: str) -> Standing:
        """The token's user's standing in the campaign; refused if the token signs no one in (now)."""
        user = self.sign_ins.kept(token)
        if user is None:  # never seen (or refused before): the reads a first sign-in takes
            name = self.sign_ins.user(token)
            if name is None:
                raise Refusal("signed_out", "Authorization header", "this token is unknown, replaced or revoked")
            return self.of_user(name, campaign, key)
        standing, latest = self._read(user.name, campaign, key, also=user)
        if latest.get(user.id, user.version) != user.version and self.sign_ins.user(token) != user.name:
            raise Refusal("signed_out", "Authorization header", "this token is unknown, replaced or revoked")
        return standing

    def of_user(self, user: str, campaign: str, key: str) -> Standing:
        """`user`'s standing in the campaign (signed in already)."""
        return self._read(user, campaign, key)[0]

    def _read(self, user: str, campaign: str, key: str, *, also: User | None = None) -> tuple[Standing, dict[Any, int]]:
        roster_key, claim = roster_id(campaign), command_claim_id(self.service.key_for(campaign), key)
        latest = latest_versions(self.accounts.store, [roster_key, claim, *([also.id] if also is not None else [])])
        roster = self._rosters.get(campaign)
        if roster is None or latest.get(roster_key) != roster.version:
            roster = self.accounts.fresh(roster_key)
            self._rosters.keep(campaign, roster)
        role = roster.roles.get(user) if roster is not None else None
        recorded = self.answers.recorded(campaign, key) if claim in latest else None
        return Standing(user, role, recorded), latest
