"""Deterministic campaigns of each ruleset, for the bench: each game writes its own with the generator its
`Ruleset.generator` names (`rollbook.testing.generated` says what one is), so a plugin's game is generated
as the built-in ones are.
"""

from __future__ import annotations

from importlib import import_module

from rollbook.testing.generated import Campaign

#: Bump when a generator changes what it writes (cached stores are keyed by it).
VERSION = 1

__all__ = ["VERSION", "Campaign", "available", "generate"]


def available() -> list[str]:
    """The installed rulesets that have a generator whose commands this build of Rollbook has."""
    from rollbook.commands.catalogue import commands_for
    from rollbook.domain.rulesets import available as installed
    from rollbook.domain.rulesets import ruleset

    return [name for name in installed() if (module := ruleset(name).generator) is not None
            and import_module(module).REQUIRES <= set(commands_for(name))]


def generate(ruleset: str, size: int, seed: int = 7) -> Campaign:
    """`size` commands of `ruleset`'s campaign, the same for the same seed."""
    from rollbook.domain.rulesets import ruleset as ruleset_named

    module = ruleset_named(ruleset).generator
    if module is None:
        raise ValueError(f"ruleset {ruleset!r} has no generator")
    return import_module(module).generate(size, seed)
