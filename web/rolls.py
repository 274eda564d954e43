"""The roll log page: the newest rolls first, a page at a time, filtered by character, player,
purpose or chapter; the filters and the page are in the URL, so a link shows what its sender saw.

`GET /campaigns/{c}/rolls` answers a browser with this page (see `PAGE_OF` in __init__.py) and a
script with the API's JSON list.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ..replay.struck import with_struck
from ..hosting.answers import jsonable
from .moves import purpose_words
from .pages import REVISION, member, render, rolls_of
from .proofs import proof_of

router = APIRouter(include_in_schema=False)
FILTER = Annotated[str | None, Query(max_length=200)]
PAGE = Annotated[int, Query(ge=1, le=1_000_000)]
#: Rolls on one page: a long campaign's log is read a page at a time.
PER_PAGE = 50


@router.get("/campaigns/{campaign}/rolls.html", response_class=HTMLResponse)
def rolls_page(request: Request, campaign: str, revision: REVISION = None, character: FILTER = None,
               player: FILTER = None, purpose: FILTER = None, session: FILTER = None, page: PAGE = 1) -> HTMLResponse:
    role = member(request, campaign)
    rolls, timeline, extra = rolls_of(request, campaign, revision)
    rolls = with_struck(rolls, struck_of(request, campaign, revision))
    from .dice_stats import CHAPTER_SCOPES, chapter_of

    chapters = [e for e in timeline if e["scope"] in CHAPTER_SCOPES]
    revealed = {e["data"]["commitment"]: e["data"]["seed"] for e in extra["log"] if e["type"] == "SeedRevealed"}
    rows = []
    for roll in rolls:
        roll["session"] = chapter_of(roll.get("position", 0), chapters)
        roll["proof"] = proof_of(roll, campaign, revealed)
        rows.append(roll)
    filters = {"character": character, "player": player, "purpose": purpose, "session": session}
    shown = [r for r in reversed(rows) if _matches(r, filters)]  # the newest first: where play is
    pages = max((len(shown) + PER_PAGE - 1) // PER_PAGE, 1)
    page = min(page, pages)
    choices = {
        "character": sorted({r.get("character") or "" for r in rows} - {""}),
        "player": sorted({r["actor"].split(":", 1)[1] for r in rows if r.get("actor", "").startswith("player:")}),
        "purpose": sorted({r.get("purpose") or "" for r in rows} - {""}),
        "session": sorted({r["session"] for r in rows}),
    }
    kept = {name: value for name, value in {**filters, "revision": revision}.items() if value}
    start = (page - 1) * PER_PAGE
    ruleset_name = request.app.state.rollbook.caught_up().campaign(campaign)["ruleset"]
    return render(request, "rolls.html", role=role, campaign=campaign, rolls=shown[start:start + PER_PAGE],
                  said_purpose=partial(purpose_words, ruleset_name=ruleset_name),
                  matching=len(shown), total=len(rows), filters=filters, choices=choices, revision=revision,
                  paging=_paging(campaign, kept, page, pages), first=start + 1)


def struck_of(request: Request, campaign: str, revision: int | None) -> list[dict[str, Any]]:
    """The rolls rulings struck before the revision shown: listed among its own, marked (replay/struck.py)."""
    from ..replay.timetravel import view_for

    return list(jsonable(view_for(request.app.state.rollbook.reader, campaign, revision=revision).struck()))


def _paging(campaign: str, kept: dict[str, Any], page: int, pages: int) -> dict[str, Any]:
    """The page shown, and the links to the others, each with the filters kept."""
    def link(number: int) -> str:
        query = urlencode({**kept, **({"page": number} if number > 1 else {})})
        return f"/campaigns/{campaign}/rolls" + (f"?{query}" if query else "")

    return {"page": page, "pages": pages, "newer": link(page - 1) if page > 1 else None,
            "older": link(page + 1) if page < pages else None,
            "newest": link(1) if page > 2 else None, "oldest": link(pages) if page < pages - 1 else None}


def _matches(roll: dict[str, Any], filters: dict[str, str | None]) -> bool:
    actor = roll.get("actor", "")
    return ((not filters["character"] or roll.get("character") == filters["character"])
            and (not filters["player"] or actor == f"player:{filters['player']}")
            and (not filters["purpose"] or roll.get("purpose") == filters["purpose"])
            and (not filters["session"] or roll.get("session") == filters["session"]))
