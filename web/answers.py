"""What the post page says after a post, in words: the line, the faces and the roll; or what went
wrong, and what to do about it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from ..language import N_, gettext

#: What each status means for the one who posted, and what he can do next.
WHAT_TO_DO = {
    401: (N_("You are signed out"), N_("Sign in again with your token, then post again.")),
    403: (N_("Not yours to post"),
          N_("Post only for your own characters and fields, or ask the GM for the role this needs.")),
    404: (N_("No such campaign"), N_("Go back to your campaigns and choose one.")),
    409: (N_("Already made, its answer lost"), N_("Open the roll log to see what was recorded before posting again.")),
    412: (N_("The campaign changed since this form was shown"),
          N_("Look at the sheets again (this form now holds the new version), then post again if the move still "
             "stands.")),
    422: (N_("Refused"), N_("Change what the message names, then post again.")),
    429: (N_("Too many posts at once"),
          N_("Wait a moment, then press Post again: the same post is sent, and is stored once.")),
    503: (N_("The server could not store the post"),
          N_("Press Post again: the same post is sent, and is stored once.")),
}
NOT_POSTED = (N_("Not posted"), N_("Reload the page and post again."))
#: Refusals naming the form's own token or key rather than a field of the command.
CSRF = "csrf"
KEY = "Idempotency-Key header"


def failure_answer(status: int, field: str | None, reason: str, wait: int | None = None) -> dict[str, Any]:
    """What the page says of a post not applied: answered `status`, refused for `field` because of `reason`;
    `wait`: the seconds the server asks to be given before the same post is sent again."""
    title, todo = (gettext(said) for said in WHAT_TO_DO.get(status, NOT_POSTED))
    if field == CSRF:
        title, todo = gettext("This form is stale"), gettext("Reload the page, then post again.")
    elif field == KEY:
        todo = gettext("Press Post again: this form now holds a new key for a new post.")
    if wait and status in (429, 503):
        todo = gettext("Wait {wait} s, then press Post again: the same post is sent, and is stored once.").format(
            wait=wait)
    return {"status": status, "applied": False, "title": title, "reason": reason, "field": field, "todo": todo,
            "beside": None}


def applied_answer(campaign: str, answer: dict[str, Any], repeated: bool,
                   proof_of: Callable[[dict[str, Any], str, dict[str, str]], dict[str, str]]) -> dict[str, Any]:
    """The line in words, each roll's faces with its proof badge and a link to it in the roll log."""
    rolled = {e["data"]["roll"]["id"]: e["data"]["roll"] for e in answer.get("events", [])
              if e.get("type") == "DiceRolled" and isinstance(e.get("data", {}).get("roll"), dict)}
    rolls = []
    for brief in answer.get("rolls", []):
        roll = rolled.get(brief["id"], brief)
        rolls.append({**roll, "proof": proof_of(roll, campaign, {}),
                      "link": f"/campaigns/{campaign}/rolls#roll-{quote(str(roll['id']), safe='')}"})
    return {"status": 201, "applied": True, "title": gettext("Posted"), "summary": answer.get("summary", ""),
            "command_id": answer["command_id"], "position": answer.get("position"), "rolls": rolls,
            "repeated": repeated, "field": None, "beside": None}
