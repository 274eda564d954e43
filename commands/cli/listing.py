"""Verbs that list what a store holds and choose the default campaign: `campaigns`,
`characters`, `use`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import (
    CampaignOption, JsonOption, StoreOption, app, chosen, guarded, print_json, reader_for, say,
)
from .printing import show_table


@app.command()
@guarded
def use(
    campaign: Annotated[str, typer.Argument(help="The campaign later verbs use when -c is left out.")],
    store: StoreOption = None,
) -> None:
    """Choose the default campaign of this store (kept beside it); -c and $ROLLBOOK_CAMPAIGN still win."""
    from ...store.defaults import keep_default_campaign

    reader = reader_for(store, runs_commands=False)
    reader.campaign(campaign)  # refuses an unknown one, naming those there are
    kept = keep_default_campaign(reader.store.url, campaign)
    say(f"using {campaign} (kept in {kept})")


def campaign_rows(reader: Any) -> list[dict[str, Any]]:
    """Every campaign of the store (its current revision): id, ruleset, title, commands, last time, open scopes."""
    from ...domain.campaign import REVISION_MARK
    from ...domain.ids import campaign_id

    rows = []
    for name in reader.views.campaigns():
        doc = reader.views.get(name, "campaign", "")
        if doc is None or REVISION_MARK in name:
            continue  # an earlier or later revision: listed by `rollbook revisions`
        current = reader.views.get(doc["current_key"], "campaign", "") or doc
        latest = reader.store.app.recorder.select_events(campaign_id(current["campaign"]), desc=True, limit=1)
        last = reader.store.app.mapper.to_domain_event(latest[0]).timestamp.isoformat() if latest else None
        rows.append({
            "campaign": name, "ruleset": current["ruleset"], "title": current["title"],
            "commands": current["commands"], "revision": current["revision"], "last": last,
            "open": [f"{label} {entry['number']}" for label, entry in current["clock"].items() if entry["open"]],
        })
    return rows


@app.command()
@guarded
def campaigns(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every campaign of the store: id, ruleset, title, commands, last time, what is open."""
    reader = reader_for(store, runs_commands=False)
    rows = campaign_rows(reader)
    if as_json:
        print_json(rows)
        return
    show_campaigns(rows, default=chosen(None, store, needed=False))


def show_campaigns(rows: list[dict[str, Any]], *, default: str | None, out: Any = None) -> None:
    """In 80 columns: the last command's time to the minute, the default campaign starred."""
    shown = [{**r, "campaign": r["campaign"] + (" *" if r["campaign"] == default else ""),
              "last": (r["last"] or "")[:16].replace("T", " "), "open": ", ".join(r["open"]) or "—"} for r in rows]
    show_table("Campaigns" + (" (* is the default)" if default else ""),
               ["campaign", "ruleset", "title", "commands", "last", "open"], shown, out=out)


@app.command()
@guarded
def characters(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every character, ship and enemy of a campaign: name, player, kind, key figures."""
    from .sheets import key_figures

    campaign = chosen(campaign, store)
    reader = reader_for(store, runs_commands=False)
    doc = reader.campaign(campaign)
    order = {name: number for number, name in enumerate(doc["members"])}  # as they joined
    rows = sorted(({"name": sheet["name"], "player": sheet.get("player"), "kind": kind,
                    "figures": key_figures(doc["ruleset"], kind, sheet)} for kind, sheet in reader.sheets(campaign)),
                  key=lambda row: order.get(row["name"], len(order)))
    if as_json:
        print_json(rows)
        return
    show_table(f"Characters of {campaign}", ["name", "player", "kind", "figures"],
               [{**r, "figures": ", ".join(f"{k} {v}" for k, v in r["figures"].items())} for r in rows])
