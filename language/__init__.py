"""The language a person reads Rollbook in: gettext message catalogs made with Babel, CLDR plurals and numbers.

Text a person reads is marked where it is written: `gettext("…")` (or `said("…")` in narration) for a
message, `ngettext("…", "…", n)` for one that counts, `N_("…")` for a word kept in a table and translated
where it is shown. `pybabel extract` finds them (the command is in README, "Languages"); the catalog
`locale/ru/LC_MESSAGES/rollbook.po` holds their Russian, its Plural-Forms the CLDR rule Babel wrote for it.

Which language speaks is chosen by whoever shows the text, for the time it shows it (`speaking`): the CLI's
`--lang`, a campaign's `language` option for what its group reads together. English is the messages as
written, so an English line is the same, byte for byte, whether it passed through here or not. Events and
JSON never do: what is recorded and what programs read stays free of the reader's language.
"""

from __future__ import annotations

import gettext as _gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from ..domain.errors import N_ as N_  # the one marker: a word kept in a table, translated where shown
from ..domain.errors import NC_ as NC_  # the same, for a word one game says otherwise than another
from ..domain.errors import CommandRejected, Count, Word
from ..domain.options import ENGLISH, LANGUAGES

DOMAIN = "rollbook"
#: The catalogs, at the package's root (locale/<language>/LC_MESSAGES/rollbook.po; a wheel has the .mo beside).
CATALOGS = Path(__file__).parent.parent / "locale"

_speaking: ContextVar[str] = ContextVar("language", default=ENGLISH)


def compiled(catalogs: Path, domain: str, language: str) -> _gettext.GNUTranslations | None:
    """The catalog `domain` of `language` under `catalogs`: its compiled .mo (a wheel holds it), else its .po
    compiled in memory (a source checkout, an editable install); None where it has neither."""
    folder = catalogs / language / "LC_MESSAGES"
    if (folder / f"{domain}.mo").exists():
        with (folder / f"{domain}.mo").open("rb") as stream:
            return _gettext.GNUTranslations(stream)
    if not (folder / f"{domain}.po").exists():
        return None
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (folder / f"{domain}.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def plugin_catalogs(language: str) -> list[_gettext.GNUTranslations]:
    """The catalogs of `language` that installed rulesets bring of their own (`Ruleset.catalog`, a package)."""
    from importlib.resources import files

    from ..domain.rulesets import available, ruleset

    found = []
    for name in available():
        package = ruleset(name).catalog
        if package is not None:
            translation = compiled(Path(str(files(package))) / "locale", package.rsplit(".", 1)[-1], language)
            if translation is not None:
                found.append(translation)
    return found


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The catalog of `language`: Rollbook's, then those of the rulesets that bring their own (a message
    Rollbook's lacks is looked up there). English is the messages themselves."""
    if language == ENGLISH:
        return _gettext.NullTranslations()
    own = compiled(CATALOGS, DOMAIN, language)
    if own is None:
        raise FileNotFoundError(f"Rollbook's catalog for {language!r} is missing under {CATALOGS}")
    for plugin in plugin_catalogs(language):
        own.add_fallback(plugin)
    return own


def chat_language(tag: str | None) -> str:
    """The language Rollbook speaks to a chat's user, from the locale his client says (Discord's `locale`,
    `en-US`, `ru`; Telegram's `language_code`): his language where Rollbook speaks it, else English."""
    from babel import Locale, UnknownLocaleError

    try:
        language = Locale.parse((tag or ENGLISH).replace("_", "-"), sep="-").language
    except (UnknownLocaleError, ValueError, TypeError):
        return ENGLISH
    return language if language in LANGUAGES else ENGLISH


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Text marked for translation comes in `language` inside this block (a language Rollbook does not
    speak falls back to English)."""
    token = _speaking.set(language if language in LANGUAGES else ENGLISH)
    try:
        yield
    finally:
        _speaking.reset(token)


def spoken() -> str:
    """The language text is said in here and now."""
    return _speaking.get()


def gettext(message: str) -> str:
    """`message` in the language spoken now."""
    return translations(spoken()).gettext(message)


def pgettext(context: str, message: str) -> str:
    """`message` in the language spoken now, as `context` (a game, `NC_`) says it where the catalog has it so;
    else as the plain message is said (a word every game says alike, a plugin's own catalog)."""
    said = translations(spoken()).pgettext(context, message)
    return said if said != message else gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for `count`, by the language's plural rule (CLDR: 1, 2–4, 5–20 in Russian)."""
    return translations(spoken()).ngettext(singular, plural, count)


def number(value: float) -> str:
    """A count as the language writes it, by CLDR: 1 500 in Russian. English keeps the digits ungrouped, as its
    lines have always had them (1500 piastres): they are pasted and read by scripts as they are."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=spoken(), group_separator=spoken() != ENGLISH)



def refusal(error: CommandRejected) -> str:
    """A refusal as its reader reads it: its template in the language spoken now, filled with its values, the
    game's words among them (`Word`) and its counts (`Count`) translated too; names people typed stay as typed.
    English is `error.message`."""
    text = gettext(error.template)
    if error.values:
        text = text.format(**{key: _said(value) for key, value in error.values.items()})
    afterword = getattr(error, "afterword", None)  # a bad command (commands.parse.CommandError) has none
    return f"{text}; {gettext(afterword)}" if afterword else text


def _said(value: object) -> object:
    """A refusal's value in the language spoken now: a game's word translated, a count in its plural form."""
    if isinstance(value, Word):
        return gettext(value)
    if isinstance(value, Count):
        return ngettext(value.singular, value.plural, value.count).format(count=number(value.count))
    if isinstance(value, CommandRejected):  # a reason given as another's part (the witness's: "{reason} (refused …)")
        return refusal(value)
    return value
