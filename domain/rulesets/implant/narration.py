"""How «Имплант» (Savage Worlds) tells its commands: trait checks with their wild die,
damage against Toughness, wounds, Shaken, bennies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....projections.narration import Happening, Told, Voice, counted, silent, words


def _purpose(roll: Mapping[str, Any]) -> str | None:
    kind, _, detail = str(roll.get("purpose", "")).partition(":")
    trait = f" ({words(str(roll['trait']))})" if roll.get("trait") else ""
    what = f"{detail} {kind}" if detail else kind
    return f"{words(what)}{trait}"


def _damaged(h: Happening, _: Told) -> str:
    states = [s for s in ("shaken", "dying", "out") if h.data.get(s)]
    wounds = counted(h.data["new_wounds"], "wound")
    return (f"{h.whose} takes {h.data['damage']} damage vs Toughness {h.data['toughness']}: {wounds}"
            f" ({h.data['wounds']} in all)" + (f", {', '.join(states)}" if states else ""))


VOICE = Voice(
    purpose=_purpose,
    phrases={
        "CheckMade": silent,  # the roll says it
        "AttackRolled": silent,
        "DamageDealt": silent,
        "DamageSoaked": silent,
        "ActionTaken": silent,
        "TurnStarted": lambda h, _: f"{h.whose}'s turn (round {h.data['round']})",
        "Damaged": _damaged,
        "Soaked": lambda h, _: f"{h.whose} soaks {counted(h.data['removed'], 'wound')}, {h.data['wounds']} left",
        "BennySpent": lambda h, _: f"{h.whose} spends a benny ({words(h.data['purpose'])})",
        "GmBennySpent": lambda h, _: f"the GM spends a benny for {h.data['character']} ({words(h.data['purpose'])})",
        "BenniesRenewed": lambda h, _: f"{h.whose} has {counted(h.data['bennies'], 'benny', 'bennies')}",
        "GmBenniesGained": lambda h, _: f"the GM gains {counted(h.data['count'], 'benny', 'bennies')}",
        "BennyAwarded": lambda h, _: f"{h.whose} is awarded a benny",
        "Unshaken": lambda h, _: f"{h.whose} is no longer shaken",
        "BecameVulnerable": lambda h, _: f"{h.whose} is vulnerable",
        "BecameDistracted": lambda h, _: f"{h.whose} is distracted",
        "Treated": lambda h, _: f"{h.whose} is treated by {h.data['healer']}: {h.data['wounds']} wounds",
    },
)
