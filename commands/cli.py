"""The `rollbook` command line.

Write verbs (`run`, `demo`, ...) log one structured line per command (structlog; `--log-format
json|console`, `-q` to silence). Read verbs (`sheet`, `ship`, `timeline`, `limits`, `rolls`,
`log`) catch the projections up and answer from them; they print rich tables, or stable JSON
with `--json`, and log nothing unless `-v`. Every verb takes `--store URL` (default
`$ROLLBOOK_STORE`, else `sqlite:///rollbook.db`).

Heavy modules are imported inside the verbs, so `rollbook sheet` starts quickly.
"""

from __future__ import annotations

import json
import logging
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

app = typer.Typer(
    name="rollbook",
    help="Event-sourced session simulator for play-by-post role-playing campaigns.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class LogFormat(StrEnum):
    console = "console"
    json = "json"


class Settings:
    store: str | None = None
    log_format: LogFormat = LogFormat.console
    verbose: bool = False
    quiet: bool = False


settings = Settings()

StoreOption = Annotated[str | None, typer.Option("--store", help="Store URL (sqlite:///FILE, memory://, postgresql://...).")]
CampaignOption = Annotated[str, typer.Option("--campaign", "-c", help="The campaign's id.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print stable JSON instead of tables.")]


@app.callback()
def main_options(
    log_format: Annotated[LogFormat, typer.Option("--log-format", help="Log lines as console text or JSON.")] = LogFormat.console,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log read verbs too.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No per-command log lines.")] = False,
) -> None:
    settings.log_format, settings.verbose, settings.quiet = log_format, verbose, quiet


def configure_logging(*, writing: bool) -> None:
    import structlog

    level = logging.WARNING
    if (writing and not settings.quiet) or settings.verbose:
        level = logging.INFO
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if settings.log_format is LogFormat.json
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def fail(message: str, code: int = 1) -> NoReturn:
    typer.echo(f"rollbook: {message}", err=True)
    raise typer.Exit(code)


def open_store(url: str | None) -> Any:
    from ..domain.errors import CommandRejected
    from ..store import Store

    try:
        return Store.open(url)
    except CommandRejected as error:
        fail(str(error))
    except Exception as error:  # the database cannot be reached or opened
        from ..store import default_url
        from ..store.failures import read_only_hint

        fail(f"cannot open the store {url or ''}: {error}{read_only_hint(url or default_url())}")


def reader_for(url: str | None) -> Any:
    from ..projections.queries import Reader

    configure_logging(writing=False)
    reader = Reader(open_store(url))
    reader.catch_up()
    return reader


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def guarded(function: Any) -> Any:
    """Refusals (unknown campaign, character...) become a message and exit status 1."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..domain.errors import CommandRejected
        from ..store.failures import RERUN_HINT, describe, is_store_failure

        try:
            return function(*args, **kwargs)
        except CommandRejected as error:
            fail(str(error))
        except Exception as error:  # the database went away, is read-only or full
            if not is_store_failure(error):
                raise
            fail(f"the store failed: {describe(error)}" + (f"; {RERUN_HINT}" if function.__name__ == "run" else ""))

    return wrapper


# --- writing ------------------------------------------------------------------------------


@app.command()
@guarded
def run(
    file: Annotated[str, typer.Argument(help="A JSON Lines command file, or - for standard input.")],
    store: StoreOption = None,
    campaign: Annotated[str | None, typer.Option("--campaign", "-c", help="Campaign for lines without one.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Apply a command file to the store, each command all-or-nothing; stop at the first refusal."""
    from ..commands.runner import run_file
    from ..commands.service import Rollbook

    configure_logging(writing=True)
    raw = sys.stdin.buffer.read() if file == "-" else _read(file)
    opened = open_store(store)
    report = run_file(Rollbook(opened), raw, default_campaign=campaign)
    from ..projections.queries import Reader

    if not report.store_failed:
        Reader(opened).catch_up()
    summary = {
        "applied": len(report.applied),
        "skipped": [a.command_id for a in report.skipped],
        "error": report.error.as_dict() if report.error else None,
    }
    if as_json:
        print_json(summary)
    else:
        typer.echo(f"applied {summary['applied']} commands, skipped {len(summary['skipped'])} already recorded")
    if report.error is not None:
        fail(str(report.error))


def _read(file: str) -> bytes:
    try:
        return Path(file).read_bytes()
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")


@app.command()
@guarded
def demo(
    store: Annotated[str, typer.Option("--store", help="Where to build the demo.")] = "sqlite:///rollbook-demo.db",
    as_json: JsonOption = False,
) -> None:
    """Build the bundled example campaigns in a fresh SQLite file and print every sheet."""
    from importlib import resources

    from ..commands.runner import run_file
    from ..commands.service import Rollbook
    from ..projections.queries import Reader

    configure_logging(writing=False)
    _remove_sqlite_file(store)
    opened = open_store(store)
    service = Rollbook(opened)
    examples = sorted(
        (p for p in resources.files("rollbook").joinpath("examples").iterdir() if p.name.endswith(".jsonl")),
        key=lambda p: p.name,
    )
    campaigns: list[str] = []
    for example in examples:
        report = run_file(service, example.read_bytes())
        if report.error is not None:
            fail(f"{example.name}: {report.error}")
        campaigns += _campaigns_in(example.read_text())
    reader = Reader(opened)
    reader.catch_up()
    everything = {c: {s["name"]: s for _, s in reader.sheets(c)} for c in campaigns}
    if as_json:
        print_json(everything)
        return
    for c in campaigns:
        header = reader.campaign(c)
        typer.echo(f"\n=== {header['title'] or c} ({header['ruleset']}) — {opened.url}")
        for kind, sheet in reader.sheets(c):
            _print_sheet(kind, sheet)


def _campaigns_in(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        if '"create_campaign"' in line:
            found.append(json.loads(line)["campaign"])
    return found


def _remove_sqlite_file(url: str) -> None:
    import shutil
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        return
    path = Path(unquote(parsed.path)[1:])
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(f"{path}.secrets", ignore_errors=True)


@app.command()
@guarded
def rebuild(store: StoreOption = None) -> None:
    """Drop every projection and rebuild it from the events."""
    from ..projections.queries import Reader

    configure_logging(writing=True)
    position = Reader(open_store(store)).rebuild()
    typer.echo(f"rebuilt projections up to position {position}")


# --- reading ------------------------------------------------------------------------------

AtOption = Annotated[
    str | None,
    typer.Option("--at", help="A point: event position, command id, ISO time, or chapter:3 / scene:12 / issue:2 …"),
]
RevisionOption = Annotated[int | None, typer.Option("--revision", help="A revision of the campaign (default: current).")]


def view(store: str | None, campaign: str, at: str | None, revision: int | None) -> Any:
    from ..replay.timetravel import view_for

    return view_for(reader_for(store), campaign, revision=revision, at=at)


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
    print_json(data) if as_json else _print_sheet(kind, data)


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
    print_json(data) if as_json else _print_sheet(kind, data)


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
    _table(f"Timeline of {campaign}", ["label", "number", "title", "start", "end", "started_at"], entries)


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
    _table(f"Limits of {campaign}", ["limit", "scope", "instance", "holder", "used", "remaining", "rule"], rows)


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
    _table(f"Rolls of {campaign}", ["id", "actor", "character", "purpose", "text", "total", "outcome", "source"], rows)


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


# --- replay and audit -----------------------------------------------------------------------


@app.command()
@guarded
def replay(
    campaign: CampaignOption,
    store: StoreOption = None,
    until: Annotated[str | None, typer.Option("--until", help="Stop after this point (as --at).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="Check the re-executed stream is identical to the stored one.")] = False,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Re-execute the campaign's recorded commands, with their recorded dice, into a fresh in-memory store."""
    from ..replay.replayer import replay as run_replay
    from ..replay.timetravel import key_of, resolve_point

    reader = reader_for(store)
    key = key_of(reader, campaign, revision)
    until_seq = None
    if until is not None:
        position = resolve_point(reader, key, until)
        done = [c["seq"] for c in reader.views.all(key, "command") if c["position"] <= position]
        until_seq = max(done) if done else 0
    report, _ = run_replay(reader.store, key, until_seq=until_seq, verify=verify)
    if as_json:
        print_json(report.as_dict())
    elif report.difference is None:
        checked = f", {report.events_compared} events identical to the store" if verify else ""
        typer.echo(f"replayed {report.commands} commands of {key}{checked}")
    if report.difference is not None:
        fail(f"replay differs at position {report.position}: {report.difference}")


@app.command()
@guarded
def dispute(
    roll: Annotated[str, typer.Argument(help="The roll's id (see `rollbook rolls`).")],
    campaign: CampaignOption,
    reason: Annotated[str, typer.Option("--reason", help="Why the roll is disputed.")],
    actor: Annotated[str, typer.Option("--actor", help="gm or auditor:NAME.")] = "gm",
    reroll: Annotated[bool, typer.Option("--reroll", help="Roll it again from a fresh, published seed.")] = False,
    faces: Annotated[str | None, typer.Option("--faces", help="The faces the auditor rules, e.g. 3,4.")] = None,
    drop: Annotated[bool, typer.Option("--drop", help="The command that made the roll (or the command named) did not happen.")] = False,
    and_drop: Annotated[list[str] | None, typer.Option("--and-drop", help="Also strike this command (repeatable).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Dispute a roll: recompute everything it caused, then make the corrected history the current revision."""
    from ..domain.errors import CommandRejected
    from ..replay.dispute import Ruling
    from ..replay.dispute import dispute as run_dispute

    configure_logging(writing=not dry_run)
    try:
        parsed_faces = [int(f) for f in faces.split(",")] if faces is not None else None
    except ValueError:
        raise CommandRejected(f"--faces takes numbers separated by commas, not {faces!r}", field="faces") from None
    ruling = Ruling(roll=roll, reason=reason, actor=actor, reroll=reroll, faces=parsed_faces, drop=drop,
                    also_drop=list(and_drop or []))
    result = run_dispute(open_store(store), campaign, ruling, dry_run=dry_run)
    if as_json:
        print_json(result.as_dict())
        return
    verb = "would change" if dry_run else f"changed (now revision {result.revision})"
    _table(f"Dispute of {roll}: what {verb}", ["what", "path", "before", "after"], [d.as_dict() for d in result.differences])
    if result.not_applied:
        _table("Commands the corrected history cannot apply", ["seq", "id", "type", "reason"],
               [s.as_dict() for s in result.not_applied])


@app.command()
@guarded
def revisions(campaign: CampaignOption, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every revision of a campaign, with the dispute that made it."""
    from ..replay.dispute import revisions as list_revisions

    reader = reader_for(store)
    reader.campaign(campaign)
    rows = list_revisions(reader.store, campaign)
    if as_json:
        print_json(rows)
        return
    _table(f"Revisions of {campaign}", ["revision", "dispute", "roll", "actor", "reason", "decision", "at"], rows)


@app.command()
@guarded
def verify(
    campaign: CampaignOption, store: StoreOption = None, revision: RevisionOption = None, as_json: JsonOption = False,
) -> None:
    """Recompute the hash chain, every revealed seed's rolls and the nonces; exit 1 on any finding."""
    from ..replay.timetravel import key_of
    from ..replay.verify import verify as run_verify

    reader = reader_for(store)
    keys = [key_of(reader, campaign, revision)] if revision is not None else [
        key_of(reader, campaign, n) for n in range(1, int(reader.campaign(campaign)["revision"]) + 1)
    ]
    reports = {key: run_verify(reader.store.app, key) for key in keys}
    if as_json:
        print_json({key: {"commands": r.commands, "rolls_checked": r.rolls_checked, "seeds_revealed": r.seeds_revealed,
                          "findings": [f.as_dict() for f in r.findings]} for key, r in reports.items()})
    else:
        for key, r in reports.items():
            typer.echo(f"{key}: {r.commands} commands chained, {r.rolls_checked} rolls recomputed from "
                       f"{r.seeds_revealed} revealed seeds, {len(r.findings)} findings")
            for finding in r.findings:
                typer.echo(f"  {finding}")
    if any(not r.ok for r in reports.values()):
        first = min((f for r in reports.values() for f in r.findings), key=lambda f: f.position or 0)
        fail(f"verification failed; first finding at {first}")


@app.command()
@guarded
def export(
    campaign: CampaignOption,
    store: StoreOption = None,
    with_secrets: Annotated[bool, typer.Option("--with-secrets", help="Include the seeds not yet revealed.")] = False,
) -> None:
    """Write the campaign's history (commands, dice, actors, times, disputes) as JSON Lines."""
    from ..replay.transfer import export_lines

    reader = reader_for(store)
    reader.campaign(campaign)
    for line in export_lines(reader.store, campaign, with_secrets=with_secrets):
        typer.echo(line)


@app.command(name="import")
@guarded
def import_(
    file: Annotated[str, typer.Argument(help="An export file, or - for standard input.")],
    store: StoreOption = None,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Commands per transaction.")] = 500,
    as_json: JsonOption = False,
) -> None:
    """Rebuild an exported campaign in this store (batched), with its revisions."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from ..projections.queries import Reader
    from ..replay.transfer import import_lines

    configure_logging(writing=False)
    raw = sys.stdin.buffer.read() if file == "-" else _read(file)
    lines = [line for line in raw.decode("utf-8").splitlines() if line.strip()]
    opened = open_store(store)
    with Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(), transient=True,
                  disable=as_json or not sys.stderr.isatty()) as bar:
        task = bar.add_task("import", total=max(len(lines) - 1, 0))
        summary = import_lines(opened, iter(lines), batch_size=batch_size,
                               progress=lambda done: bar.update(task, completed=done))
    Reader(opened).catch_up()
    print_json(summary) if as_json else typer.echo(
        f"imported {summary['commands']} commands and {summary['disputes']} disputes of {summary['campaign']}"
    )


@app.command()
def schema(
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="Only this ruleset's commands.")] = None,
) -> None:
    """The JSON Schema of every command, per ruleset."""
    from ..commands.catalogue import schema as full_schema

    data = full_schema()
    if ruleset is not None:
        if ruleset not in data["rulesets"]:
            fail(f"unknown ruleset {ruleset!r} (available: {', '.join(data['rulesets'])})")
        data = data["rulesets"][ruleset]
    print_json(data)


@app.command()
def moves(as_json: JsonOption = False) -> None:
    """The pirate game's book of moves (names only: the source gives no text)."""
    from ..domain.rulesets.pirates.rules import move_book

    book = move_book()
    if as_json:
        print_json(book)
        return
    rows = [{"kind": kind, "move": key, **move} for kind, entries in book.items() for key, move in entries.items()]
    _table("Moves", ["kind", "move", "en", "ru", "line"], rows)


# --- printing -----------------------------------------------------------------------------


def _cell(value: Any) -> str:
    from rich.markup import escape

    if isinstance(value, dict | list):
        return escape(json.dumps(value, ensure_ascii=False))
    return "" if value is None else escape(str(value))


def _table(title: str, columns: list[str], rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(_cell(row.get(c)) for c in columns))
    Console().print(table)


def _print_sheet(kind: str, data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{kind}: {data.get('name')}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in data.items():
        if key != "name":
            table.add_row(key, _cell(value))
    Console().print(table)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
