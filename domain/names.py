"""A name that looks right but is not: a Cyrillic `А` typed for a Latin `A`, a fullwidth campaign id.

A refusal that lists the known names ends with `lookalike_hint(given, known)`: which letters of the
given name are not what they look like (named as Unicode names them, with their code point) and
which known name was meant. Only a known name the given one matches letter for letter, once its
look-alikes are put aside, is suggested; a plain misspelling gets no hint here.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable

#: At most this many look-alike letters are named one by one; the rest are counted.
NAMED = 2


def _described(char: str) -> str:
    name = unicodedata.name(char, "an unnamed character")
    return f"{name} (U+{ord(char):04X})"


def _letter(char: str) -> tuple[str, str] | None:
    """(CAPITAL or SMALL, the letter's own name) for a letter of any script: LATIN CAPITAL LETTER A and
    CYRILLIC CAPITAL LETTER A are both (CAPITAL, A)."""
    words = unicodedata.name(char, "").split()
    if "LETTER" not in words or words.index("LETTER") + 1 >= len(words):
        return None
    case = "CAPITAL" if "CAPITAL" in words else "SMALL"
    return case, " ".join(words[words.index("LETTER") + 1 :])


def _differences(given: str, known: str) -> list[tuple[str, str]] | None:
    """The (given, known) letters that differ, if every one of them is a foreign letter in `given`
    standing where `known` has a plain one; else None."""
    if unicodedata.normalize("NFKC", given) == known and given != known:
        return [(g, k) for g, k in zip(given, known, strict=False) if g != k] or [(given[0], known[0])]
    if len(given) != len(known):
        return None
    found = [(g, k) for g, k in zip(given, known, strict=True) if g != k]
    if not found or any(g.isascii() or not k.isascii() for g, k in found):
        return None
    return found


def _likeness(found: list[tuple[str, str]]) -> int:
    """How many differing letters carry the very name of the letter they stand for (Cyrillic A for A)."""
    return sum(1 for g, k in found if _letter(g) is not None and _letter(g) == _letter(k))


def lookalike_hint(given: str, known: Iterable[str]) -> str:
    """`; 'Аnna' has a look-alike letter: 'А', CYRILLIC CAPITAL LETTER A (U+0410). Did you mean 'Anna'?`,
    or "" when no known name is the given one with look-alike letters."""
    if not isinstance(given, str) or given.isascii():
        return ""
    matches = [(name, found) for name in known if (found := _differences(given, name)) is not None]
    if not matches:
        return ""
    meant, found = max(matches, key=lambda match: _likeness(match[1]))
    letters = list(dict.fromkeys(g for g, _ in found))
    named = ", ".join(f"{letter!r}, {_described(letter)}" for letter in letters[:NAMED])
    more = f", and {len(letters) - NAMED} more" if len(letters) > NAMED else ""
    which = f"a look-alike letter: {named}" if len(letters) == 1 else f"look-alike letters: {named}{more}"
    return f"; {given!r} has {which}. Did you mean {meant!r}?"


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """`; did you mean `threaten_violence`?` for a misspelt name close to a known one, else ""."""
    close = difflib.get_close_matches(given, list(known), n=1) if isinstance(given, str) else []
    return f"; did you mean `{close[0]}`?" if close else ""
