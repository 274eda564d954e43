"""Finding a character's trait by name (§2): an ability, a talent, a power or an imitated power (a stunt),
with its kind, rank and what it can be used for, as the checks and attacks roll it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...errors import RuleViolation, UnknownName, Word


def find(who: str, name: str, *, field: str, abilities: dict[str, int],
         books: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The trait `name` (case does not matter) of `who`, from his abilities and his other `books` (kind, traits)."""
    wanted = name.strip().casefold()
    if wanted in abilities:
        return {
            "name": wanted, "kind": "ability", "rank": abilities[wanted],
            "uses": ["attack"] if wanted in ("strength", "agility") else [],
            "lethal": True, "passive": wanted == "stamina", "effect": None, "area": False,
        }
    for kind, book in books:
        for key, value in book.items():
            if key.casefold() == wanted:
                if kind == "talent":
                    return {"name": key, "kind": kind, "rank": value, "uses": [], "lethal": True,
                            "passive": False, "effect": None, "area": False}
                if value["rank"] is None:
                    raise RuleViolation(
                        "{name}'s {key} has no rank, so it rolls no dice (L25)",
                        field=field, name=who, key=Word(key),
                    )
                return {"name": key, "kind": kind, **value}
    known = [*abilities, *(key for _, book in books for key in book)]
    raise UnknownName(
        "{name} has no trait {trait!r} (known: {known})",
        field=field, name=who, trait=name, known=", ".join(known),
    )
