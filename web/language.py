"""The language a page is read in: the reader's choice (the RU / EN switch, kept in a cookie), else his
browser's Accept-Language, negotiated by Babel; English when neither names a language Rollbook speaks.

Every page request is answered inside `speaking(language)`, so the templates' messages, the games'
narration, the sheets and the refusals on the page all come out in it. The API's answers are not pages:
they stay English, as `--json` does, whatever the browser asks for.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from babel import Locale
from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..domain.options import ENGLISH, LANGUAGES
from .. import language
from .session import next_page

#: The browser's choice of language, kept for a year.
COOKIE = "rollbook_lang"
YEAR = 60 * 60 * 24 * 365
#: Each language's name on the switch, in itself.
SWITCH = {"ru": "RU", "en": "EN"}

router = APIRouter(include_in_schema=False)


def preferred(header: str) -> list[str]:
    """The language tags of an Accept-Language header, the most wanted first (by their q-weights)."""
    weighted = []
    for place, item in enumerate(header.split(",")):
        tag, *params = (part.strip() for part in item.split(";"))
        weights = [param.partition("=")[2] for param in params if param.startswith("q=")]
        try:
            weight = float(weights[0]) if weights else 1.0
        except ValueError:
            weight = 0.0
        if tag and tag != "*" and weight > 0:
            weighted.append((-weight, place, tag))
    return [tag for _, _, tag in sorted(weighted)]


def negotiated(header: str) -> str:
    """The language Rollbook speaks that the browser prefers (Babel's negotiation), else English."""
    found = Locale.negotiate(preferred(header), sorted(LANGUAGES), sep="-")
    return found.language if found is not None else ENGLISH


def chosen(headers: dict[str, str], cookies: dict[str, str]) -> str:
    """The reader's language: the switch's cookie, else the browser's Accept-Language."""
    kept = cookies.get(COOKIE)
    if kept in LANGUAGES:
        return kept
    return negotiated(headers.get("accept-language", ""))


def is_page(headers: dict[str, str]) -> bool:
    """A request a person reads the answer of (see web.wants_page): only pages change language."""
    return "text/html" in headers.get("accept", "") or headers.get("hx-request") == "true"


class SpeakingMiddleware:
    """Answers each page request inside `speaking` its reader's language (a plain ASGI middleware: the
    language is set in the request's own context, which the endpoint's thread inherits)."""

    def __init__(self, app: ASGIApp) -> None:
        self.inner = app  # the application it wraps (not the event store's)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        request = Request(scope)
        headers = {key: value for key, value in request.headers.items()}
        spoken = chosen(headers, request.cookies) if is_page(headers) else ENGLISH
        with language.speaking(spoken):
            await self.inner(scope, receive, send)


@router.get("/language/{chosen_language}")
def switch(request: Request, chosen_language: str,
           asked: Annotated[str | None, Query(alias="next", max_length=1001)] = None) -> Response:
    """The switch: keeps the language in the browser's cookie and goes back to the page it was pressed on."""
    response = RedirectResponse(next_page(asked), status_code=303)
    if chosen_language in LANGUAGES:
        response.set_cookie(COOKIE, chosen_language, samesite="lax", secure=request.url.scheme == "https",
                            max_age=YEAR)
    return response


def switch_links(request: Request) -> list[dict[str, Any]]:
    """The switch's links, each back to the page shown."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return [{"language": code, "label": label, "href": f"/language/{code}?{urlencode({'next': here})}",
             "current": code == language.spoken()} for code, label in SWITCH.items()]

