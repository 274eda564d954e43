"""Why a command is refused.

Every refusal is a `CommandRejected`: the command writes nothing and the caller is told
what is wrong and, where it is one field, which field. The rule systems raise
`RuleViolation` citing the line of the original rules text (`L45`), so a game master
can check the ruling against the book.

A refusal is said in its reader's language, which the domain does not know: it is raised as a template
and its values (`RuleViolation("{name} holds {luck} luck", field="luck", name=..., luck=...)`), and
`language.refusal` says it in the language spoken where it is shown. `message` is the English,
the language of the record and of every `--json`. A value that is one of the game's words (a stat, a move,
a scope) is a `Word`, translated too; a name a player typed is a plain str, shown as typed. A value that
counts something (`3 luck`, `1 wound`) is a `Count`, said in the plural form the reader's language gives it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def N_(message: str) -> str:  # noqa: N802 — gettext's own name for "marked, translated later"
    """Marks a message the domain keeps (a sheet's title or label, a refusal's afterword) for the catalog; the
    language package translates it where it is shown (the domain says nothing in a language itself)."""
    return message


def NC_(context: str, message: str) -> str:  # noqa: N802 — as N_, with the catalog's context (msgctxt)
    """Marks a word that one game says otherwise than another (one game's wounds are «раны», another's «ранения»):
    kept in the catalog under `context`, the game's name, and said by `language.pgettext` where it is shown."""
    return message


class Word(str):
    """A word of the game's own (a stat, a move, a scope, a resource) given as a refusal's value: the reader
    reads it in their language. Names people chose (a character's, a campaign's) are plain strings."""


@dataclass(frozen=True)
class Count:
    """A counted value of a refusal, `{count}` in its messages: `Count(3, "{count} wound", "{count} wounds")`.
    English takes the singular for 1 only; the reader's language takes the form its plural rule gives the count
    (Russian has three), which is why the two messages travel with the number (`pybabel extract` takes them)."""

    count: int
    singular: str
    plural: str

    def __format__(self, spec: str) -> str:
        return (self.singular if self.count == 1 else self.plural).format(count=self.count)

    def __str__(self) -> str:
        return format(self, "")


class CommandRejected(Exception):
    """A command that cannot be applied; nothing of it is written."""

    #: What every refusal of its kind says after its own message (after "; "), translated on its own.
    afterword: str | None = None

    def __init__(self, message: str, *, field: str | None = None, **values: Any) -> None:
        self.template = message
        self.values = values
        self.message = (message.format(**values) if values else message) + (
            f"; {self.afterword}" if self.afterword else "")
        super().__init__(self.message)
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class RuleViolation(CommandRejected):
    """The command breaks a rule of the campaign's rule system."""


class UnknownName(CommandRejected):
    """The command names a campaign, character, ship or roll that does not exist."""


class DiceError(CommandRejected):
    """Faces given in a command do not fit what the command rolls."""

    def __init__(self, message: str, **values: Any) -> None:
        super().__init__(message, field="dice", **values)


class PermissionDenied(CommandRejected):
    """The actor may not issue this command."""

    def __init__(self, message: str, *, field: str = "actor", **values: Any) -> None:
        super().__init__(message, field=field, **values)


class DamagedHistory(CommandRejected):
    """The stored events of an aggregate cannot be read or folded: the store was damaged or edited
    (bytes that are not JSON, an event gone, an event that does not follow from the ones before it).

    Said in one line, never a traceback; `rollbook verify` lists what is wrong, and where."""

    afterword = N_("the store was damaged or edited: `rollbook verify` says where")

    def __init__(self, message: str, **values: Any) -> None:
        super().__init__(message, field="store", **values)


class RulesetUnavailable(Exception):
    """A ruleset is listed in the entry-point group but cannot be loaded: it is named, never skipped.
    (Here, not in `rulesets`, so the command line catches it without importing every ruleset's basis.)"""
