"""The odds of a pirate's check and of Meet Fate (§3, §6): 2d6 (3d6 keep 2) + modifiers, by band.

Every modifier comes from the rules' own description of the roll (`rules.check_dice`): the
stat, the wound modifiers (§2), luck's +1 (L45) and the dice of a chance spent (L196).
"""

from __future__ import annotations

from typing import Any

from ...dice import Judged
from ...odds import Odds, judged


def odds(plan: Any, options: dict[str, Any]) -> Odds:
    assert isinstance(plan, Judged), f"no pirate odds for {type(plan).__name__}"
    return judged(plan)
