"""How the gladiator game tells its combat turns: attack and defence against the enemy's
numbers, health lost, squads beaten, tokens and motivation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....projections.narration import Voice, said, silent, words


def _purpose(roll: Mapping[str, Any]) -> str | None:
    side, enemy, tactic = roll.get("side"), roll.get("enemy"), roll.get("tactic")
    if side is None:
        return None
    return f"{side} against {enemy}" + (f" ({words(str(tactic))})" if tactic else "")


def _value(roll: Mapping[str, Any]) -> str | None:
    versus = roll.get("versus")
    return f"{roll.get('total')} vs {versus}" if versus is not None else None


VOICE = Voice(
    purpose=_purpose,
    value=_value,
    phrases={
        "Engaged": silent,
        "HealthLost": said("{whose} loses {amount} health, {health} left"),
        "HealthRestored": said("{whose}'s health restored to {health}"),
        "Beaten": said("{whose} is beaten"),
        "StandingReported": said("{whose}: {standing} still standing"),
        "MotivationUsed": said("{whose} uses motivation (+{value})"),
        "TokensAwarded": said("{whose} is awarded {amount} roleplay tokens ({reason})"),
        "TokensSpent": said("{whose} spends {amount} roleplay tokens"),
    },
)
