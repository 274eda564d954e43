"""How the gladiator game tells its combat turns: attack and defence against the enemy's
numbers, health lost, squads beaten, tokens and motivation.

In Russian the words are the original's (shared/seeds/gladiators-pdq.ru.txt): атака и защита, тактики (L17-L20),
единицы здоровья (L14), мотивация (L8), модификатор за отыгрыш (L24-L26)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ....language import NC_, N_, gettext
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

# --- the words a page says of the game's commands and fields (web/field_words.py says them) ---
# Terms: навыки L4-L8; коронные приёмы (атакующие, оборонительные) L6; мотивация L9, L28; атака, защита,
# тактика L17-L21; противник, на ногах L23; модификаторы за отыгрыш L25-L26.
# Terms of their parts: связанные с навыком атакующие и защитные действия L4.
#: The fields of the game's commands and of their parts, as their forms ask them.
FIELDS = (
    N_("actor"), N_("amount"), N_("applies to"), N_("at"), N_("attack move"), N_("attack related"),
    N_("attributes"), N_("campaign"), N_("character"), N_("class skill"), N_("commitment"), N_("defence move"),
    N_("defence related"), N_("dice"), N_("enemy"), N_("gm attack"), N_("gm defence"), N_("health"), N_("id"),
    N_("main skill"), N_("member health"), N_("members"), N_("motivation"), N_("name"), N_("options"),
    N_("ordinary skills"), N_("player"), N_("reason"), N_("ruleset"), N_("salt"), N_("seen"), N_("signature moves"),
    N_("skill"), N_("skills"), N_("spend tokens"), N_("standing"), N_("style"), N_("tactic"), N_("testing kit"),
    N_("title"), N_("trait limit"), N_("type"), N_("use motivation"),
)
#: The game's once-only limits (`Ruleset.limits`), as the campaign page's table names them.
LIMITS = (
    N_("attack signature move"), N_("defence signature move"),
)
#: The game's commands, as the post page's choice and heading say them.
COMMANDS = (
    N_("abandon seed"), N_("award roleplay"), N_("combat turn"), N_("create campaign"), N_("create character"),
    N_("create enemy"), N_("end battle"), N_("end scene"), N_("end story"), N_("grant motivation"),
    N_("report standing"), N_("rotate seed"), N_("start battle"), N_("start scene"), N_("start story"),
)

#: The sheets' key figures, as a command's line says what it changed ("Gauls: standing 4 → 3"): the game's own words.
# Terms: единицы здоровья L15, L22; модификаторы за отыгрыш L25-L26 (the tokens the GM awards); на ногах L23.
FIGURES = (NC_("gladiators", "health"), NC_("gladiators", "roleplay tokens"), NC_("gladiators", "standing"))

#: The purposes of the game's rolls (`combat:attack`), as the rolls page and the post form say them. Terms: бой L17.
PURPOSES = (N_("combat"),)
