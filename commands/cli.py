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
        fail(f"cannot open the store {url or ''}: {error}")


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

        try:
            return function(*args, **kwargs)
        except CommandRejected as error:
            fail(str(error))

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


@app.command()
@guarded
def sheet(
    name: Annotated[str, typer.Argument(help="A character, ship or enemy.")],
    campaign: CampaignOption,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """A character's (or ship's, or enemy's) sheet."""
    kind, data = reader_for(store).sheet(campaign, name)
    print_json(data) if as_json else _print_sheet(kind, data)


@app.command()
@guarded
def ship(
    name: Annotated[str, typer.Argument(help="The ship's name.")],
    campaign: CampaignOption,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """A ship's sheet (the pirate game)."""
    kind, data = reader_for(store).sheet(campaign, name)
    if kind != "ship":
        fail(f"{name!r} is a {kind}, not a ship")
    print_json(data) if as_json else _print_sheet(kind, data)


@app.command()
@guarded
def timeline(campaign: CampaignOption, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Stories, chapters/issues, scenes, battles and moves/pages/rounds with their positions."""
    data = reader_for(store).timeline(campaign)
    if as_json:
        print_json({**data["campaign"], "timeline": data["entries"]})
        return
    _table(
        f"Timeline of {campaign}",
        ["label", "number", "title", "start", "end", "started_at"],
        data["entries"],
    )


@app.command()
@guarded
def limits(campaign: CampaignOption, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every once-only limit: scope, used, remaining."""
    rows = reader_for(store).limits(campaign)
    if as_json:
        print_json(rows)
        return
    _table(f"Limits of {campaign}", ["limit", "scope", "instance", "holder", "used", "remaining", "rule"], rows)


@app.command()
@guarded
def rolls(campaign: CampaignOption, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every roll: id, who, what for, faces, modifiers, total, outcome."""
    rows = reader_for(store).rolls(campaign)
    if as_json:
        print_json(rows)
        return
    _table(f"Rolls of {campaign}", ["id", "actor", "character", "purpose", "text", "outcome", "source"], rows)


@app.command()
@guarded
def log(campaign: CampaignOption, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """The raw event stream of a campaign, with positions."""
    rows = list(reader_for(store).log(campaign))
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
