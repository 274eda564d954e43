"""The browser pages of `rollbook serve`: Jinja2 templates on the server, htmx for the moving parts.

`install(app)` adds them to the API's FastAPI app: the same sign-in (a session cookie for
browsers, a Bearer header for scripts), the same roles, the same service. htmx and its SSE
extension are shipped in `static/`: the pages load nothing from the internet.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ..domain.errors import CommandRejected
from ..hosting.refusals import Refusal
from ..language import refusal

#: API paths that also have a page: a browser (Accept: text/html, or htmx) gets the page.
PAGE_OF = {"rolls": "rolls.html"}


def wants_page(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "text/html" in accept or request.headers.get("hx-request") == "true"


class PagesForBrowsers:
    """A GET of an API path that also has a page, from a browser, is sent to the page. A plain ASGI middleware:
    Starlette's `@app.middleware("http")` ran every request, posts too, through task groups and streams of
    its own (issue 48: a measurable share of a post's CPU), where a look at the path is all it takes."""

    def __init__(self, app: ASGIApp) -> None:
        self.inner = app  # the application it wraps (not the event store's)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            request = Request(scope)
            parts = request.url.path.strip("/").split("/")
            if len(parts) == 3 and parts[0] == "campaigns" and parts[2] in PAGE_OF and wants_page(request):
                scope["path"] = f"/campaigns/{parts[1]}/{PAGE_OF[parts[2]]}"
        await self.inner(scope, receive, send)


def install(app: FastAPI) -> None:
    from . import disputes, language, live, pages, posting, rolls

    static = Path(__file__).parent / "static"
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        """The icon browsers ask for on every page (an SVG: every browser the pages support reads it)."""
        return FileResponse(static / "favicon.svg", media_type="image/svg+xml",
                            headers={"Cache-Control": "public, max-age=86400"})

    app.state.live_positions = live.Positions(app.state.rollbook, app.state.poll_seconds)
    app.add_middleware(language.SpeakingMiddleware)
    for module in (pages, rolls, posting, disputes, live, language):
        app.include_router(module.router)
    api_handlers = dict(app.exception_handlers)

    app.add_middleware(PagesForBrowsers)

    @app.exception_handler(pages.SignInNeeded)
    async def sign_in_first(request: Request, _: Exception) -> Response:
        # The sign-in page, which brings the browser back to the page it asked for.
        asked = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/?{urlencode({'next': asked})}", status_code=303)

    async def page_or_api(request: Request, error: Exception) -> Response:
        if not wants_page(request):
            handler = next(api_handlers[kind] for kind in type(error).__mro__ if kind in api_handlers)
            return await handler(request, error)
        if isinstance(error, Refusal):
            reason = f"{error.field}: {error.reason}" if error.field else error.reason
        else:
            assert isinstance(error, CommandRejected)
            reason = refusal(error)
        # With the status the API answers it with: server/errors.py, the one place statuses are chosen, lends its
        # mapping on the app the pages are mounted on.
        return pages.render(request, "error.html", status=request.app.state.status_of(error), reason=reason)

    for kind in (Refusal, CommandRejected):
        app.add_exception_handler(kind, page_or_api)
