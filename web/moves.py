"""A character's moves on his sheet's card: the game's common moves, then its book of moves, as its
Ruleset declares them (`common_moves`, `move_book`), in the book's own groups.

Each move is a link to a short form that has everything the move decides already set: the command,
the character, the move's name and the stat the book fixes for it (`x-sets` on the field that names
the move). Only the commands the member may post are listed (a player: none that is the GM's alone).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from ..domain.rulesets import ruleset
from ..domain.options import ENGLISH
from ..language import N_, gettext, spoken
from .field_words import said
from .form_fields import words
from .wording import humanised

#: The cards' own words; a game's common moves and its book's groups are marked in its narration module.
CARD_WORDS = (N_("Common moves"), N_("move"))


@dataclass(frozen=True)
class Move:
    label: str
    type: str
    #: The fields the move decides, beside the character: the book's move, and the stat it rolls.
    decides: tuple[tuple[str, str], ...] = ()

    def query(self, character: str, card: str) -> str:
        """The form's address for this move of `character`, drawn inside the card `card`."""
        decided = {"character": character, **dict(self.decides)}
        return urlencode({"type": self.type, **decided, "card": card, "decided": ",".join(decided)})


def moves_of(ruleset_name: str, models: dict[str, type]) -> list[tuple[str, list[Move]]]:
    """(group title, its moves) of the game, for a member who may post `models`; empty groups left out."""
    rules = ruleset(ruleset_name)
    groups = [(gettext("Common moves"), [Move(said_word(short), kind) for short, kind in rules.common_moves
                                         if kind in models])]
    if rules.move_book is not None:
        named = _fields_naming_moves(models)
        for kind, book in rules.move_book().items():
            groups.append((said_word(kind), [move for key, entry in book.items()
                                                    if (move := _book_move(key, entry, models, named))]))
    return [(title, moves) for title, moves in groups if moves]


def said_word(name: str) -> str:
    """A move's or a group's identifier as a card says it, in the page's language: `additional_ship` is
    "Additional ship"."""
    return words(gettext(name.replace("_", " ")))


def book_name(entry: dict[str, Any]) -> str:
    """A move of the book by its name in the page's language (the book holds the original's Russian)."""
    return str(entry.get(spoken()) or entry["en"])


def purpose_words(purpose: Any, ruleset_name: str) -> str:
    """A roll's purpose as a page says it: in English as ever (`move:wriggle_out` "move: wriggle out"), in
    another language its words translated and a move of the book by its name there ("ход: Выкрутиться")."""
    if spoken() == ENGLISH:
        return humanised(purpose)
    kind, marked, key = str(purpose or "").partition(":")
    rules = ruleset(ruleset_name)
    book = {k: entry for entries in rules.move_book().values() for k, entry in entries.items()} \
        if rules.move_book is not None else {}
    named = book_name(book[key]) if key in book else said(key)
    return f"{said(kind)}: {named}" if marked else said(kind)


def book_choices(ruleset_name: str, choices: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A choice among the book's moves (`x-choices`: "Wriggle Out (L23)"), each said by its name in the
    page's language, its line kept; a choice that is not a move of the book stays as it is."""
    rules = ruleset(ruleset_name)
    if rules.move_book is None:
        return choices
    book = {key: entry for entries in rules.move_book().values() for key, entry in entries.items()}
    return [(value, f"{book_name(book[value])} ({book[value]['line']})" if value in book and "line" in book[value]
             else shown) for value, shown in choices]


def _fields_naming_moves(models: dict[str, type]) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Move key -> (command type, the field that names it, what choosing it sets), from the fields whose
    schema lists the book's moves (`x-choices`)."""
    named = {}
    for kind, model in models.items():
        for name, spec in model.model_json_schema().get("properties", {}).items():  # type: ignore[attr-defined]
            for key in spec.get("x-choices") or ():
                named.setdefault(key, (kind, name, spec.get("x-sets") or {}))
    return named


def _book_move(key: str, entry: dict[str, Any], models: dict[str, type],
               named: dict[str, tuple[str, str, dict[str, Any]]]) -> Move | None:
    """A move of the book as a card lists it: one played by a command of its own opens that command;
    one rolled with a move's field opens that command with the move (and the stat it fixes) set; one the
    GM applies with another command (an automatic move) is not listed."""
    if entry.get("command") in models:
        return Move(book_name(entry), entry["command"])
    if key not in named:
        return None
    kind, field, sets = named[key]
    fixed = tuple((target, by_move[key]) for target, by_move in sets.items() if key in by_move)
    return Move(book_name(entry), kind, ((field, key), *fixed))
