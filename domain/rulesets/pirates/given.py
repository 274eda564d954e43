"""Builders for pirate-game tests (`from rollbook.testing import pirates`): what a campaign's history
already holds.

`created(...)` is a create_character command with neutral defaults (every stat 0, no luck);
`wounded(...)` appends wounds as history, without the harm that caused them.
"""

from __future__ import annotations

from typing import Any

from ....testing.kit import Given, History
from ...table import Table
from .pirate import Pirate
from .rules import STATS

RULESET = "pirates"


def created(name: str, *, player: str | None = None, luck: int = 0, **fields: Any) -> Given:
    """A pirate; stats may be given by name (`audacity=2`) or as `stats={...}`."""
    stats = {stat: fields.pop(stat, 0) for stat in STATS}
    stats.update(fields.pop("stats", {}))
    command = {"type": "create_character", "name": name, "stats": stats, "luck": luck, **fields}
    if player is not None:
        command["player"] = player
    return Given(RULESET, command)


def ship(name: str, **fields: Any) -> Given:
    """A ship with middling stats unless given."""
    defaults = {"navigation": 1, "firepower": 1, "displacement": 1, "hull": 4}
    return Given(RULESET, {"type": "create_ship", "name": name, **defaults, **fields})


def wounded(name: str, level: str, count: int = 1) -> History:
    """`count` wounds of `level` in free slots, as if taken earlier (their light −1s already used)."""

    def apply(table: Table) -> None:
        pirate = table.get(Pirate, name)
        for _ in range(count):
            slot = pirate.slots.index(None)
            pirate.wounded(slot=slot, level=level, change="given")

    return History(RULESET, f"{name} has {count} {level} wound(s)", apply)
