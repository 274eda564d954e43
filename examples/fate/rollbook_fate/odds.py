"""The odds of an action (F2-F4): the chance of each outcome of the very 4dF roll the rules would make,
enumerated from the game's own roll plan (`FateDice.totals`)."""

from __future__ import annotations

from typing import Any

from rollbook.domain.dice import Judged
from rollbook.domain.odds import Odds, judged


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, Judged), f"no Fate odds for {type(plan).__name__}"
    return judged(plan)
