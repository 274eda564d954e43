"""Timeline scopes and once-only limits, shared by the four rule systems.

Every system cuts play into nested units (the glossary in shared/rules/README.md):
a move/page/round/turn inside a battle, inside a scene, inside a chapter (the heroes
call it an issue), inside a story, inside the campaign. A `Limit` is declared once with
the scope it counts in; the campaign's ledger refuses a use past its count and forgets
the uses when the scope's boundary passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Scope(StrEnum):
    """Generic scopes, smallest first; each ruleset names them in its own terms."""

    MOVE = "move"
    BATTLE = "battle"
    SCENE = "scene"
    CHAPTER = "chapter"
    STORY = "story"
    CAMPAIGN = "campaign"
    #: Limits held by a ship for as long as it sails (e.g. each development once).
    SHIP = "ship"

    @property
    def rank(self) -> int:
        return list(Scope).index(self)


#: Scopes that are opened and closed by timeline commands (start_*/end_*), outermost last.
BOUNDED_SCOPES = (Scope.BATTLE, Scope.SCENE, Scope.CHAPTER, Scope.STORY)


@dataclass(frozen=True)
class Limit:
    """A once-only (or n-times-only) rule: `count` uses per `scope`, per holder."""

    name: str
    scope: Scope
    count: int
    rule: str
    description: str
    #: What one instance of the scope is called when the rule counts in a unit of its own that the
    #: timeline does not open and close (a day of the campaign): the refusal says "once per day".
    per: str | None = None

    def refusal(self, used: int, where: str) -> str:
        times = "once" if self.count == 1 else f"{self.count} times"
        return (
            f"{self.description}: only {times} per {where} ({self.rule}); "
            f"already used {used}"
        )
