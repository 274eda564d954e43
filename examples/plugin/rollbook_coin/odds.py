"""The odds of a flip (C2-C3): the chance of each outcome of the very check the rules would roll."""

from __future__ import annotations

from typing import Any

from rollbook.domain.dice import Judged
from rollbook.domain.odds import Odds, judged


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, Judged), f"no coin odds for {type(plan).__name__}"
    return judged(plan)
