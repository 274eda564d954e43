"""Timeline scopes and once-only limits, shared by every rule system.

Every system cuts play into nested units (the glossary in shared/rules/README.md):
a move/page/round/turn inside a battle, inside a scene, inside a chapter (a ruleset
may call it otherwise: an issue), inside a story, inside the campaign. A `Limit` is declared once with
the scope it counts in; the campaign's ledger refuses a use past its count and forgets
the uses when the scope's boundary passes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .errors import RuleViolation, Word


class Scope(str):
    """A unit of play that limits count in, with its rank (smallest first). The text is the scope's name
    as events, the ledger and `rollbook limits` write it, so a scope compares and hashes as that name.

    The core keeps the common scopes (below); a ruleset declares its own in its rules and lists them in
    `Ruleset.scopes`: one that a timeline opens and closes nests inside a common one
    (`Scope.inside(Scope.SCENE, "conflict")`), one that lasts is never opened or closed (a ship's, kept as long as the ship sails).
    """

    rank: float
    #: Never opened or closed by the timeline: its one instance is the scope itself (the campaign), or
    #: one its own rules name and release (a ship for as long as it sails).
    lasting: bool

    def __new__(cls, name: str, rank: float, lasting: bool = False) -> Scope:
        scope = super().__new__(cls, name)
        scope.rank, scope.lasting = rank, lasting
        return scope

    def __getnewargs__(self) -> tuple[str, float, bool]:  # type: ignore[override]
        # A copy or a pickle is rebuilt with its rank, which the text alone does not carry.
        return str(self), self.rank, self.lasting

    def __repr__(self) -> str:
        return f"Scope({str(self)!r})"

    @property
    def value(self) -> str:
        """The scope's name as a plain string (what events record)."""
        return str(self)

    @classmethod
    def inside(cls, outer: Scope, name: str) -> Scope:
        """A ruleset's own scope that the timeline opens and closes, just inside `outer`: ending `outer`
        ends it, and it ends the common scopes inside `outer` (a conflict inside a scene ends its battle)."""
        return cls(name, outer.rank - 0.5)

    MOVE: ClassVar[Scope]
    BATTLE: ClassVar[Scope]
    SCENE: ClassVar[Scope]
    CHAPTER: ClassVar[Scope]
    STORY: ClassVar[Scope]
    CAMPAIGN: ClassVar[Scope]


Scope.MOVE = Scope("move", 0)
Scope.BATTLE = Scope("battle", 1)
Scope.SCENE = Scope("scene", 2)
Scope.CHAPTER = Scope("chapter", 3)
Scope.STORY = Scope("story", 4)
Scope.CAMPAIGN = Scope("campaign", 5, lasting=True)

#: The common scopes, smallest first, by name.
COMMON_SCOPES = {scope.value: scope for scope in (Scope.MOVE, Scope.BATTLE, Scope.SCENE, Scope.CHAPTER, Scope.STORY,
                                                  Scope.CAMPAIGN)}
#: The common scopes opened and closed by timeline commands (start_*/end_*), outermost last.
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

    def refusal(self, used: int, where: str, *, field: str | None = None) -> RuleViolation:
        """The refusal of a use past the count; the description is the game's words (`Limit` marks them for the
        catalog), `where` is the instance the uses counted in."""
        if self.count == 1:
            return RuleViolation("{description}: only once per {where} ({rule}); already used {used}", field=field,
                                 description=Word(self.description), where=where, rule=self.rule, used=used)
        return RuleViolation("{description}: only {count} times per {where} ({rule}); already used {used}",
                             field=field, description=Word(self.description), count=self.count, where=where,
                             rule=self.rule, used=used)

    def refusal_in(self, used: int, per: str, instance: str) -> RuleViolation:
        """The refusal of a use past the count in an instance of its scope (`per`, the scope's label, is the
        game's word): `… only once per scene (scene 2) …`."""
        if self.count == 1:
            return RuleViolation("{description}: only once per {per} ({instance}) ({rule}); already used {used}",
                                 description=Word(self.description), per=Word(per), instance=instance,
                                 rule=self.rule, used=used)
        return RuleViolation("{description}: only {count} times per {per} ({instance}) ({rule}); already used {used}",
                             description=Word(self.description), count=self.count, per=Word(per), instance=instance,
                             rule=self.rule, used=used)
