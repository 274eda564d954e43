"""Verbs that list what a store holds and choose the default campaign: `campaigns`,
`characters`, `use`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from . import N_, gettext, CampaignOption, JsonOption, StoreOption, app, guarded, print_json, say
from .opening import chosen, reader_for, remote_client, remote_server, serving
from .printing import show_table


@app.command()
@guarded
def use(
    campaign: Annotated[str, typer.Argument(help=N_("The campaign later verbs use when -c is left out."))],
    store: StoreOption = None,
) -> None:
    """Choose the default campaign of this store (kept beside it); -c and $ROLLBOOK_CAMPAIGN still win."""
    if serving(store):  # kept for that server, in the user's config folder
        from .saved import keep_default_campaign as keep_for_server

        remote = remote_client(store)
        remote.campaign_get(campaign, "/timeline")  # refuses one the user is not in, naming a look-alike of his
        kept = keep_for_server(str(remote_server(store)), campaign)
        say(gettext("using {campaign} on {server} (kept in {kept})").format(campaign=campaign, server=remote.base, kept=kept))
        return
    from ..store.defaults import keep_default_campaign

    reader = reader_for(store, runs_commands=False)
    reader.campaign(campaign)  # refuses an unknown one, naming those there are
    kept = keep_default_campaign(reader.store.url, campaign)
    say(gettext("using {campaign} (kept in {kept})").format(campaign=campaign, kept=kept))


def campaign_rows(reader: Any) -> list[dict[str, Any]]:
    """Every campaign of the store (its current revision), as `projections.listing` lists one."""
    from ..projections.listing import campaign_row

    return [row for name in reader.views.campaigns() if (row := campaign_row(reader, name)) is not None]


@app.command()
@guarded
def campaigns(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every campaign of the store (or yours on the server, with your role): id, ruleset, title, commands, last
    time, what is open."""
    if serving(store):
        rows = list(remote_client(store).get("/campaigns").json())
    else:
        rows = campaign_rows(reader_for(store, runs_commands=False))
    if as_json:
        print_json(rows)
        return
    show_campaigns(rows, default=chosen(None, store, needed=False))


def show_campaigns(rows: list[dict[str, Any]], *, default: str | None, out: Any = None) -> None:
    """In 80 columns: the last command's time as `03-02 19:00` (whole with -v), the default campaign starred."""
    from .printing import open_unit, when

    shown = [{**r, "campaign": r["campaign"] + (" *" if r["campaign"] == default else ""),
              "last": when(r["last"]), "open": ", ".join(map(open_unit, r["open"])) or "—"} for r in rows]
    roles = ["role"] if any("role" in r for r in rows) else []  # yours, on a server
    show_table(gettext("Campaigns") + (gettext(" (* is the default)") if default else ""),
               ["campaign", "ruleset", "title", "commands", "last", "open", *roles], shown, out=out)


@app.command()
@guarded
def characters(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every character, ship and enemy of a campaign (its current revision): name, player, kind, key figures."""
    from ..projections.listing import character_rows

    campaign = chosen(campaign, store)
    if serving(store):
        rows = list(remote_client(store).campaign_get(campaign, "/characters").json())
    else:
        rows = character_rows(reader_for(store, runs_commands=False), campaign)
    if as_json:
        print_json(rows)
        return
    show_table(gettext("Characters of {campaign}").format(campaign=campaign), ["name", "player", "kind", "figures"],
               [{**r, "figures": ", ".join(f"{gettext(k)} {gettext(str(v))}" for k, v in r["figures"].items())}
                for r in rows])
