"""How We Can Be Heroes tells its commands: pools by their trait and successes, damage and
health, Resolve and Adversity, effects.

In Russian the words are the original's (shared/seeds/heroes-d6.ru.txt): Решимость, Несчастья, успехи,
Здоровье, страница, сцена, игра, история."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ....language import NC_, N_, gettext
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
# Terms: Решающий Момент L19, L75-L79 (усилие, история, сцена); пропуск хода.
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

# --- the words a page says of the game's commands and fields (web/field_words.py says them) ---
# Terms: ход (страница) L11; черты (Трейты), Характеристики, Таланты, Суперспособности, Перки, Недостатки L23;
# ранг опасности L26; помощь L64; соревнование L70; Решающий Момент L75-L80; Решимость, Несчастья L85-L118;
# отложить действие L135; действие, нельзя атаковать одну цель дважды L141-L143; дистанция L146-L148;
# погоня, преследователь L165-L170; летальный, защитный Трейт (черта) L176-L178; восстановление L193;
# особый эффект L195-L197; снова в бою L201; захват (грэпплинг) L207; маневры L222; засада L244;
# атака по площади L248; атака одним другого L254; все в атаку, тотальная защита L261-L263;
# перенаправить атаку L268; командные атаки L271-L273.
# Terms of their parts and boxes: ранги L25; влияние на других L96; пассивная защита L175;
# шестёрки взрываются L77, L272; по площади L248.
#: The fields of the game's commands and of their parts, as their forms ask them.
FIELDS = (
    N_("abilities"), N_("ability"), N_("action"), N_("actor"), N_("affect"), N_("all out"), N_("ambusher"),
    N_("amount"), N_("area"), N_("at"), N_("attacker"), N_("campaign"), N_("character"), N_("characters"),
    N_("charge"), N_("chase"), N_("checks"), N_("club"), N_("commitment"), N_("contest"), N_("cost"), N_("count"),
    N_("creative"), N_("danger rank"), N_("defence"), N_("defence trait"), N_("dice"), N_("difficulty"),
    N_("distance"), N_("dodge"), N_("effect"), N_("effort"), N_("enemy"), N_("explode"), N_("flaws"),
    N_("from character"), N_("helper"), N_("id"), N_("indirect"), N_("into object"), N_("lasting"), N_("lethal"),
    N_("manoeuvre"), N_("members"), N_("modifier"), N_("moment"), N_("motivation"), N_("name"), N_("narration"),
    N_("open terrain"), N_("opponent"), N_("opponent trait"), N_("options"), N_("other"), N_("pages"),
    N_("passive"), N_("perks"), N_("player"), N_("pool"), N_("power"), N_("powers"), N_("purpose"), N_("pursuer"),
    N_("pursuer trait"), N_("quarry"), N_("quarry trait"), N_("racers"), N_("rank"), N_("reason"), N_("redirect"),
    N_("redirect at"), N_("resolve"), N_("rest"), N_("role"), N_("roll"), N_("ruleset"), N_("salt"), N_("seen"),
    N_("shift"), N_("sides"), N_("source"), N_("talents"), N_("target"), N_("targets"), N_("testing kit"),
    N_("title"), N_("to"), N_("to character"), N_("trait"), N_("trait limit"), N_("traits"), N_("type"), N_("uses"),
    N_("villain"), N_("ward"), N_("weapon"),
)
#: The game's once-only limits (`Ruleset.limits`), as the campaign page's table names them.
LIMITS = (
    N_("action"), N_("attack same target"), N_("back in the fight"), N_("chase check"), N_("defining moment"),
    N_("extend effect"), N_("movement"), N_("recovery after battle"), N_("recovery after rest"),
    N_("scene adversity pool"), N_("team attack"), N_("villainous act"),
)
#: The game's commands, as the post page's choice and heading say them.
COMMANDS = (
    N_("abandon seed"), N_("all out defence"), N_("ambush"), N_("apply effect"), N_("area attack"), N_("attack"),
    N_("chase check"), N_("club attack"), N_("contest roll"), N_("create campaign"), N_("create character"),
    N_("declare actions"), N_("declare defining moment"), N_("delay action"), N_("end battle"),
    N_("end defining moment"), N_("end issue"), N_("end scene"), N_("end story"), N_("escape effect"),
    N_("gain adversity"), N_("gain resolve"), N_("grapple"), N_("group check"), N_("help"), N_("join battle"),
    N_("leave battle"), N_("lower ability"), N_("manoeuvre"), N_("move"), N_("next day"), N_("next page"),
    N_("pass"), N_("protect"), N_("race"), N_("recover"), N_("restore ability"), N_("roll check"),
    N_("rotate seed"), N_("scene adversity"), N_("set distance"), N_("share successes"), N_("spend adversity"),
    N_("spend resolve"), N_("start battle"), N_("start chase"), N_("start contest"), N_("start issue"),
    N_("start scene"), N_("start story"), N_("take damage"), N_("team attack"), N_("trigger moment"),
)

#: The sheets' key figures, as a command's line says what it changed ("Spark: resolve 1 → 0"): the game's own words.
# Terms: здоровье L186-L195; Решимость L77, L84.
FIGURES = (NC_("heroes", "health"), NC_("heroes", "resolve"))

#: The values the game's commands choose among (the post page's drop-downs say them; the form sends the value).
# Terms: поражение, серьёзная неудача L99; героические действия L84; социалка L101; из последних сил L103;
# передать Решимость L107; переброс L108; деталь повествования L115; имитация Суперспособности L116; неподобающее
# поведение, создать проблему, преодолеть Недостаток L118-L120; действовать первым L136; ближняя, дальняя, экстремальная дистанция
# L147-L150; сократить или увеличить дистанцию L169; целые сутки отдыха L193; избавиться от особого эффекта L204;
# удержать, выхватить оружие L209; сбить с толку, ошеломляющий приём, перебороть L235-L237; половина ранга,
# пропустить ход L249; отбросить L265; физические, умственные усилия L79.
CHOICES = (N_("defeat"), N_("setback"), N_("heroic"), N_("social"), N_("desperation"), N_("transfer"), N_("reroll"),
           N_("detail"), N_("power stunt"), N_("misbehaviour"), N_("problem"), N_("overcome flaw"), N_("act first"),
           N_("close"), N_("far"), N_("extreme"), N_("closer"), N_("farther"), N_("full day"), N_("shake off"),
           N_("hold"), N_("snatch"), N_("confuse"), N_("stunning technique"), N_("overpower"), N_("half"),
           N_("skip"), N_("knockback"), N_("physical"), N_("mental"))
