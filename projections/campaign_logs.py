"""The campaign's logs as documents: one function per event the roll log, timeline or command log shows.

Each takes the campaign (only its name and scope labels are used: they never change), the
event's fields, its time in ISO format and its position, and writes documents with `put`,
reading this batch's or the store's with `current`. The projector (projector.py) calls them
for the campaign's events it meets, in order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..domain.campaign import Campaign

Put = Callable[[str, str, str, int, dict[str, Any]], None]
Current = Callable[[str, str, str], dict[str, Any] | None]
Logger = Callable[["Campaign", dict[str, Any], str, int, Put, Current], None]


def timeline_key(scope: str, number: int) -> str:
    return f"{scope}:{number}"


def _outcome_in_words(outcome: object) -> str:
    return str(outcome).replace("_", " ")


def roll_text(original: str, changes: list[dict[str, Any]],
              outcome_said: Callable[[object], str] = _outcome_in_words) -> str:
    """A roll's text with every later change in it: a modifier joins the sum (`… + 1 = 11`), any other
    change (a trade, dice bought) is said in words, so the text never disagrees with the total. The stored text
    is English; a reader's own (Discord's `/rb rolls`) says each change's outcome with `outcome_said`."""
    text = original
    for change in changes:
        modifier = change.get("modifier")
        head, equals, _ = text.rpartition(" = ")
        if modifier and equals:
            value = int(modifier["value"])
            text = f"{head} {'+' if value >= 0 else '-'} {abs(value)} = {change['total']}"
        else:
            text = f"{text}; {change['reason']}: {change['total']}, {outcome_said(change['outcome'])}"
    return text


def _dice_rolled(campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, _: Current) -> None:
    roll = dict(event["roll"])
    original = {"total": roll["total"], "outcome": roll["outcome"], "modifiers": roll["modifiers"],
                "text": roll.get("text")}
    put(campaign.campaign, "roll", roll["id"], position,
        {**roll, "position": position, "at": when, "original": original, "changes": []})


def _roll_modified(
    campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, current: Current
) -> None:
    c = campaign.campaign
    roll = current(c, "roll", event["roll"])
    if roll is not None:
        if event["modifier"] is not None:
            roll["modifiers"] = [*roll["modifiers"], event["modifier"]]
        roll["total"], roll["outcome"] = event["total"], event["outcome"]
        roll.update(event.get("fields") or {})
        roll["changes"] = [*roll["changes"], {"position": position, "reason": event["reason"],
                                              "modifier": event["modifier"],
                                              "total": event["total"], "outcome": event["outcome"],
                                              **({"fields": event["fields"]} if event.get("fields") else {})}]
        roll["text"] = roll_text(roll["original"].get("text") or roll["text"], roll["changes"])
        put(c, "roll", event["roll"], roll["position"], roll)


def _scope_started(
    campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, current: Current
) -> None:
    _timeline_entry(campaign, event, when, position, put)
    cursor = _cursor(campaign.campaign, current)
    put(campaign.campaign, "cursor", "", position, {**cursor, "open": [*cursor["open"], event["scope"]]})


def _ticked(campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, current: Current) -> None:
    """A counted unit (page, round, turn) begins, and the one before it ended with the last command
    played in it: the command that begins the next one belongs to the next one."""
    c = campaign.campaign
    cursor = _cursor(c, current)
    unit = cursor["unit"]
    if unit is not None:
        entry = current(c, "timeline", unit["key"])
        if entry is not None and entry["end"] is None:
            ended_in_it = cursor["command"] is not None and cursor["command"] >= entry["start"]
            put(c, "timeline", unit["key"], entry["start"], {
                **entry, "end": cursor["command"] if ended_in_it else entry["start"],
                "ended_at": cursor["at"] if ended_in_it else entry["started_at"]})
    _timeline_entry(campaign, event, when, position, put)
    # The unit lasts until the next one, or until the innermost scope open now ends (a round with its battle).
    within = next((s.value for s in campaign.bounded_scopes() if s.value in cursor["open"]), None)
    key = timeline_key(event["scope"], event["number"])
    put(c, "cursor", "", position, {**cursor, "unit": {"key": key, "within": within}})


def _timeline_entry(campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put) -> None:
    """A scope's or a counted unit's entry as it starts: open until it ends."""
    put(campaign.campaign, "timeline", timeline_key(event["scope"], event["number"]), position, {
        "scope": event["scope"], "label": event["label"], "number": event["number"],
        "title": event.get("title"), "start": position, "started_at": when, "end": None, "ended_at": None,
    })


def _scope_ended(
    campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, current: Current
) -> None:
    c = campaign.campaign
    key = timeline_key(event["scope"], event["number"])
    entry = current(c, "timeline", key)
    if entry is not None:
        put(c, "timeline", key, entry["start"], {**entry, "end": position, "ended_at": when})
    cursor = _cursor(c, current)
    unit = cursor["unit"]
    ending = campaign.scope(event["scope"]).rank
    if unit is not None and unit["within"] is not None and campaign.scope(unit["within"]).rank <= ending:
        # The scope the unit was counted in is over, and the unit with it (a round when its battle ends).
        inner = current(c, "timeline", unit["key"])
        if inner is not None and inner["end"] is None:
            put(c, "timeline", unit["key"], inner["start"], {**inner, "end": position, "ended_at": when})
        unit = None
    still_open = [s for s in cursor["open"] if s != event["scope"]]
    put(c, "cursor", "", position, {**cursor, "open": still_open, "unit": unit})


def _cursor(campaign: str, current: Current) -> dict[str, Any]:
    """Where the timeline stands: the bounded scopes open, the counted unit running (and the scope it is
    counted in), the last command's position and time. Kept as a document, so the next batch reads it."""
    return current(campaign, "cursor", "") or {"open": [], "unit": None, "command": None, "at": None}


def _move_begun(campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, _: Current) -> None:
    put(campaign.campaign, "timeline", timeline_key("move", event["number"]), position, {
        "scope": "move", "label": campaign.label("move"), "number": event["number"],
        "title": f"{event['character']} ({event['roll']})", "start": position, "started_at": when,
        "end": position, "ended_at": when, "roll": event["roll"], "character": event["character"],
    })


def _command_applied(
    campaign: Campaign, event: dict[str, Any], when: str, position: int, put: Put, current: Current
) -> None:
    command = event["command"]
    cursor = _cursor(campaign.campaign, current)  # a document of this batch's own, or freshly read: ours to change
    cursor["command"], cursor["at"] = position, when
    put(campaign.campaign, "cursor", "", position, cursor)
    put(campaign.campaign, "command", event["command_id"], position, {
        "id": event["command_id"], "seq": event["seq"], "type": command.get("type"),
        "actor": command.get("actor", "gm"), "at": command.get("at", when), "position": position,
        **({"via": command["via"]} if "via" in command else {}),
    })


#: The stored event's class name -> the function that shows it in the campaign's logs.
CAMPAIGN_LOGS: dict[str, Logger] = {
    "DiceRolled": _dice_rolled,
    "RollModified": _roll_modified,
    "ScopeStarted": _scope_started,
    "Ticked": _ticked,
    "ScopeEnded": _scope_ended,
    "MoveBegun": _move_begun,
    "CommandApplied": _command_applied,
}
