"""How a game's sheet reads, declared by the game itself: sections of (label, value) rows read
from a sheet as the projections keep it, and the fields it keeps for its own bookkeeping.

A ruleset names the module of its layout (`Ruleset.sheets`): its `LAYOUTS`, kind -> (sections,
hidden fields), and `key_figures(kind, sheet)`, the few numbers a GM looks for first in a listing.
`projections/sheets.py` reads them for the terminal, the pages, the API and the forum lines alike.
Pure functions of a sheet: no I/O.

Sections' titles and rows' labels are English words the projections say in the reader's language (issue 49);
a value made of words and numbers is a `Phrase`, its template marked `N_` for the catalog, so that it is said
whole in that language too. The English is the text as written.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import N_

Sheet = Mapping[str, Any]
Rows = list[tuple[str, str]]
Section = tuple[str, Callable[[Sheet], Rows]]
#: kind -> (its sections, the fields no section shows and none should: bookkeeping)
Layouts = Mapping[str, tuple[list[Section], set[str]]]


class Phrase(str):
    """A value in words with numbers in it (`5 of 6`): the English text, with the template and the values the
    reader's language says it from (a value may be a Phrase itself)."""

    template: str
    #: The plural template of a counted phrase (its `count` value chooses the form by the language's rule).
    plural: str | None
    values: dict[str, Any]

    def __new__(cls, template: str, plural: str | None = None, **values: Any) -> Phrase:
        english = plural if plural is not None and values.get("count") != 1 else template
        phrase = super().__new__(cls, english.format(**values) if values else english)
        phrase.template, phrase.plural, phrase.values = template, plural, values
        return phrase


class Term(Phrase):
    """One of a game's own words that another game says otherwise (one game's wounds are «раны», another's
    «ранения»): said as its game (`context`, the game's name, marked `NC_` there) says it, else as a plain word."""

    context: str

    def __new__(cls, context: str, word: str) -> Term:
        term = super().__new__(cls, word)
        term.context = context
        return term


def listed(parts: list[str], separator: str = ", ") -> str:
    """Values one after another, each said in the reader's language (a `Phrase` of `Phrase`s)."""
    return Phrase(separator.join(f"{{part{i}}}" for i in range(len(parts))),
                  **{f"part{i}": part for i, part in enumerate(parts)})


YES, NO = Phrase(N_("yes")), Phrase(N_("no"))


def said(value: Any) -> str:
    """A value in words: numbers as they are, yes/no, lists and maps as phrases, — for nothing."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return YES if value else NO
    if isinstance(value, list):
        return listed([said(v) for v in value])
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {said(v)}" for k, v in value.items())
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def word(value: Any) -> str:
    """A value that is one of the game's own words (a rank, a style), said in the reader's language; a name a
    player chose is left to `said`, shown as typed."""
    if isinstance(value, list) and value:
        return listed([word(part) for part in value])
    return Phrase(said(value)) if isinstance(value, str) else said(value)


def out_of(value: Any, most: Any) -> str:
    """`5 of 6`: what is left of a most (Health, a hull)."""
    return Phrase(N_("{value} of {most}"), value=value, most=most)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def fields(*names: str, labels: Mapping[str, str] | None = None, show: Callable[[Any], str] = said
           ) -> Callable[[Sheet], Rows]:
    """One row per field the sheet has, its value shown by `show` (`word` for the game's own words)."""
    def rows(sheet: Sheet) -> Rows:
        return [((labels or {}).get(n, n.replace("_", " ")), show(sheet[n])) for n in names if n in sheet]
    return rows


def spread(name: str, show: Callable[[Any], str] = said) -> Callable[[Sheet], Rows]:
    """One row per entry of a map field (a stat, an ability, a skill each on its line)."""
    def rows(sheet: Sheet) -> Rows:
        return [(key.replace("_", " "), show(value)) for key, value in (sheet.get(name) or {}).items()]
    return rows
