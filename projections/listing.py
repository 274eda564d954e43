"""A store's campaigns as `rollbook campaigns` lists them, and `GET /campaigns` too."""

from __future__ import annotations

from typing import Any

from ..domain.ids import campaign_id
from ..domain.revisions import REVISION_MARK
from ..store.reads import last_event


def campaign_row(reader: Any, name: str) -> dict[str, Any] | None:
    """A campaign (its current revision): id, ruleset, title, commands, revision, last time, open scopes;
    None for a name that is no campaign, or a revision's key (`rollbook revisions` lists those)."""
    doc = reader.views.get(name, "campaign", "")
    if doc is None or REVISION_MARK in name:
        return None
    current = reader.views.get(doc["current_key"], "campaign", "") or doc
    latest = last_event(reader.store, campaign_id(current["campaign"]))
    last = latest.timestamp.isoformat() if latest is not None else None
    return {
        "campaign": name, "ruleset": current["ruleset"], "title": current["title"],
        # The revision is the first revision's count (a corrected revision's own document counts itself as its 1).
        "commands": current["commands"], "revision": doc["revision"], "last": last,
        "open": [f"{label} {entry['number']}" for label, entry in current["clock"].items() if entry["open"]],
    }


def character_rows(reader: Any, campaign: str) -> list[dict[str, Any]]:
    """Every character, ship and enemy of the campaign's current revision, in the order they joined: name,
    player, kind, key figures (`rollbook characters`, `GET /campaigns/C/characters`)."""
    from .sheets import key_figures

    root = reader.campaign(campaign)
    key = str(root.get("current_key") or campaign)
    doc = reader.campaign(key) if key != campaign else root
    order = {name: number for number, name in enumerate(doc["members"])}
    rows = [{"name": sheet["name"], "player": sheet.get("player"), "kind": kind,
             "figures": key_figures(doc["ruleset"], kind, sheet)} for kind, sheet in reader.sheets(key)]
    return sorted(rows, key=lambda row: order.get(row["name"], len(order)))


def last_command_of(reader: Any, key: str, actor: str) -> str | None:
    """The id of the last command `actor` gave in the stored revision `key` (what `undo` takes back)."""
    mine = [command for command in reader.views.all(key, "command") if command["actor"] == actor]
    return max(mine, key=lambda command: command["seq"])["id"] if mine else None


def check_undoable(reader: Any, key: str, command_id: str) -> None:
    """A campaign's creation is not undone: without it the revision would hold no campaign at all."""
    from ..domain.errors import CommandRejected

    command = reader.views.get(key, "command", command_id)
    if command is not None and command["type"] == "create_campaign":
        raise CommandRejected(f"{command_id} created the campaign: its creation cannot be undone", field="command")
