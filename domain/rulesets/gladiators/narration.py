"""How the gladiator game tells its combat turns: attack and defence against the enemy's
numbers, health lost, squads beaten, tokens and motivation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....projections.narration import Happening, Told, Voice, silent, words


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
        "HealthLost": lambda h, _: f"{h.whose} loses {h.data['amount']} health, {h.data['health']} left",
        "HealthRestored": lambda h, _: f"{h.whose}'s health restored to {h.data['health']}",
        "Beaten": lambda h, _: f"{h.whose} is beaten",
        "StandingReported": lambda h, _: f"{h.whose}: {h.data['standing']} still standing",
        "MotivationUsed": lambda h, _: f"{h.whose} uses motivation (+{h.data['value']})",
        "TokensAwarded": lambda h, _: f"{h.whose} is awarded {h.data['amount']} roleplay tokens ({h.data['reason']})",
        "TokensSpent": lambda h, _: f"{h.whose} spends {h.data['amount']} roleplay tokens",
    },
)
