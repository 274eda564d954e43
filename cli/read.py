"""Verbs that read: sheets, timeline, limits, rolls, the raw log (now, at a point, in a revision), and reference."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer

from . import N_, gettext, say, AtOption, CampaignOption, JsonOption, RevisionOption, StoreOption, app, fail, guarded, print_json
from .opening import chosen, reader_for, remote_client, serving
from .printing import console, open_unit, show_sheet, show_table, when, wrapped

# --- reading ------------------------------------------------------------------------------

def view(store: str | None, campaign: str, at: str | None, revision: int | None) -> Any:
    from ..replay.timetravel import view_for

    if serving(store):
        from .remote import RemoteView

        return RemoteView(remote_client(store), campaign, at=at, revision=revision)
    return view_for(reader_for(store, runs_commands=False), campaign, revision=revision, at=at)


def tell(seen: Any) -> None:
    """What the reader should know about the point shown (a unit still open), once it has been read."""
    if seen.note:
        from ..projections.sheets import in_words  # a note made here is a Phrase; a server's (a header) is English

        say(f"rollbook: {in_words(seen.note)}", err=True)


@app.command()
@guarded
def sheet(
    name: Annotated[str, typer.Argument(help=N_("A character, ship or enemy."))],
    campaign: CampaignOption = None,
    store: StoreOption = None,
    at: AtOption = None,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """A character's (or ship's, or enemy's) sheet."""
    show_member(name, campaign, store, at, revision, as_json=as_json)


@app.command()
@guarded
def ship(
    name: Annotated[str, typer.Argument(help=N_("The ship's name."))],
    campaign: CampaignOption = None,
    store: StoreOption = None,
    at: AtOption = None,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """A ship's sheet (in a game with ships)."""
    show_member(name, campaign, store, at, revision, as_json=as_json, kind="ship")


def show_member(name: str, campaign: str | None, store: str | None, at: Any, revision: Any, *, as_json: bool,
                kind: str | None = None) -> None:
    """A member's sheet as it stood at `at` or `revision`; with `kind`, only a member of that kind."""
    campaign = chosen(campaign, store)
    seen = view(store, campaign, at, revision)
    found, data = seen.sheet(name)
    if kind is not None and found != kind:
        fail(gettext("{name} is a {found}, not a {kind}").format(name=repr(name), found=gettext(found), kind=gettext(kind)))
    print_json(data) if as_json else show_sheet(found, data, ruleset=seen.campaign_doc()["ruleset"])
    tell(seen)


@app.command()
@guarded
def timeline(
    campaign: CampaignOption = None, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Stories, chapters/issues, scenes, battles and moves/pages/rounds with their positions."""
    campaign = chosen(campaign, store)
    seen = view(store, campaign, at, revision)
    entries = seen.timeline()
    if as_json:
        print_json({**seen.campaign_doc(), "timeline": entries})
    else:
        show_timeline(campaign, entries)
    tell(seen)


def show_timeline(campaign: str, entries: list[dict[str, Any]], *, out: Any = None) -> None:
    """In 80 columns: each unit's start time to the minute (`--json` and -v have it whole)."""
    shown = [{**entry, "started_at": when(entry.get("started_at"))}
             for entry in entries]
    show_table(gettext("Timeline of {campaign}").format(campaign=campaign), ["label", "number", "title", "start", "end", "started_at"], shown, out=out)


@app.command()
@guarded
def limits(
    campaign: CampaignOption = None, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Every once-only limit: scope, used, remaining."""
    campaign = chosen(campaign, store)
    seen = view(store, campaign, at, revision)
    rows = seen.limits()
    print_json(rows) if as_json else show_limits(campaign, rows)
    tell(seen)


def show_limits(campaign: str, rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """In 80 columns: the scope with its instance, the uses as "used of count"."""
    shown = [{"limit": r["limit"], "scope": gettext(r["scope"]) + (f": {open_unit(r['instance'])}" if r["instance"] else ""),
              "holder": r["holder"], "used": gettext("{used} of {count}").format(used=r["used"], count=r["count"]),
              "rule": r["rule"]} for r in rows]
    show_table(gettext("Limits of {campaign}").format(campaign=campaign), ["limit", "scope", "holder", "used", "rule"], shown, out=out)


@app.command()
@guarded
def rolls(
    campaign: CampaignOption = None, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Every roll: id, who, what for, faces, modifiers, total, outcome; a roll a ruling struck (an undo, a
    dispute) is shown among them, marked struck with who struck it and why (`--json`: the revision's own)."""
    from ..replay.struck import with_struck

    campaign = chosen(campaign, store)
    seen = view(store, campaign, at, revision)
    rows = seen.rolls()
    if as_json:
        print_json(rows)
    else:
        show_rolls(campaign, seen.campaign_doc()["ruleset"], with_struck(rows, seen.struck()))
    tell(seen)


def show_rolls(campaign: str, ruleset: str, rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """One row per roll, in 80 columns: who and what in words, the dice without markdown."""
    from ..domain.ids import CUT
    from ..projections.narration import dice_text, modifiers_text, voice_of, words

    voice = voice_of(ruleset)
    short = shortened_ids([r["id"] for r in rows])
    shown = [{
        "id": short[r["id"]], "who": r.get("character") or r.get("actor"),
        "dice": f"{voice.purpose(r) or words(str(r.get('purpose') or ''))}: {r.get('notation', '')} {dice_text(r)}"
                f"{modifiers_text(r.get('modifiers', []))}" + (gettext(" (typed)") if r.get("source") == "typed" else ""),
        "total": voice.value(r) or r.get("total"), "outcome": words(str(r.get("outcome") or "")) + struck_note(r),
    } for r in rows]
    show_table(gettext("Rolls of {campaign}").format(campaign=campaign), ["id", "who", "dice", "total", "outcome"], shown, out=out)
    if any(cut.endswith(CUT) for cut in short.values()):
        (out or console()).print("An id ending in … is cut short: dispute and undo take it so; --json has it whole.",
                                 highlight=False)


def shortened_ids(ids: list[str]) -> dict[str, str]:
    """Each id as the rolls table shows it: whole up to LONGEST_SHOWN, else cut to the first 12 characters or
    more, as many as tell it from every other id, then `…`: the dice get the room a 32-digit key took."""
    from ..domain.ids import CUT, LONGEST_SHOWN

    ordered = sorted(set(ids))
    # An id shares its longest beginning with a neighbour in sorted order.
    shared = {whole: max(_common(whole, ordered[i - 1]) if i else 0,
                         _common(whole, ordered[i + 1]) if i + 1 < len(ordered) else 0)
              for i, whole in enumerate(ordered)}
    shown = {}
    for whole in ordered:
        size = max(LONGEST_SHOWN - 2, shared[whole] + 1)
        shown[whole] = whole if len(whole) <= LONGEST_SHOWN or size >= len(whole) - 1 else whole[:size] + CUT
    return shown


def _common(one: str, other: str) -> int:
    return len(os.path.commonprefix([one, other]))


def whole_id(store: str | None, campaign: str, given: str) -> str:
    """A roll's or command's id as given, or, given as the rolls table shortened it (`…`), the one id it begins."""
    from ..domain.ids import CUT

    if not given.endswith(CUT):
        return given
    from ..domain.errors import UnknownName

    prefix = given.removesuffix(CUT)
    found = {r["id"] for r in view(store, campaign, None, None).rolls() if r["id"].startswith(prefix)}
    if len(found) != 1:
        if not found:
            raise UnknownName("{given!r} begins no roll in {campaign}: give the whole id (`rollbook rolls --json`)",
                              field="roll", given=given, campaign=campaign)
        raise UnknownName("{given!r} begins {count} rolls in {campaign}: give the whole id (`rollbook rolls --json`)",
                          field="roll", given=given, count=len(found), campaign=campaign)
    return found.pop()


def struck_note(roll: dict[str, Any]) -> str:
    """A struck roll's mark: who struck it, why, and the revision the ruling made."""
    struck = roll.get("struck")
    if not struck:
        return ""
    return gettext("; STRUCK by {by} ({reason}), revision {revision}").format(
        by=struck["by"], reason=struck["reason"], revision=struck["revision"])


@app.command()
@guarded
def log(
    campaign: CampaignOption = None, store: StoreOption = None, at: AtOption = None,
    revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """The raw event stream of a campaign, with positions."""
    campaign = chosen(campaign, store)
    seen = view(store, campaign, at, revision)
    rows = list(seen.log())
    if as_json:
        print_json(rows)
    else:
        show_log(rows)
    tell(seen)


def show_log(rows: list[dict[str, Any]]) -> None:
    """One event a block: position, aggregate, version and type, then its data as JSON, wrapped between
    its words under them (`--json` has each event as one object)."""
    for row in rows:
        data = json.dumps(_short_hex(row["data"]), ensure_ascii=False, default=str)
        say(wrapped(f"{row['type']} {data}", first=f"{row['position']:>7}  {row['aggregate']} v{row['version']} ",
                    indent=" " * 9))


#: Hex longer than this (a signature, a seed) is shown by its first 16 digits and …: `--json` has it whole.
LONG_HEX = 64


def _short_hex(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _short_hex(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_short_hex(item) for item in value]
    if isinstance(value, str) and len(value) > LONG_HEX and all(c in "0123456789abcdef" for c in value):
        return value[:16] + "…"
    return value


@app.command()
def schema(
    ruleset: Annotated[str | None, typer.Option("--ruleset", help=N_("Only this ruleset's commands."))] = None,
) -> None:
    """The JSON Schema of every command, per ruleset."""
    from ..commands.catalogue import schema as full_schema

    data = full_schema()
    if ruleset is not None:
        if ruleset not in data["rulesets"]:
            fail(gettext("unknown ruleset {ruleset} (available: {available})").format(
                ruleset=repr(ruleset), available=", ".join(data["rulesets"])))
        data = data["rulesets"][ruleset]
    print_json(data)


@app.command()
def moves(
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help=N_("Whose book (default: the first ruleset installed that has one)."))] = None,
    as_json: JsonOption = False,
) -> None:
    """A game's book of moves (names only where the source gives no text)."""
    from ..domain.rulesets import available
    from ..domain.rulesets import ruleset as ruleset_named

    with_books = [name for name in available() if ruleset_named(name).move_book is not None]
    if ruleset is None and not with_books:
        fail(gettext("no installed ruleset has a book of moves"))
    chosen = ruleset or with_books[0]
    if chosen not in available():
        fail(gettext("unknown ruleset {ruleset} (available: {available})").format(
            ruleset=repr(chosen), available=", ".join(available())))
    if chosen not in with_books:
        fail(gettext("ruleset {ruleset} has no book of moves (those that have one: {those})").format(
            ruleset=repr(chosen), those=", ".join(with_books) or gettext("none")))
    book = ruleset_named(chosen).move_book()  # type: ignore[misc]
    if as_json:
        print_json(book)
        return
    show_moves(book)


def show_moves(book: dict[str, dict[str, dict[str, Any]]], *, out: Any = None) -> None:
    """The move to type (`move=…`), its names, and its rulebook line."""
    rows = [{"kind": kind.replace("_", " "), "move": key, "name": f"{move['en']} — {move['ru']} ({move['line']})"}
            for kind, entries in book.items() for key, move in entries.items()]
    show_table(gettext("Moves (roll_move move=…)"), ["kind", "move", "name"], rows, out=out)
