"""Signing in: a Bearer token names the user; a campaign's roster gives the role. Reusable as dependencies.

    @router.get("/campaigns/{campaign}/sheets/{name}")
    def sheet(member: Membership = Depends(campaign_member)): ...

No token, or one that is unknown, replaced or revoked: 401. Signed in but not in the
campaign's roster (or not in a role the route needs): 403. A campaign that does not exist: 404.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..hosting.accounts import Membership
from ..hosting.refusals import Refusal

bearer = HTTPBearer(auto_error=False, description="A token from `rollbook users add NAME` or `rollbook users token NAME`.")

#: A campaign's name in a path: what a command's `campaign` takes (no '@': revisions are read with `revision`).
CAMPAIGN = Path(min_length=1, max_length=200, pattern=r"^[^@\s]+$", description="The campaign's id.")


async def token_given(credentials: HTTPAuthorizationCredentials | None = Depends(bearer)) -> str:
    """The Bearer token sent; 401 before anything else if there is none (no I/O: no thread of its own)."""
    if credentials is None:
        raise Refusal("signed_out", "Authorization header", "sign in: send Authorization: Bearer TOKEN")
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
        raise Refusal("signed_out", "Authorization header", "this token is unknown, replaced or revoked")
    return user


def membership(request: Request, campaign: str, user: str) -> Membership:
    """`user`'s role in the campaign; 404 if there is no such campaign, 403 if not a member."""
    state = request.app.state.rollbook
    exists = state.caught_up().views.get(campaign, "campaign", "") is not None
    role = state.accounts.role_of(campaign, user) if exists else None
    if not exists:
        raise Refusal("not_found", "campaign", f"no campaign {campaign!r}")
    if role is None:
        raise Refusal("forbidden", "campaign", f"{user} is not a member of {campaign}")
    return Membership(user=user, campaign=campaign, role=role)


def in_role(*roles: str) -> Callable[..., Membership]:
    """A dependency: a member of the campaign in one of `roles`."""

    async def dependency(member: Membership = Depends(campaign_member)) -> Membership:  # no I/O: no thread
        if member.role not in roles:
            raise Refusal("forbidden", "role", f"{member.user} is {member.role} of {member.campaign}; "
                                         f"this needs {' or '.join(roles)}")
        return member

    return dependency


async def posting(request: Request, user: str = Depends(signed_in)) -> str:  # no I/O: no thread
    """The signed-in user, within the POST rate limit."""
    request.app.state.rollbook.rate_limit.take(user)
    return user
