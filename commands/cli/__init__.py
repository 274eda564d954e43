"""The `rollbook` command line.

Write verbs (`run`, `demo`, ...) log one structured line per command (structlog; `--log-format
json|console`, `-q` to silence). Read verbs (`sheet`, `ship`, `timeline`, `limits`, `rolls`,
`log`) catch the projections up and answer from them; they print rich tables, or stable JSON
with `--json`, and log nothing unless `-v`. Every verb takes `--store URL` (default
`$ROLLBOOK_STORE`, else `sqlite:///rollbook.db`).

Heavy modules are imported inside the verbs, so `rollbook sheet` starts quickly. The verbs
live in `write.py`, `read.py` and `audit.py`; this module holds what they share.
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
AtOption = Annotated[
    str | None,
    typer.Option("--at", help="A point: event position, command id, ISO time, or chapter:3 / scene:12 / issue:2 …"),
]
RevisionOption = Annotated[int | None, typer.Option("--revision", help="A revision of the campaign (default: current).")]


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
    from ...domain.errors import CommandRejected
    from ...store import Store

    try:
        return Store.open(url)
    except CommandRejected as error:
        fail(str(error))
    except Exception as error:  # the database cannot be reached or opened
        from ...store import default_url
        from ...store.failures import read_only_hint

        fail(f"cannot open the store {url or ''}: {error}{read_only_hint(url or default_url())}")


def reader_for(url: str | None, *, runs_commands: bool = True) -> Any:
    """The store's projections, caught up.

    A verb that only reads (`runs_commands=False`) logs nothing, so unless -v it does not
    configure structlog: importing it is a fifth of `rollbook sheet`'s start-up.
    """
    from ...projections.queries import Reader

    if runs_commands or settings.verbose:
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
        from ...domain.errors import CommandRejected
        from ...store.failures import RERUN_HINT, describe, is_store_failure

        try:
            return function(*args, **kwargs)
        except CommandRejected as error:
            fail(str(error))
        except Exception as error:  # the database went away, is read-only or full
            if not is_store_failure(error):
                raise
            fail(f"the store failed: {describe(error)}" + (f"; {RERUN_HINT}" if function.__name__ == "run" else ""))

    return wrapper


def read_file(file: str) -> bytes:
    try:
        return Path(file).read_bytes()
    except OSError as error:
        fail(f"cannot read {file}: {error.strerror}")


# --- printing -----------------------------------------------------------------------------


def cell(value: Any) -> str:
    from rich.markup import escape

    if isinstance(value, dict | list):
        return escape(json.dumps(value, ensure_ascii=False))
    return "" if value is None else escape(str(value))


def show_table(title: str, columns: list[str], rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*(cell(row.get(c)) for c in columns))
    Console().print(table)


def show_sheet(kind: str, data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{kind}: {data.get('name')}", show_header=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key, value in data.items():
        if key != "name":
            table.add_row(key, cell(value))
    Console().print(table)


def main() -> None:
    app()


# The verbs register themselves on `app` when imported.
from . import audit, follow, odds, read, serve, users, write  # noqa: E402, F401
