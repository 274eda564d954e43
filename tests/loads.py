"""Which members a command loads from the store: how the roster-index tests see that a rule visits
only those it needs (issue 22), in any ruleset."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rollbook.domain.ids import member_id


def counted_loads(campaign: Any, ruleset: str, characters: Iterable[str], kind: str = "character") -> list[str]:
    """The campaign (a kit campaign of `ruleset`) counts its loads of these members (characters, or
    another `kind`: ships), in order, into the list returned (those not already at a command's table)."""
    campaign.of(ruleset)
    names: list[str] = []
    load = campaign.service.load
    by_id = {member_id(campaign.name, kind, name): name for name in characters}

    def counting(aggregate_id: Any) -> Any:
        if aggregate_id in by_id:
            names.append(by_id[aggregate_id])
        return load(aggregate_id)

    campaign.service.load = counting
    return names
