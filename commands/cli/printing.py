"""How verbs print for people: tables that fit the terminal, sheets grouped as the game's sheet is,
progress bars on a terminal only. rich is imported by each function when it prints, never before:
a verb with `--json` or `-q` does not pay for it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import printable


@contextmanager
def progress_bar(description: str, total: int) -> Iterator[Callable[[int], None]]:
    """A bar with its total for long work, on a terminal only (none for a total of 0); yields `done(n)`."""
    if not total or not sys.stdout.isatty():
        yield lambda _: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda done: bar.update(task, completed=done)


@contextmanager
def phased_bar(shown: bool = True) -> Iterator[Callable[[str, int, int | None], None]]:
    """A bar for work in phases whose totals are learnt as it goes (import, a dispute), on a terminal only;
    yields `done(phase, n, total)`."""
    if not shown or not sys.stdout.isatty():
        yield lambda *_: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  transient=True) as bar:
        task = bar.add_task("", total=None)
        yield lambda phase, done, total: bar.update(task, description=phase, completed=done, total=total)



def console() -> Any:
    """Where tables go: colour only on a terminal and without NO_COLOR (rich reads both)."""
    from rich.console import Console

    return Console()


#: Columns a user types back (ids) and times: never wrapped, never cut.
WHOLE = {"id", "campaign", "ruleset", "roll", "dispute", "revision", "seq", "position", "number", "limit", "move", "at",
         "last"}
#: The first word found in an outcome gives its colour ("partial success" is partial, not a success).
OUTCOME_STYLES = {"critical": "bold red", "partial": "yellow", "miss": "red", "failure": "red",
                  "success": "green", "hit": "green", "held": "green"}


def cell(value: Any) -> str:
    from rich.markup import escape

    if isinstance(value, dict):
        return escape(", ".join(f"{k} {cell(v)}" for k, v in value.items()))
    if isinstance(value, list):
        return escape(", ".join(cell(v) for v in value))
    return "" if value is None else escape(printable(value))


def outcome_style(outcome: Any) -> str | None:
    text = str(outcome or "")
    return next((style for word, style in OUTCOME_STYLES.items() if word in text), None)


def show_table(title: str, columns: list[str], rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """A table that fits the terminal: ids whole on one line, the rest wrapped between words;
    outcomes coloured (rich leaves colour out without a terminal or with NO_COLOR)."""
    from rich.markup import escape
    from rich.table import Table

    cells = [[cell(row.get(c)) for c in columns] for row in rows]
    table = Table(title=escape(printable(title)))
    for column in columns:
        # Other columns wrap between words; rich folds a word only if it is wider than the whole column can be.
        table.add_column(column, no_wrap=True) if column in WHOLE else table.add_column(column, overflow="fold")
    for line, row in zip(cells, rows, strict=True):
        if "outcome" in columns and (style := outcome_style(row.get("outcome"))):
            index = columns.index("outcome")
            line[index] = f"[{style}]{line[index]}[/]"
        table.add_row(*line)
    (out or console()).print(table)


def show_sheet(kind: str, data: dict[str, Any], *, ruleset: str, out: Any = None) -> None:
    """A sheet grouped as the game's sheet is (see sheets.py); --json is the sheet as stored."""
    from rich.markup import escape
    from rich.table import Table

    from .sheets import sections

    table = Table(title=f"{kind}: {escape(printable(data.get('name')))}", show_header=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for number, (title, rows) in enumerate(sections(ruleset, kind, data)):
        if number:
            table.add_section()
        table.add_row(f"[underline]{escape(title)}[/]", "")
        for label, value in rows:
            table.add_row(escape(printable(label)), escape(printable(value)))
    (out or console()).print(table)
