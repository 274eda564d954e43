"""Why a command is refused.

Every refusal is a `CommandRejected`: the command writes nothing and the caller is told
what is wrong and, where it is one field, which field. The rule systems raise
`RuleViolation` citing the line of the original rules text (`L45`), so a game master
can check the ruling against the book.
"""

from __future__ import annotations



class CommandRejected(Exception):
    """A command that cannot be applied; nothing of it is written."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class RuleViolation(CommandRejected):
    """The command breaks a rule of the campaign's rule system."""


class UnknownName(CommandRejected):
    """The command names a campaign, character, ship or roll that does not exist."""


class DiceError(CommandRejected):
    """Faces given in a command do not fit what the command rolls."""

    def __init__(self, message: str) -> None:
        super().__init__(message, field="dice")


class PermissionDenied(CommandRejected):
    """The actor may not issue this command."""

    def __init__(self, message: str, *, field: str = "actor") -> None:
        super().__init__(message, field=field)


class DamagedHistory(CommandRejected):
    """The stored events of an aggregate cannot be read or folded: the store was damaged or edited
    (bytes that are not JSON, an event gone, an event that does not follow from the ones before it).

    Said in one line, never a traceback; `rollbook verify` lists what is wrong, and where."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message}; the store was damaged or edited: `rollbook verify` says where", field="store")


class RulesetUnavailable(Exception):
    """A ruleset is listed in the entry-point group but cannot be loaded: it is named, never skipped.
    (Here, not in `rulesets`, so the command line catches it without importing every ruleset's basis.)"""
