"""Signing in to the pages: the token pasted once becomes an HttpOnly cookie; every form carries a CSRF token.

The cookie holds the user's own token (what `Authorization: Bearer` carries), so every server
process accepts it without sharing a session table. SameSite=Strict keeps other sites from
sending it; the CSRF token on each form is HMAC(token, "rollbook-csrf"), which a page of
another site cannot compute because it never sees the token. A Bearer header works on every
page too, for scripts and tests (a header is never sent by another site's form, so it needs no
CSRF token).
"""

from __future__ import annotations

import hashlib
import hmac
import re

from fastapi import Request

from ..hosting.refusals import Refusal

COOKIE = "rollbook_session"
CSRF_FIELD = "csrf"


def token_of(request: Request) -> tuple[str | None, bool]:
    """The token the request signs in with, and whether it came from a header (not the cookie)."""
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() == "bearer" and credentials.strip():
        return credentials.strip(), True
    return request.cookies.get(COOKIE), False


def user_of(request: Request) -> str | None:
    """The signed-in user, or None: no token, or one unknown, replaced or revoked."""
    token, _ = token_of(request)
    if not token:
        return None
    return request.app.state.rollbook.sign_ins.user(token)


def csrf_token(request: Request) -> str:
    token, _ = token_of(request)
    return hmac.new((token or "").encode(), b"rollbook-csrf", hashlib.sha256).hexdigest()


def check_csrf(request: Request, submitted: str | None) -> None:
    """A form posted with the cookie must carry the page's CSRF token; a Bearer header needs none."""
    _, from_header = token_of(request)
    if from_header:
        return
    if not submitted or not hmac.compare_digest(submitted, csrf_token(request)):
        raise Refusal("forbidden", CSRF_FIELD, "this form is stale or came from another site: reload the page and send it again")


#: Where a sign-in may send the browser on: a path of this site (not `//other.example`, not `/\\other`).
LOCAL_PATH = re.compile(r"/(?![/\\])[^\s\\\x00-\x1f\x7f]{0,1000}")


def next_page(asked: str | None) -> str:
    """The page a signed-out browser asked for, to go to once signed in: only a path of this site, else `/`."""
    return asked if asked is not None and LOCAL_PATH.fullmatch(asked) else "/"
