"""The record in the game's words for the pages: identifiers humanised, times to the minute.

The rulesets name their outcomes, limits and purposes with identifiers (`partial_success`,
`luck_roll_bonus`, `move:audacity`) and declare no display names, so a page says them with the
underscores as spaces. A time is shown to the minute, as the page's language writes it (CLDR, by Babel); the
exact stored time is its title, and the browser's script turns the minute into the reader's own zone (without
it, UTC is said).
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Any

from babel.dates import format_datetime

from ..domain.options import ENGLISH
from .. import language
from ..language import spoken

#: A minute as each language writes it: English as the pages always had it, ISO-like; else the CLDR month's name.
MINUTE = {ENGLISH: "yyyy-MM-dd HH:mm 'UTC'"}
MINUTE_IN_WORDS = "d MMMM y, HH:mm 'UTC'"


def humanised(name: Any) -> str:
    """`partial_success` reads "partial success", `move:audacity` "move: audacity"."""
    if name is None:
        return ""
    return str(name).replace("_", " ").replace(":", ": ").replace(":  ", ": ").strip()


def minute(stamp: Any) -> dict[str, str]:
    """A stored time as the page shows it: to the minute in UTC, with the exact time for its title and
    the machine-readable one for `<time datetime>`; a time that does not parse is shown as stored."""
    text = str(stamp or "")
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return {"shown": text, "exact": text, "iso": ""}
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    shown = format_datetime(when, MINUTE.get(spoken(), MINUTE_IN_WORDS), tzinfo=timezone.utc, locale=spoken())
    return {"shown": shown, "exact": when.isoformat(), "iso": when.isoformat()}


def install(environment: Any) -> None:
    """The filters the templates use (`words`, `minute`, `tr`), and their messages in the page's language: Jinja2's
    i18n extension with the gettext of language/__init__.py (`{% trans %}`, `_()`, `ngettext`)."""
    environment.filters["words"] = humanised
    environment.filters["minute"] = minute
    environment.add_extension("jinja2.ext.i18n")
    environment.install_gettext_callables(language.gettext, language.ngettext, newstyle=True)
    environment.globals["spoken"] = language.spoken
    environment.filters["tr"] = translated
    environment.filters["part"] = part_of_play


#: A part of play with its number, as the timeline names it: "chapter 2", "issue 3".
NUMBERED = re.compile(r"(?P<unit>\D+) (?P<number>\d+)")


def part_of_play(name: Any) -> str:
    """"chapter 2" with its unit in the page's language ("глава 2"); any other name translated whole."""
    found = NUMBERED.fullmatch(str(name or ""))
    if found is None:
        return translated(name)
    return f"{translated(found['unit'])} {found['number']}"


#: A count of something the record says in words: "2 damage", "3 raises".
COUNTED = re.compile(r"(?P<count>\d+) (?P<what>.+)")


def translated(word: Any) -> str:
    """A word of the record (a role, a scope, an outcome) in the page's language, where the catalog has it
    (marked with N_ where it is kept); nothing stays nothing (gettext's "" is the catalog's header). An outcome
    of several parts ("success, 1 raise") is said part by part, a count in its plural form ("1 подъём")."""
    if not word:
        return ""
    text = str(word)
    said = language.gettext(text)
    if said != text or spoken() == ENGLISH:
        return said
    return ", ".join(_counted(part) for part in text.split(", "))


def _counted(part: str) -> str:
    """"3 raises" by the catalog's counted message ("{count} raise", "{count} raises"), in the plural form the
    language gives the count; a part the catalog does not count is said as a word."""
    found = COUNTED.fullmatch(part)
    if found is None:
        return language.gettext(part)
    count, what = int(found["count"]), found["what"]
    for singular in dict.fromkeys([what, what.removesuffix("s")]):  # "raises" is counted as "{count} raise"
        said = language.ngettext(f"{{count}} {singular}", "", count)
        if said not in (f"{{count}} {singular}", ""):
            return said.format(count=language.number(count))
    return part
