"""The rule systems, and how Rollbook finds them.

A rule system is one `Ruleset` object, the one place it registers: its campaign aggregate,
its timeline vocabulary, its limits and rule options, its boundary hooks and the modules that
hold its commands, its narration and its odds. Rulesets are found through the entry-point
group `rollbook.rulesets` (`NAME = "package.module:RULESET"`): the four games of this package
register there in its pyproject.toml, and so does a rule system shipped as its own package
(examples/plugin/). The modules are named, not imported, so the domain imports no outer layer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..aggregate import RollbookAggregate
from ..errors import RulesetUnavailable, UnknownName
from ..options import Options
from ..timeline import COMMON_SCOPES, Limit, Scope

#: What the rules do at a boundary, called with the `Table`. The campaign and the table are named in words, not
#: imported, even for the type checker: a campaign asks this registry for its options and scopes, so importing
#: them here would close a circle (tests/core/test_layers.py).
BoundaryHook = Callable[[Any], None]

#: The entry-point group a rule system registers in.
GROUP = "rollbook.rulesets"
#: The common boundaries a timeline may have, as the start_*/end_* commands name them, and the scope
#: each opens and closes: `issue` is another game's name for the chapter. A ruleset's own
#: boundaries are its own scopes (`Ruleset.scopes`), named as they are.
BOUNDARIES: dict[str, Scope] = {
    "story": Scope.STORY, "chapter": Scope.CHAPTER, "issue": Scope.CHAPTER,
    "scene": Scope.SCENE, "battle": Scope.BATTLE,
}


@dataclass(frozen=True)
class Ruleset:
    name: str
    #: Its campaign aggregate: `Campaign` or a subclass of it (named by its base, as `BoundaryHook` says why).
    campaign_class: type[RollbookAggregate]
    limits: tuple[Limit, ...]
    #: The timeline's vocabulary: the boundaries the game has (keys of BOUNDARIES, or its own scopes'
    #: names); the common start_*/end_* commands are offered for these and no others.
    boundaries: tuple[str, ...]
    #: Modules whose @handles decorators register the game's commands (imported on first use).
    commands: tuple[str, ...]
    #: The module whose `VOICE` tells the game's commands in words; None: told plainly.
    narration: str | None = None
    #: The module whose `odds(plan, options)` computes a roll's chances; None: `rollbook odds` refuses.
    odds: str | None = None
    #: The module whose `LAYOUTS` (kind -> sections, hidden fields) and `key_figures(kind, sheet)` say how the
    #: game's sheets read (domain/sheet_layout.py); None: a sheet is shown whole, in the order it is kept.
    sheets: str | None = None
    #: Rule options a campaign may choose at creation (declared in the ruleset's rules.py); the
    #: choices, defaults filled in, are recorded in the campaign's first event.
    options: Options = field(default_factory=Options)
    #: The scopes of its own, beside the common ones (domain/timeline.py): one the timeline opens and
    #: closes (`Scope.inside(Scope.SCENE, "conflict")`, started and ended by its own commands through
    #: `boundaries.start`/`end`), or one that lasts (a ship, say, that is not inside a scene).
    scopes: tuple[Scope, ...] = ()
    #: What the rules do when a scope starts or ends, by scope; run before the boundary event itself.
    on_start: Mapping[Scope, BoundaryHook] = field(default_factory=dict)
    on_end: Mapping[Scope, BoundaryHook] = field(default_factory=dict)
    #: Where it stands in every listing of rulesets (schema, errors, the web's menus), which entry points do
    #: not keep: lower first, then by name. The games built in take 1-4, in the order the README tells them.
    listed: int = 100
    #: Its common moves, offered as commands of their own where the group plays (Discord's
    #: `/<ruleset>-<short>`): (the short name, the command type), at most a handful.
    common_moves: tuple[tuple[str, str], ...] = ()
    #: The module of its builders for the testing kit's `given` (`created(...)`, `wounded(...)`), which rules
    #: authors import as `from rollbook.testing import <name>`; None: it has none.
    given: str | None = None
    #: The module of its campaign generator, for the bench and the load tests: `REQUIRES`, the command types it
    #: writes, and `generate(size, seed)`, a realistic campaign (rollbook.testing.generated); None: it has none.
    generator: str | None = None
    #: Its book of moves, by kind (move -> en, ru, line), as `rollbook moves` lists it; None: it has none.
    move_book: Callable[[], Mapping[str, Mapping[str, Mapping[str, str]]]] | None = None
    #: The package whose own gettext catalog says its words in other languages
    #: (`<package>/locale/<language>/LC_MESSAGES/<package>.po`, or the `.mo` compiled beside it), read after
    #: Rollbook's own (language/__init__.py); None: its words are Rollbook's, or English only.
    catalog: str | None = None

    def __post_init__(self) -> None:
        own = [scope.value for scope in self.scopes if not scope.lasting]
        unknown = [b for b in self.boundaries if b not in BOUNDARIES and b not in own]
        if unknown:
            raise ValueError(
                f"ruleset {self.name}: unknown boundaries {', '.join(unknown)} (known: {', '.join([*BOUNDARIES, *own])})"
            )
        clashing = [scope.value for scope in self.scopes if scope.value in BOUNDARIES or scope.value in COMMON_SCOPES]
        if clashing:
            raise ValueError(f"ruleset {self.name}: its own scopes {', '.join(clashing)} are named as common ones")

    def boundary_scope(self, boundary: str) -> Scope:
        """The scope a boundary of this game opens and closes (`issue` is the chapter)."""
        return BOUNDARIES.get(boundary) or next(scope for scope in self.scopes if scope.value == boundary)

    @property
    def default_options(self) -> dict[str, Any]:
        """The options a campaign created with none chosen has (the digest's recommended readings)."""
        return self.options.defaults()


def ruleset(name: str) -> Ruleset:
    """The ruleset `name`, loading its entry point alone: a campaign's command imports its own rules."""
    if name not in _points():
        raise UnknownName(
            "unknown ruleset {name!r} (available: {available})",
            field="ruleset", name=name, available=", ".join(available()),
        )
    return _named(name)


def available() -> tuple[str, ...]:
    """The installed rulesets, in their `listed` order, then by name.

    Every one is loaded and checked: a listing names a ruleset that cannot be loaded."""
    return tuple(_registry())


@cache
def _registry() -> dict[str, Ruleset]:
    loaded = [_named(name) for name in _points()]
    return {found.name: found for found in sorted(loaded, key=lambda found: (found.listed, found.name))}


@cache
def _named(name: str) -> Ruleset:
    return _load(_points()[name])


@cache
def _points() -> dict[str, EntryPoint]:
    listed = sorted(entry_points(group=GROUP), key=lambda point: point.name)
    if not listed:
        raise RulesetUnavailable(
            f"no rule system is installed: the entry-point group {GROUP} is empty "
            "(reinstall Rollbook: pip install -e . in a checkout)"
        )
    found: dict[str, EntryPoint] = {}
    for point in listed:
        if point.name in found:
            raise RulesetUnavailable(f"ruleset {point.name!r} is registered twice ({point.value})")
        found[point.name] = point
    return found


def _load(point: EntryPoint) -> Ruleset:
    """The Ruleset an entry point names, or an error that names the entry point and why."""
    where = f"ruleset {point.name!r} ({point.value}, entry point {GROUP})"
    try:
        loaded = point.load()
    except Exception as error:
        raise RulesetUnavailable(f"{where} cannot be loaded: {type(error).__name__}: {error}") from error
    if not isinstance(loaded, Ruleset):
        raise RulesetUnavailable(f"{where} is a {type(loaded).__name__}, not a Ruleset")
    if loaded.name != point.name:
        raise RulesetUnavailable(f"{where} is named {loaded.name!r}: the entry point and the Ruleset must agree")
    return loaded

