"""How verbs print for people: tables that fit the terminal, sheets grouped as the game's sheet is,
progress bars on a terminal only. rich is imported by each function when it prints, never before:
a verb with `--json` or `-q` does not pay for it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import gettext, printable


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
#: Columns whose values are the game's own words (an outcome, a scope, a kind), said in the reader's language; the
#: colour of an outcome is found from its English.
GAME_WORDS = {"outcome", "scope", "label", "kind"}
#: The first word found in an outcome gives its colour ("partial success" is partial, not a success).
OUTCOME_STYLES = {"critical": "bold red", "partial": "yellow", "miss": "red", "failure": "red",
                  "success": "green", "hit": "green", "held": "green"}


def cell(value: Any) -> str:
    """A value as a table shows it, as rich markup: lists and maps as phrases, yes/no, nothing for None."""
    from rich.markup import escape

    return escape(plain(value))


def plain(value: Any) -> str:
    """A value as a table shows it, in words: no Python value (`True`, `None`) ever reaches the reader."""
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, dict):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value)
    return "" if value is None else printable(value)


def width() -> int:
    """The columns to fit: the terminal's (or $COLUMNS), 80 when the output is no terminal."""
    import shutil

    return shutil.get_terminal_size((80, 24)).columns


def wrapped(text: str, *, indent: str = "", first: str = "") -> str:
    """`text` wrapped between words to the width; a word longer than a line is left whole, never cut."""
    import textwrap

    return textwrap.fill(text, width(), initial_indent=first, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False, replace_whitespace=False) or first.rstrip()


def say_wrapped(text: str, *, indent: str = "  ") -> None:
    """A line in words, wrapped between words to the width (each of its own lines on its own)."""
    from . import say

    say("\n".join(wrapped(line, indent=indent) for line in str(text).split("\n")))


def when(moment: Any) -> str:
    """A time as a table shows it: `03-02 19:00` in English, the day and month as the reader's locale writes
    them in another language (CLDR, `02.03 19:00` in Russian); the full time with -v, and always in --json."""
    from datetime import datetime

    from . import settings

    if not moment or settings.verbose:
        return moment or ""
    try:
        moment = datetime.fromisoformat(str(moment))
    except ValueError:
        return str(moment)
    if settings.language == "en":
        return f"{moment:%m-%d %H:%M}"
    from babel.dates import format_skeleton

    # The clock time as written in the campaign (its own offset), as the English line shows it.
    return f"{format_skeleton('ddMM', moment, locale=settings.language)} {moment:%H:%M}"


def day_and_time(moment: Any) -> str:
    """A date and time in a line of words: `2026-12-07 15:58` in English, as the reader's locale writes it otherwise
    (CLDR's short form, `07.12.2026, 15:58` in Russian)."""
    from . import settings

    if settings.language == "en":
        return f"{moment:%Y-%m-%d %H:%M}"
    from babel.dates import format_datetime

    return format_datetime(moment, "short", tzinfo=moment.tzinfo, locale=settings.language)


def open_unit(unit: str) -> str:
    """A unit of the timeline as `turn 3` names it, its scope in the reader's language."""
    scope, _, number = unit.rpartition(" ")
    return f"{gettext(scope)} {number}" if scope and number.isdigit() else gettext(unit)


def outcome_style(outcome: Any) -> str | None:
    text = str(outcome or "")
    return next((style for word, style in OUTCOME_STYLES.items() if word in text), None)


#: Columns of borders and padding a table of n columns adds: `│ a │ b │` is 3 n + 1.
def _frame(columns: int) -> int:
    return 3 * columns + 1


def _widths(columns: list[str], texts: list[list[str]], room: int) -> list[int] | None:
    """Each column's width so that no word is cut and the table fits `room`; None if it cannot.

    Each column gets at least its longest word (the whole value for an id or a time), then the
    room left goes to the columns whose values are longer than that, the one that lacks least first."""
    least, most = [], []
    for index, column in enumerate(columns):
        values = [row[index] for row in texts]
        words = values if column in WHOLE else [w for v in values for w in v.split()]
        heading = len(gettext(column))
        least.append(max([heading, *map(len, words)]))
        most.append(max([heading, *map(len, values)]))
    spare = room - _frame(len(columns)) - sum(least)
    if spare < 0:
        return None
    widths = list(least)
    # The columns that lack least first: a short value shown whole, the long prose wrapped with what is left.
    for i in sorted(range(len(columns)), key=lambda i: most[i] - least[i]):
        given = min(most[i] - least[i], spare)
        widths[i] += given
        spare -= given
    return widths


def show_table(title: str, columns: list[str], rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """A table that fits the terminal (80 columns included), no word ever cut: ids and times whole on
    one line, the rest wrapped between words; outcomes coloured (rich leaves colour out without a
    terminal or with NO_COLOR). A table whose words cannot all fit side by side is shown a row at a
    time instead, each value under its column's name."""
    from rich.markup import escape
    from rich.table import Table

    shown = out or console()
    texts = [[gettext(plain(row.get(c))) if c in GAME_WORDS else plain(row.get(c)) for c in columns] for row in rows]
    widths = _widths(columns, texts, shown.width)
    if widths is None:
        _show_rows(shown, title, columns, texts)
        return
    table = Table(title=escape(printable(title)))
    for column, size in zip(columns, widths, strict=True):
        table.add_column(escape(gettext(column)), width=size, no_wrap=column in WHOLE, overflow="fold")
    for line, row in zip(texts, rows, strict=True):
        cells = [escape(text) for text in line]
        if "outcome" in columns and (style := outcome_style(row.get("outcome"))):
            index = columns.index("outcome")
            cells[index] = f"[{style}]{cells[index]}[/]"
        table.add_row(*cells)
    shown.print(table)


def _show_rows(shown: Any, title: str, columns: list[str], texts: list[list[str]]) -> None:
    """Too many words side by side for the width: each row as its own block, `column: value` wrapped."""
    import textwrap

    from rich.markup import escape

    def fill(text: str, first: str, indent: str) -> str:
        return textwrap.fill(text, shown.width, initial_indent=first, subsequent_indent=indent,
                             break_long_words=False, break_on_hyphens=False) or first.rstrip()

    lines = [fill(printable(title), "", ""), ""]
    for line in texts:
        lines += [fill(value, f"{gettext(column)}: ", "    ") for column, value in zip(columns, line, strict=True) if value]
        lines.append("")
    shown.print(escape("\n".join(lines).rstrip("\n")), highlight=False, soft_wrap=True)


def show_sheet(kind: str, data: dict[str, Any], *, ruleset: str, out: Any = None) -> None:
    """A sheet grouped as the game's sheet is (see sheets.py); --json is the sheet as stored."""
    from rich.markup import escape
    from rich.table import Table

    from ..projections.sheets import sections

    table = Table(title=f"{escape(gettext(kind))}: {escape(printable(data.get('name')))}", show_header=False)
    table.add_column("field", style="bold", no_wrap=True)
    table.add_column("value", overflow="fold")
    for number, (title, rows) in enumerate(sections(ruleset, kind, data)):
        if number:
            table.add_section()
        table.add_row(f"[underline]{escape(title)}[/]", "")
        for label, value in rows:
            table.add_row(escape(printable(label)), escape(printable(value)))
    (out or console()).print(table)
