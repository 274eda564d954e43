"""The rule systems. Each subpackage exposes `RULESET`, a `Ruleset` naming its campaign
class, its sheets, its declared limits and what happens at its timeline boundaries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from functools import cache
import warnings
from importlib import import_module

from ..campaign import Campaign
from ..errors import UnknownName
from ..members import Member
from ..table import Table
from ..timeline import Limit, Scope

NAMES = ("pirates", "heroes", "implant", "gladiators")


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str
    campaign_class: type[Campaign]
    member_classes: tuple[type[Member], ...]
    limits: tuple[Limit, ...]
    #: Rule options a campaign may choose at creation, with their defaults (the digest's
    #: recommended readings); recorded in the campaign's first event.
    default_options: dict[str, object] = field(default_factory=dict)
    #: Refuses option values the rules do not have; called when create_campaign is decided
    #: (a replay trusts the options recorded in the campaign's first event).
    check_options: Callable[[dict[str, Any]], None] | None = None
    #: Effects hooked on a boundary, run before the boundary event itself.
    on_start: Callable[[Table, Scope], None] | None = None
    on_end: Callable[[Table, Scope], None] | None = None


@cache
def ruleset(name: str) -> Ruleset:
    if name not in available():
        raise UnknownName(
            f"unknown ruleset {name!r} (available: {', '.join(available())})", field="ruleset"
        )
    return import_module(f"{__name__}.{name}").RULESET


@cache
def available() -> tuple[str, ...]:
    """The rulesets installed in this build (packages that declare a RULESET), in the order of NAMES.

    A ruleset package that cannot be imported is left out with a warning, so one broken
    rule system does not take the other three down; its own tests still fail.
    """
    from importlib.util import find_spec

    found = []
    for name in NAMES:
        if find_spec(f"{__name__}.{name}") is None:
            continue
        try:
            module = import_module(f"{__name__}.{name}")
        except Exception as error:
            warnings.warn(f"ruleset {name} cannot be loaded: {error!r}", RuntimeWarning, stacklevel=2)
            continue
        if hasattr(module, "RULESET"):
            found.append(name)
    return tuple(found)
