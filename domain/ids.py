"""Deterministic aggregate ids.

Every aggregate id is a uuid5 of the campaign and the name the users know it by, so a
command names "Anna" and the store finds her without an index, and two writers creating
the same thing collide on the id instead of creating it twice.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from uuid import UUID, uuid5

ROLLBOOK_NAMESPACE = UUID("5d1f6c2e-8a8b-4f57-9f0e-7c1c2a6b9e31")


#: How many ids each cache keeps. A command looks its campaign and members up several times,
#: and uuid5 hashes each time; but a long campaign names ever new scenes, so the cache is bounded
#: rather than as big as the history (bench/RESULTS.md, memory rows). The aggregate cache keeps as
#: many aggregates: an id missed here is one whose aggregate is read from the store.
ID_CACHE_SIZE = 4096


@lru_cache(maxsize=ID_CACHE_SIZE)
def campaign_id(campaign: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"campaign:{campaign}")


@lru_cache(maxsize=ID_CACHE_SIZE)
def member_id(campaign: str, kind: str, name: str) -> UUID:
    """Id of a character, ship, enemy or scene of a campaign."""
    return uuid5(ROLLBOOK_NAMESPACE, f"{campaign}:{kind}:{name}")


@lru_cache(maxsize=1024)
def command_claim_id(campaign: str, command_id: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"{campaign}:command:{command_id}")


#: How long an id is shown whole where room is short (a sheet's row, a table, a title); a longer one (a web
#: post's 32-digit key, as ids were before issue 45) is cut to its beginning and `…`. `--json` has it whole.
LONGEST_SHOWN = 14
CUT = "…"


def shown_id(value: str) -> str:
    """An id as a sheet's row or a title shows it: whole up to LONGEST_SHOWN characters, else its first 12 and `…`."""
    return value if len(value) <= LONGEST_SHOWN else value[:LONGEST_SHOWN - 2] + CUT


def id_problem(value: str) -> str | None:
    """Why `value` cannot be a campaign's or a command's id ("it ..."), or None.

    An id names a folder of secret seeds and is typed back by people reading a forum: so no
    path component (`.`, `..`, a separator), no control or invisible formatting character,
    and nothing that merely looks like another id (a fullwidth `ａ`, a Cyrillic `а` among
    Latin letters).
    """
    if value in (".", ".."):
        return "is a path component, not a name"
    if value.isascii() and value.isprintable() and "/" not in value and "\\" not in value:
        return None  # printable ASCII: no control character, already NFKC, Latin letters only
    for character in value:
        if character in "/\\":
            return f"contains a path separator ({character!r})"
        if unicodedata.category(character) in ("Cc", *INVISIBLE):
            return f"contains the control or invisible character U+{ord(character):04X}"
    return lookalike_problem(value)


#: Categories of characters nothing shows (format, surrogate, private use, unassigned): a name
#: holding one looks like the same name without it.
INVISIBLE = ("Cf", "Cs", "Co", "Cn")
#: Scripts written together in one name that no reader takes for each other (Japanese mixes kanji
#: and kana): counted as one when a name is held to a single script.
SCRIPT_OF = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "KATAKANA-HIRAGANA": "CJK"}


def lookalike_problem(value: str) -> str | None:
    """Why `value` only looks like another name or id ("it ..."), or None: the ids' rule, which a
    character's, ship's or enemy's name is held to as well (`Campaign.enrol`).

    An invisible character, one that NFKC folds into another (a fullwidth `ａ`, a decomposed
    accent), or letters of two scripts (a Cyrillic `а` in `Jаck`) would let two names look alike
    and be told apart by no reader. A control character is not refused here: it is printed
    escaped (`\\x1b`), so it never looks like anything else.
    """
    if value.isascii():
        return None  # no invisible character, already NFKC, Latin letters only
    for character in value:
        if unicodedata.category(character) in INVISIBLE:
            return f"contains the invisible character U+{ord(character):04X}"
    normal = unicodedata.normalize("NFKC", value)
    if normal != value:
        odd = next((c for c in value if unicodedata.normalize("NFKC", c) != c), None)
        if odd is None:
            return f"is not written in composed characters: write it as {normal!r}"
        return f"contains {odd!r} (U+{ord(odd):04X}), a look-alike of {unicodedata.normalize('NFKC', odd)!r}"
    scripts = sorted({SCRIPT_OF.get(word, word) for word in (unicodedata.name(c, "?").split()[0] for c in value
                                                             if c.isalpha())})
    if len(scripts) > 1:
        return f"mixes letters of {' and '.join(scripts)}, which look alike; use one script"
    return None
