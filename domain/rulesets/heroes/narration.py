"""How We Can Be Heroes tells its commands: pools by their trait and successes, damage and
health, Resolve and Adversity, effects.

In Russian the words are the original's (shared/seeds/heroes-d6.ru.txt): Решимость, Несчастья, успехи,
Здоровье, страница, сцена, игра, история."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ....language import N_, gettext
from ....projections.narration import Happening, Told, Voice, count, said, silent, words

# Terms: Ходы (или страницы, ибо у нас комиксы) L9, L11; Сцены, Игры (Issues), Истории L9-L17; бой L11.
SCOPES = (N_("page"), N_("scene"), N_("issue"), N_("story"), N_("battle"))
# Terms: атака и защита L96; Ловкость, Выносливость, Сила L79; восстановление L193; рассказчик по успехам L37-L41.
ROLES = (N_("attack"), N_("defence"), N_("recovery"), N_("check"), N_("opposition"), N_("help"), N_("group"),
         N_("contest"), N_("resolve dice"), N_("agility"), N_("stamina"), N_("strength"), N_("held"), N_("no damage"),
         N_("hero narrates"), N_("hero narrates with embellishment"), N_("opponent narrates"),
         N_("opponent narrates with embellishment"))
# Terms: на что тратятся Решимость и Несчастья L82-L88, L120; оглушение L195.
PURPOSES = (N_("dice"), N_("villainous act"), N_("stunned"), N_("flaw"))
# Terms: определяющий момент L25, L110 (усилие, история, сцена); пропуск хода.
PLAINLY = (N_("turn passed"), N_("defining moment declared"), N_("defining moment rolled"),
           N_("defining moment ended"), N_("effort"), N_("reason"))
#: The outcomes an exchange writes with their number (domain/rulesets/heroes/combat.py): "3 damage", "2 through".
_COUNTED_OUTCOME = re.compile(r"(\d+) (damage|through)")


def _purpose(roll: Mapping[str, Any]) -> str | None:
    role, trait = roll.get("role"), roll.get("trait")
    if role and trait:
        return gettext("{role} with {trait}").format(role=gettext(words(str(role))), trait=gettext(str(trait)))
    return None


def _value(roll: Mapping[str, Any]) -> str | None:
    successes = roll.get("successes")
    # Terms: успехи L33-L34.
    return count("{count} success", "{count} successes", successes) if isinstance(successes, int) else None


def _outcome(roll: Mapping[str, Any]) -> str | None:
    counted_outcome = _COUNTED_OUTCOME.fullmatch(str(roll.get("outcome", "")))
    if counted_outcome is None:
        return None
    number, kind = int(counted_outcome[1]), counted_outcome[2]
    if kind == "damage":
        return count("{count} damage", "{count} damage", number)
    return count("{count} through", "{count} through", number)


def _initiative(h: Happening, _: Told) -> str:
    order = ", ".join(" & ".join(group) for group in h.data["order"])
    return gettext("initiative on page {page}: {order}").format(page=h.data["page"], order=order)


def _damaged(h: Happening, _: Told) -> str:
    if h.data.get("source"):
        return gettext("{whose} takes {loss} damage from {source}: health {health}").format_map(
            {**h.data, "whose": h.whose})
    return gettext("{whose} takes {loss} damage: health {health}").format_map({**h.data, "whose": h.whose})


VOICE = Voice(
    purpose=_purpose,
    value=_value,
    outcome=_outcome,
    phrases={
        "Acted": silent,  # the roll says what was done
        "ExchangeOpened": silent,
        "ExchangeRevised": silent,
        "InitiativeSet": _initiative,
        # Terms: урон, Здоровье L186-L195.
        "Damaged": _damaged,
        "Healed": said("{whose} heals {amount}: health {health}"),
        "ResolveSpent": lambda h, _: gettext("{whose} spends {amount} Resolve ({purpose}), {resolve} left").format(
            whose=h.whose, amount=h.data["amount"], purpose=gettext(words(h.data["purpose"])),
            resolve=h.data["resolve"]),
        "ResolveGained": said("{whose} gains {amount} Resolve ({reason}), {resolve} now"),
        "ResolveRenewed": said("{whose}'s Resolve renewed to {resolve}"),
        "AdversitySpent": lambda h, _: gettext("the GM spends {amount} Adversity ({purpose})").format(
            amount=h.data["amount"], purpose=gettext(words(h.data["purpose"]))),
        "AdversityGained": said("the GM gains {amount} Adversity"),
        "AdversityRenewed": said("Adversity renewed to {adversity}"),
        "EffectChanged": lambda h, _: gettext("{whose} is {effect} ({reason})").format(
            whose=h.whose, effect=gettext(words(h.data["effect"])), reason=h.data["reason"]),
        "EffectEnded": lambda h, _: gettext("{whose} is no longer {effect} ({reason})").format(
            whose=h.whose, effect=gettext(words(h.data["effect"])), reason=h.data["reason"]),
        "AbilityLowered": lambda h, _: gettext("{whose}'s {ability} lowered to {rank}").format(
            whose=h.whose, ability=gettext(h.data["ability"]), rank=h.data["rank"]),
        "BattleJoined": silent,
        "BattleLeft": silent,
        "BattleCast": lambda h, _: gettext("in the battle: {characters}").format(
            characters=", ".join(h.data["characters"]) or gettext("nobody yet")),
        "CharacterJoinedBattle": said("{character} joins the battle"),
        "CharacterLeftBattle": said("{character} leaves the battle"),
    },
)


#: The common moves (`Ruleset.common_moves`), as the cards name them. Terms: проверка, атака, Решимость.
CARD_WORDS = (N_("check"), N_("attack"), N_("resolve"))
