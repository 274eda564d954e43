"""How «Имплант» (Savage Worlds) tells its commands: trait checks with their wild die,
damage against Toughness, wounds, Shaken, bennies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....projections.narration import Happening, Told, Voice, counted, said, silent, words


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
        "TurnStarted": said("{whose}'s turn (round {round})"),
        "Damaged": _damaged,
        "Soaked": lambda h, _: f"{h.whose} soaks {counted(h.data['removed'], 'wound')}, {h.data['wounds']} left",
        "BennySpent": lambda h, _: f"{h.whose} spends a benny ({words(h.data['purpose'])})",
        "GmBennySpent": lambda h, _: f"the GM spends a benny for {h.data['character']} ({words(h.data['purpose'])})",
        "BenniesRenewed": lambda h, _: f"{h.whose} has {counted(h.data['bennies'], 'benny', 'bennies')}",
        "GmBenniesGained": lambda h, _: f"the GM gains {counted(h.data['count'], 'benny', 'bennies')}",
        "BennyAwarded": said("{whose} is awarded a benny"),
        "Unshaken": said("{whose} is no longer shaken"),
        "BecameVulnerable": said("{whose} is vulnerable"),
        "BecameDistracted": said("{whose} is distracted"),
        "Treated": said("{whose} is treated by {healer}: {wounds} wounds"),
    },
)
