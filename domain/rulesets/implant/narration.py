"""How «Имплант» (Savage Worlds) tells its commands: trait checks with their wild die,
damage against Toughness, wounds, Shaken, bennies.

In Russian the words are the original's (shared/seeds/implant-savage-worlds.ru.txt): фишки (L62), шок, ранения,
подъёмы, стойкость (L105-L111), «при смерти» (L113)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ....language import NC_, N_, gettext
from ....projections.narration import Happening, Told, Voice, count, said, silent, words

# Terms: сцена L63; раунд L72, L110; бой; день (естественное лечение L116-L118).
SCOPES = (N_("scene"), N_("battle"), N_("round"), N_("day"))
# Terms: успех, провал L16; шок L105-L106; критический провал.
OUTCOMES = (N_("success"), N_("failure"), N_("critical failure"), N_("shaken"), N_("no effect"))
# Terms: проверки (L16), атака в драке и стрельбой L31-L32, урон L105, поглощение урона фишкой L114, выход из шока
# L110, лечение L43, L116; характеристики L21-L26 и навыки L31-L43.
CHECKS = (N_("ranged attack"), N_("melee attack"), N_("damage"), N_("soak"), N_("recovery"), N_("heal"),
          N_("unshake"), N_("dying"), N_("natural healing"), N_("taunt"), N_("disarm"), N_("trait check"),
          N_("energy"), N_("shooting"), N_("fighting"), N_("healing"), N_("vigor"), N_("spirit"), N_("strength"),
          N_("agility"), N_("smarts"))
# Terms: модификаторы проверок: ранения L112, уязвимость L82, отвлечение L96, дикая атака, укрытие.
MODIFIERS = (N_("wounds"), N_("wild attack"), N_("vulnerable"), N_("distracted"), N_("cover"), N_("aim"),
             N_("range"), N_("recoil"), N_("off hand"), N_("untrained"), N_("desperate attack"),
             N_("additional attack"), N_("nonlethal"), N_("situation"))
# Terms: «при смерти» L113; выбывает из боя.
STATES = (N_("dying"), N_("out"))
# Terms: выход из боя L79; статусы боя; восстановление энергии; конец дня (естественное лечение L116).
PLAINLY = (N_("withdrawal declared"), N_("combat statuses ended"), N_("combat cleared"), N_("energy cells restored"),
           N_("day ended"), N_("character"), N_("cells"))
#: The outcomes a check or damage writes with a number (domain/rulesets/implant/checks.py, damage.py).
_RAISES = re.compile(r"(success, )?(\d+) raises?")


def _purpose(roll: Mapping[str, Any]) -> str | None:
    kind, _, detail = str(roll.get("purpose", "")).partition(":")
    trait = f" ({gettext(words(str(roll['trait'])))})" if roll.get("trait") else ""
    what = f"{detail} {kind}" if detail else kind
    return f"{gettext(words(what))}{trait}"


def _outcome(roll: Mapping[str, Any]) -> str | None:
    raised = _RAISES.fullmatch(str(roll.get("outcome", "")))
    if raised is None:
        return None
    # Terms: подъём L107.
    raises = count("{count} raise", "{count} raises", int(raised[2]))
    return f"{gettext('success')}, {raises}" if raised[1] else raises


def _damaged(h: Happening, _: Told) -> str:
    states = [s for s in ("shaken", "dying", "out") if h.data.get(s)]
    # Terms: урон против стойкости, ранение L105-L107; шок; «при смерти» L113.
    said_as = count("{whose} takes {damage} damage vs Toughness {toughness}: {count} wound ({wounds} in all)",
                    "{whose} takes {damage} damage vs Toughness {toughness}: {count} wounds ({wounds} in all)",
                    h.data["new_wounds"], whose=h.whose, damage=h.data["damage"], toughness=h.data["toughness"],
                    wounds=h.data["wounds"])
    return said_as + (f", {', '.join(gettext(state) for state in states)}" if states else "")



VOICE = Voice(
    purpose=_purpose,
    outcome=_outcome,
    phrases={
        "CheckMade": silent,  # the roll says it
        "AttackRolled": silent,
        "DamageDealt": silent,
        "DamageSoaked": silent,
        "ActionTaken": silent,
        "TurnStarted": said("{whose}'s turn (round {round})"),
        "Damaged": _damaged,
        "Soaked": lambda h, _: count("{whose} soaks {count} wound, {wounds} left", "{whose} soaks {count} wounds, "
                                     "{wounds} left", h.data["removed"], whose=h.whose, wounds=h.data["wounds"]),
        # Terms: фишки L62-L63, L111, L114.
        "BennySpent": lambda h, _: gettext("{whose} spends a benny ({purpose})").format(
            whose=h.whose, purpose=gettext(words(h.data["purpose"]))),
        "GmBennySpent": lambda h, _: gettext("the GM spends a benny for {character} ({purpose})").format(
            character=h.data["character"], purpose=gettext(words(h.data["purpose"]))),
        "BenniesRenewed": lambda h, _: count("{whose} has {count} benny", "{whose} has {count} bennies",
                                             h.data["bennies"], whose=h.whose),
        "GmBenniesGained": lambda h, _: count("the GM gains {count} benny", "the GM gains {count} bennies",
                                              h.data["count"]),
        "BennyAwarded": said("{whose} is awarded a benny"),
        "Unshaken": said("{whose} is no longer shaken"),
        "BecameVulnerable": said("{whose} is vulnerable"),
        "BecameDistracted": said("{whose} is distracted"),
        "Treated": said("{whose} is treated by {healer}: {wounds} wounds"),
    },
)


#: The common moves (`Ruleset.common_moves`), as the cards name them. Terms: фишка (Бенни).
CARD_WORDS = (N_("benny"),)

# --- the words a page says of the game's commands and fields (web/field_words.py says them) ---
# Terms: характеристики и навыки L4-L9; сложность проверки L11; фишки L62-L65; раунд, основное действие L72;
# выход из боя, бесплатная атака L79; прицеливание L89; урон L100-L101; шок, ранение L105-L112;
# лечение L116-L117; игровой день L118.
# Terms of their parts and boxes: бесплатная атака L79; отчаянный удар L81; яростный удар L82;
# скорострельность L88; прицельная атака, атака по оружию L94.
#: The fields of the game's commands and of their parts, as their forms ask them.
FIELDS = (
    N_("actor"), N_("against"), N_("armour"), N_("at"), N_("attack"), N_("attacker"), N_("attributes"),
    N_("called shot"), N_("campaign"), N_("character"), N_("commitment"), N_("count"), N_("damage"),
    N_("desperate"), N_("dice"), N_("enemies"), N_("enemy"), N_("free attack"), N_("healer"), N_("hours"), N_("id"),
    N_("kind"), N_("max wounds"), N_("modifier"), N_("name"), N_("nonlethal"), N_("note"), N_("opponents"),
    N_("options"), N_("patient"), N_("player"), N_("purpose"), N_("rate of fire"), N_("reason"), N_("ruleset"),
    N_("salt"), N_("seen"), N_("skills"), N_("target"), N_("target weapon"), N_("testing kit"), N_("title"),
    N_("tn"), N_("trait"), N_("trait limit"), N_("type"), N_("weapon"), N_("weapons"), N_("wild"), N_("wild card"),
)
#: The game's once-only limits (`Ruleset.limits`), as the campaign page's table names them.
LIMITS = (
    N_("extra melee attack"), N_("main action"), N_("soak"), N_("turn"), N_("withdrawal free attack"),
)
#: The game's commands, as the post page's choice and heading say them.
COMMANDS = (
    N_("abandon seed"), N_("aim"), N_("attack"), N_("award benny"), N_("create campaign"), N_("create character"),
    N_("end battle"), N_("end day"), N_("end scene"), N_("end story"), N_("heal"), N_("join battle"),
    N_("next round"), N_("pass time"), N_("rearm"), N_("roll damage"), N_("rotate seed"), N_("soak"),
    N_("spend benny"), N_("start battle"), N_("start scene"), N_("start story"), N_("start turn"),
    N_("take damage"), N_("taunt"), N_("trait check"), N_("withdraw"),
)

#: The sheets' key figures, as a command's line says what it changed ("Vera: bennies 3 → 2"): the game's own words.
# Terms: ранения L112-L114 (another game says «раны»); фишки L63, L114.
FIGURES = (NC_("implant", "wounds"), NC_("implant", "bennies"))

#: The values the game's commands choose among (the post page's drop-downs say them; the form sends the value).
# Terms: навыки L30-L60 (азартные игры, выступление, запугивание, уличное чутьё, академические знания, эзотерика
# сети, ремонт, пилотирование, взлом замков, выживание); перебросить кубики, перебросить кости урона L64-L67;
# прицельная атака по голове или жизненно важным органам L94.
CHOICES = (N_("academics"), N_("gambling"), N_("intimidation"), N_("lockpicking"), N_("net esoterica"),
           N_("performance"), N_("piloting"), N_("repair"), N_("streetwise"), N_("survival"), N_("reroll"),
           N_("damage reroll"), N_("head"), N_("vitals"))
