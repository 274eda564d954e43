"""How We Can Be Heroes tells its commands: pools by their trait and successes, damage and
health, Resolve and Adversity, effects."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....projections.narration import Happening, Told, Voice, counted, said, silent, words


def _purpose(roll: Mapping[str, Any]) -> str | None:
    role, trait = roll.get("role"), roll.get("trait")
    if role and trait:
        return f"{words(str(role))} with {trait}"
    return None


def _value(roll: Mapping[str, Any]) -> str | None:
    successes = roll.get("successes")
    return counted(successes, "success", "successes") if isinstance(successes, int) else None


def _initiative(h: Happening, _: Told) -> str:
    order = ", ".join(" & ".join(group) for group in h.data["order"])
    return f"initiative on page {h.data['page']}: {order}"


VOICE = Voice(
    purpose=_purpose,
    value=_value,
    phrases={
        "Acted": silent,  # the roll says what was done
        "ExchangeOpened": silent,
        "ExchangeRevised": silent,
        "InitiativeSet": _initiative,
        "Damaged": lambda h, _: (f"{h.whose} takes {h.data['loss']} damage"
                                 + (f" from {h.data['source']}" if h.data.get("source") else "")
                                 + f": health {h.data['health']}"),
        "Healed": said("{whose} heals {amount}: health {health}"),
        "ResolveSpent": lambda h, _: (f"{h.whose} spends {h.data['amount']} Resolve ({words(h.data['purpose'])}), "
                                      f"{h.data['resolve']} left"),
        "ResolveGained": said("{whose} gains {amount} Resolve ({reason}), {resolve} now"),
        "ResolveRenewed": said("{whose}'s Resolve renewed to {resolve}"),
        "AdversitySpent": lambda h, _: f"the GM spends {h.data['amount']} Adversity ({words(h.data['purpose'])})",
        "AdversityGained": said("the GM gains {amount} Adversity"),
        "AdversityRenewed": said("Adversity renewed to {adversity}"),
        "EffectChanged": lambda h, _: f"{h.whose} is {words(h.data['effect'])} ({h.data['reason']})",
        "EffectEnded": lambda h, _: f"{h.whose} is no longer {words(h.data['effect'])} ({h.data['reason']})",
        "AbilityLowered": said("{whose}'s {ability} lowered to {rank}"),
        "BattleJoined": silent,
        "BattleLeft": silent,
        "BattleCast": lambda h, _: f"in the battle: {', '.join(h.data['characters']) or 'nobody yet'}",
        "CharacterJoinedBattle": said("{character} joins the battle"),
        "CharacterLeftBattle": said("{character} leaves the battle"),
    },
)
