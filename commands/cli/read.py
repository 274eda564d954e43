"""Verbs that read: sheets, timeline, limits, rolls, the raw log (now, at a point, in a revision), and reference."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from . import (
    AtOption,
    CampaignOption,
    JsonOption,
    RevisionOption,
    StoreOption,
    app,
    fail,
    guarded,
    print_json,
    reader_for,
    show_sheet,
    show_table,
)

# --- reading ------------------------------------------------------------------------------

def view(store: str | None, campaign: str, at: str | None, revision: int | None) -> Any:
    from ...replay.timetravel import view_for

    return view_for(reader_for(store, runs_commands=False), campaign, revision=revision, at=at)


@app.command()
@guarded
def sheet(
    name: Annotated[str, typer.Argument(help="A character, ship or enemy.")],
    campaign: CampaignOption,
    store: StoreOption = None,
    at: AtOption = None,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """A character's (or ship's, or enemy's) sheet."""
    kind, data = view(store, campaign, at, revision).sheet(name)
    print_json(data) if as_json else show_sheet(kind, data)


@app.command()
@guarded
def ship(
    name: Annotated[str, typer.Argument(help="The ship's name.")],
    campaign: CampaignOption,
    store: StoreOption = None,
    at: AtOption = None,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """A ship's sheet (the pirate game)."""
    kind, data = view(store, campaign, at, revision).sheet(name)
    if kind != "ship":
        fail(f"{name!r} is a {kind}, not a ship")
    print_json(data) if as_json else show_sheet(kind, data)


@app.command()
@guarded
def timeline(
    campaign: CampaignOption, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Stories, chapters/issues, scenes, battles and moves/pages/rounds with their positions."""
    seen = view(store, campaign, at, revision)
    entries = seen.timeline()
    if as_json:
        print_json({**seen.campaign_doc(), "timeline": entries})
        return
    show_table(f"Timeline of {campaign}", ["label", "number", "title", "start", "end", "started_at"], entries)


@app.command()
@guarded
def limits(
    campaign: CampaignOption, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Every once-only limit: scope, used, remaining."""
    rows = view(store, campaign, at, revision).limits()
    if as_json:
        print_json(rows)
        return
    show_table(f"Limits of {campaign}", ["limit", "scope", "instance", "holder", "used", "remaining", "rule"], rows)


@app.command()
@guarded
def rolls(
    campaign: CampaignOption, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Every roll: id, who, what for, faces, modifiers, total, outcome."""
    rows = view(store, campaign, at, revision).rolls()
    if as_json:
        print_json(rows)
        return
    show_table(f"Rolls of {campaign}", ["id", "actor", "character", "purpose", "text", "total", "outcome", "source"], rows)


@app.command()
@guarded
def log(
    campaign: CampaignOption, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """The raw event stream of a campaign, with positions."""
    rows = list(view(store, campaign, at, revision).log())
    if as_json:
        print_json(rows)
        return
    for row in rows:
        data = json.dumps(row["data"], ensure_ascii=False, default=str)
        typer.echo(f"{row['position']:>7}  {row['aggregate']:<22} v{row['version']:<5} {row['type']:<18} {data}")


@app.command()
def schema(
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="Only this ruleset's commands.")] = None,
) -> None:
    """The JSON Schema of every command, per ruleset."""
    from ...commands.catalogue import schema as full_schema

    data = full_schema()
    if ruleset is not None:
        if ruleset not in data["rulesets"]:
            fail(f"unknown ruleset {ruleset!r} (available: {', '.join(data['rulesets'])})")
        data = data["rulesets"][ruleset]
    print_json(data)


@app.command()
def moves(as_json: JsonOption = False) -> None:
    """The pirate game's book of moves (names only: the source gives no text)."""
    from ...domain.rulesets.pirates.rules import move_book

    book = move_book()
    if as_json:
        print_json(book)
        return
    rows = [{"kind": kind, "move": key, **move} for kind, entries in book.items() for key, move in entries.items()]
    show_table("Moves", ["kind", "move", "en", "ru", "line"], rows)
