"""The disputes page, for the GM and auditors: pick a roll, rule on it, see the dry run, then apply it.

The ruling goes through the API's own path (`POST /campaigns/{c}/disputes`): the same checks,
the same idempotent answer under the form's key, so a double click rules once.
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError

from ..domain.errors import CommandRejected
from ..hosting.accounts import Membership
from ..hosting.answers import jsonable
from ..hosting.refusals import Refusal
from ..hosting.rulings import DisputeRequest, rule
from ..language import gettext, refusal
from .moves import purpose_words
from .pages import member, render
from .session import check_csrf

router = APIRouter(include_in_schema=False)
TEXT = Annotated[str, Form(max_length=10_000)]


@router.get("/campaigns/{campaign}/disputes", response_class=HTMLResponse)
def disputes_page(request: Request, campaign: str) -> HTMLResponse:
    from ..replay.revisions import revisions
    from ..replay.timetravel import view_for

    role = member(request, campaign, "gm", "auditor")
    state = request.app.state.rollbook
    rolls = jsonable(view_for(state.reader, campaign).rolls())
    listed = marked(state, jsonable(revisions(state.store, campaign)), campaign)
    ruleset_name = state.caught_up().campaign(campaign)["ruleset"]
    return render(request, "disputes.html", role=role, campaign=campaign, rolls=rolls, revisions=listed,
                  key=secrets.token_hex(16), said_purpose=partial(purpose_words, ruleset_name=ruleset_name))


@router.post("/campaigns/{campaign}/disputes/ruling", response_class=HTMLResponse)
def disputes_ruling(request: Request, campaign: str, roll: Annotated[str, Form(max_length=200)], reason: TEXT,
                    ruling: Annotated[str, Form(pattern="^(reroll|faces|drop)$")], key: Annotated[str, Form(max_length=200)],
                    action: Annotated[str, Form(pattern="^(dry_run|apply)$")], faces: TEXT = "",
                    csrf: Annotated[str | None, Form()] = None) -> HTMLResponse:
    """A dry run shows what the ruling would change; `apply` makes the new revision."""
    role = member(request, campaign, "gm", "auditor")
    check_csrf(request, csrf)
    try:
        asked = DisputeRequest.model_validate({
            "roll": roll, "reason": reason, "reroll": ruling == "reroll", "drop": ruling == "drop",
            "faces": _faces(faces) if ruling == "faces" else None, "dry_run": action == "dry_run",
        })
        answer = rule(request.app.state.rollbook, Membership(request.state.user, campaign, role), key, asked)
    except (CommandRejected, Refusal, ValidationError, ValueError) as error:
        return render(request, "_ruling.html", status=422, error=_reason(error))
    listed = None
    if action == "apply":
        request.app.state.bell.ring()
        from ..replay.revisions import revisions

        state = request.app.state.rollbook
        listed = marked(state, jsonable(revisions(state.store, campaign)), campaign)
    return render(request, "_ruling.html", result=answer, applied=action == "apply", campaign=campaign,
                  revisions=listed)


def marked(state: Any, listed: list[dict[str, Any]], campaign: str) -> list[dict[str, Any]]:
    """The revisions, the current one (the one every read and post goes to) marked."""
    current = state.current_key(campaign)
    return [{**rev, "current": rev["key"] == current} for rev in listed]


def _faces(text: str) -> list[int]:
    try:
        return [int(part) for part in text.replace(",", " ").split()]
    except ValueError:
        raise ValueError(gettext("faces: {text} is not a list of numbers like 3, 4").format(text=repr(text))) from None


def _reason(error: Exception) -> str:
    if isinstance(error, ValidationError):
        first = error.errors()[0]
        return f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
    if isinstance(error, Refusal):
        return f"{error.field}: {error.reason}" if error.field else error.reason
    if isinstance(error, CommandRejected):
        return refusal(error)
    return str(error)
