"""How the gladiator game tells its combat turns: attack and defence against the enemy's
numbers, health lost, squads beaten, tokens and motivation.

In Russian the words are the original's (shared/seeds/gladiators-pdq.ru.txt): атака и защита, тактики (L17-L20),
единицы здоровья (L14), мотивация (L8), модификатор за отыгрыш (L24-L26)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....language import N_, gettext
from ....projections.narration import Voice, count, said, silent, words

# Terms: бой, ход L16.
SCOPES = (N_("battle"), N_("turn"))
# Terms: атака и защита L16; тактики L17-L20; исход против чисел противника.
WORDS = (N_("attack"), N_("defence"), N_("total defence"), N_("strong defence"), N_("strong attack"),
         N_("total attack"), N_("hit"), N_("miss"), N_("held"), N_("breached"), N_("offensive style"),
         N_("defensive style"))


def _purpose(roll: Mapping[str, Any]) -> str | None:
    side, enemy, tactic = roll.get("side"), roll.get("enemy"), roll.get("tactic")
    if side is None:
        return None
    return gettext("{side} against {enemy}").format(side=gettext(str(side)), enemy=enemy) + (
        f" ({gettext(words(str(tactic)))})" if tactic else "")


def _value(roll: Mapping[str, Any]) -> str | None:
    versus = roll.get("versus")
    return gettext("{total} vs {versus}").format(total=roll.get("total"), versus=versus) if versus is not None else None


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
        # Terms: модификатор за отыгрыш L24-L26.
        "TokensAwarded": lambda h, _: count("{whose} is awarded {count} roleplay tokens ({reason})",
                                            "{whose} is awarded {count} roleplay tokens ({reason})", h.data["amount"],
                                            whose=h.whose, reason=h.data["reason"]),
        "TokensSpent": lambda h, _: count("{whose} spends {count} roleplay tokens", "{whose} spends {count} roleplay "
                                          "tokens", h.data["amount"], whose=h.whose),
    },
)


#: The common moves (`Ruleset.common_moves`), as the cards name them. Terms: ход, награда.
CARD_WORDS = (N_("turn"), N_("award"))
