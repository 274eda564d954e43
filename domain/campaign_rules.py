"""What a campaign reads of its ruleset's declarations: its rule options and its scopes, found once per
ruleset, since the rules read them several times a command."""

from __future__ import annotations

from functools import cache

from .options import Options
from .timeline import BOUNDED_SCOPES, COMMON_SCOPES, Scope


@cache
def declared_options(ruleset: str) -> Options:
    """The rule options `ruleset` declares."""
    from .rulesets import ruleset as named  # the registry loads the rulesets' packages: imported on use

    return named(ruleset).options


@cache
def scopes_of(ruleset: str) -> tuple[tuple[Scope, ...], dict[str, Scope]]:
    """The scopes a campaign of `ruleset` opens and closes, smallest first, and every scope it knows by
    name: the common ones and its own."""
    from .rulesets import ruleset as named  # as above

    own = named(ruleset).scopes
    bounded = sorted(BOUNDED_SCOPES + tuple(scope for scope in own if not scope.lasting), key=lambda scope: scope.rank)
    return tuple(bounded), {**COMMON_SCOPES, **{scope.value: scope for scope in own}}
