"""How the pirate game («Поднять паруса!») tells its commands: moves by their book names,
harm as the wounds it leaves, luck, ships, money."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from ....projections.narration import Happening, Told, Voice, counted, said, silent, words
from . import rules


@cache
def _move_names() -> dict[str, str]:
    return {key: move["en"] for entries in rules.move_book().values() for key, move in entries.items()}


def _purpose(roll: Mapping[str, Any]) -> str | None:
    """A move by its book name; a bare stat roll (no move named) by its stat."""
    kind, _, key = str(roll.get("purpose", "")).partition(":")
    if kind != "move":
        return None
    return _move_names().get(key) or words(key).capitalize()


def _wound(h: Happening, told: Told) -> str:
    level, slot = h.data["level"], h.data["slot"] + 1
    if h.data["change"] == "upgraded":
        return f"{told.who(h)}a wound becomes {level} (slot {slot})"
    return f"{told.who(h)}a {level} wound (slot {slot})"


def _luck(verb: str) -> Any:
    def phrase(h: Happening, told: Told) -> str:
        why = h.data.get("purpose") or h.data.get("reason")
        return f"{told.who(h)}{verb} {h.data['amount']} luck".lstrip() + (f" ({words(str(why))})" if why else "")
    return phrase


def _take_damage(told: Told) -> str:
    return f"{told.command['character']} takes {told.command['harm']} harm"


def _money(verb: str) -> Any:
    def phrase(h: Happening, _: Told) -> str:
        reason = f" ({h.data['reason']})" if h.data.get("reason") else ""
        return f"{h.whose} {verb} {_coins(h.data['piastres'])}{reason}"
    return phrase


def _coins(piastres: int) -> str:
    coins = rules.in_coins(piastres)
    parts = [counted(coins[k], k[:-1] if coins[k] == 1 else k, k) for k in ("chests", "doubloons", "piastres") if coins[k]]
    return f"{piastres} piastres" + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


VOICE = Voice(
    purpose=_purpose,
    headings={"take_damage": _take_damage},
    phrases={
        "MoveRolled": silent,  # its roll says it
        "MoveModified": silent,  # RollModified says it
        "Wounded": _wound,
        "LuckSpent": _luck("spends"),
        "LuckLost": _luck("loses"),
        "LuckGained": _luck("gains"),
        "LightWoundsHealed": lambda h, _: (f"{h.whose}'s {counted(h.data['count'], 'light wound')} "
                                           f"{'heals' if h.data['count'] == 1 else 'heal'}"),
        "WoundTreated": lambda h, _: (f"{h.whose}'s {h.data['level']} wound (slot {h.data['slot'] + 1}) "
                                      f"{'heals' if h.data['healed'] else 'is treated'}"),
        "ReputationChanged": lambda h, _: (f"{h.whose}'s reputation {'+' if h.data['by'] > 0 else ''}{h.data['by']} "
                                           f"→ {h.data['reputation']} ({h.data['reason']})"),
        "FateCalled": said("{whose} must meet fate ({reason})"),
        "FateCalledAtOnce": said("{whose} must meet fate before anything else ({reason})"),
        "FateChosen": lambda h, _: f"{h.whose}'s fate: {words(h.data['option'])}",
        "FateOptionStruck": silent,
        "SuccessTraded": lambda h, _: f"{h.whose} trades a {words(h.data['outcome'])} for a miss",
        "AmbushTokenGained": said("{whose} gains an ambush token against {enemy}"),
        "AmbushTokenSpent": said("{whose} spends an ambush token against {enemy}"),
        "Holed": said("{whose} is holed: hull {hull}"),
        "BrokeDown": lambda h, _: f"{h.whose} breaks down: {words(h.data['breakdown'])} ({h.data['stat']})",
        "HullRepaired": said("{whose}'s hull repaired to {hull}"),
        "BreakdownRemoved": lambda h, _: f"{h.whose}'s {words(h.data['breakdown'])} repaired",
        "Fitted": lambda h, _: f"{h.whose} has {', '.join(words(m) for m in h.data['ship_moves'] + h.data['rigging'])}",
        "EnteredPort": said("{whose} enters port"),
        "PutToSea": said("{whose} puts to sea"),
        "EnemyFaced": lambda h, _: f"against {h.data['enemy']}" if h.data.get("enemy") else None,
        "MoveClosed": said("{whose}'s roll {roll} is final ({why})"),
        "SchemeReckoned": lambda h, _: (f"{h.whose}'s plan now has {counted(h.data['chances'], 'chance')} from "
                                        f"{h.data['roll']}, the GM {h.data['gm_chances']} ({words(h.data['outcome'])})"),
        "NegotiationRoundReckoned": lambda h, _: (
            f"round {h.data['number']} now goes to the {h.data['winner']} ({counted(h.data['trumps'], 'trump')})"
            if h.data["winner"] else f"round {h.data['number']} now goes to nobody"),
        "MoneyGained": _money("gains"),
        "MoneySpent": _money("spends"),
    },
)
