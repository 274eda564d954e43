"""How the pirate game («Поднять паруса!») tells its commands: moves by their book names,
harm as the wounds it leaves, luck, ships, money.

In Russian the words are the original's (shared/seeds/pirates-pbta.ru.txt), cited in the catalog's
translator comments (`# Terms:` here): фарт, пункт фарта, раны, пробоина, поломка, жетон засады.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from ....language import NC_, N_, gettext, ngettext, spoken
from ....projections.narration import Happening, Told, Voice, count, said, silent, words
from . import rules

# Terms: главы L64, L75; сцена L56; бой L140 (один раз за бой).
SCOPES = (N_("chapter"), N_("scene"), N_("battle"))
# Terms: полный (абсолютный) успех L12, L51; частичный успех L14; провал L16; исходы встречи с судьбой L78.
OUTCOMES = (N_("full success"), N_("partial success"), N_("miss"), N_("escaped lucky"), N_("escaped"),
            N_("player chooses"), N_("gm chooses"))
# Terms: Дерзость, Изворотливость, Дальновидность, Репутация L9-L10; фарт L38; раны L62-L68.
MODIFIERS = (N_("audacity"), N_("guile"), N_("foresight"), N_("reputation"), N_("luck"), N_("light wounds"),
             N_("serious wound"), N_("terrible wound"))
# Terms: на что тратится фарт L42-L46 (+1 к проверке, помощь, помеха, избежать раны), совещание L194.
LUCK_PURPOSES = (N_("roll bonus"), N_("help"), N_("hinder"), N_("avoid wound"), N_("scheme council"),
                 N_("meet fate"))
# Terms: поломки L141-L143 и характеристики корабля, которые они снижают (навигация, водоизмещение, боевая мощь).
SHIP_WORDS = (N_("torn sails"), N_("wrecked deck"), N_("wet powder"), N_("navigation"), N_("displacement"),
              N_("firepower"))
# Terms: варианты судьбы L80-L85.
FATES = (N_("artificial body part"), N_("ugly scar"), N_("slave of dark powers"), N_("hard task"),
         N_("wake who knows where"), N_("die after last action"))
# Terms: лёгкая, серьёзная, ужасная рана L62-L68: the level is said only of a wound (рана: feminine).
WOUND_LEVELS = (N_("light"), N_("serious"), N_("terrible"))
# Terms: стороны переговоров L202-L204.
SIDES = (N_("pirates"), N_("opponent"))
# Terms: условия развития L152-L155; тайны L99, L194; козни и шансы L194-L196; переговоры L198-L204 (ставки,
# козыри); встреча с судьбой L75-L78; попойка L52.
PLAINLY = (N_("condition met"), N_("condition"), N_("secret gained"), N_("secret"), N_("struck"),
           N_("ambush tokens burned"), N_("count"), N_("reason"), N_("secrets removed"), N_("schemed"), N_("goal"),
           N_("leader"), N_("chances"), N_("gm chances"), N_("marked"), N_("chance spent"), N_("side"),
           N_("negotiation started"), N_("negotiator"), N_("opponent kind"), N_("first"),
           N_("negotiation round played"), N_("pirate bet"), N_("opponent bet"), N_("opponent secret"), N_("winner"),
           N_("trumps"), N_("next first"), N_("negotiation ended"), N_("margin"), N_("threat harm"),
           N_("plan ended"), N_("unspent chances"), N_("unspent gm chances"), N_("fate met"), N_("total"),
           N_("result"), N_("chooser"), N_("developed"), N_("option"), N_("stat"), N_("value"), N_("hull"),
           N_("hull rating"), N_("pick"), N_("carousal started"), N_("carousal ended"), N_("title"))


@cache
def _move_names(language: str) -> dict[str, str]:
    """The move book's names in `language` (the book holds the original's Russian name of every move)."""
    name = "ru" if language == "ru" else "en"
    return {key: move[name] for entries in rules.move_book().values() for key, move in entries.items()}


def _purpose(roll: Mapping[str, Any]) -> str | None:
    """A move by its book name; a bare stat roll (no move named) by its stat."""
    kind, _, key = str(roll.get("purpose", "")).partition(":")
    if kind != "move":
        return None
    return _move_names(spoken()).get(key) or gettext(words(key)).capitalize()


def _wound(h: Happening, told: Told) -> str:
    level, slot = gettext(h.data["level"]), h.data["slot"] + 1
    if h.data["change"] == "upgraded":
        return gettext("{who}a wound becomes {level} (slot {slot})").format(who=told.who(h), level=level, slot=slot)
    return gettext("{who}a {level} wound (slot {slot})").format(who=told.who(h), level=level, slot=slot)


def _luck(h: Happening, told: Told) -> str:
    # Terms: пункт фарта L42-L46, L50-L51 (1 пункт, 2 пункта, 5 пунктов фарта).
    said_as = {
        "LuckSpent": ngettext("{who}spends {count} luck", "{who}spends {count} luck", h.data["amount"]),
        "LuckLost": ngettext("{who}loses {count} luck", "{who}loses {count} luck", h.data["amount"]),
        "LuckGained": ngettext("{who}gains {count} luck", "{who}gains {count} luck", h.data["amount"]),
    }[h.event]
    why = h.data.get("purpose") or h.data.get("reason")
    return (said_as.format(who=told.who(h), count=h.data["amount"]).lstrip()
            + (f" ({gettext(words(str(why)))})" if why else ""))


def _take_damage(told: Told) -> str:
    return gettext("{character} takes {harm} harm").format(character=told.command["character"],
                                                           harm=told.command["harm"])


def _money(h: Happening, _: Told) -> str:
    reason = f" ({h.data['reason']})" if h.data.get("reason") else ""
    gains = h.event == "MoneyGained"
    template = gettext("{whose} gains {coins}{reason}") if gains else gettext("{whose} spends {coins}{reason}")
    return template.format(whose=h.whose, coins=_coins(h.data["piastres"]), reason=reason)


def _coins(piastres: int) -> str:
    # Terms: сундук, золотой дублон, серебряный пиастр L95.
    coins = rules.in_coins(piastres)
    parts = [said_as for said_as in (
        coins["chests"] and count("{count} chest", "{count} chests", coins["chests"]),
        coins["doubloons"] and count("{count} doubloon", "{count} doubloons", coins["doubloons"]),
        coins["piastres"] and count("{count} piastre", "{count} piastres", coins["piastres"])) if said_as]
    in_all = count("{count} piastres", "{count} piastres", piastres)
    return in_all + (f" ({', '.join(parts)})" if len(parts) > 1 else "")


def _light_wounds_healed(h: Happening, _: Told) -> str:
    return count("{whose}'s {count} light wound heals", "{whose}'s {count} light wounds heal", h.data["count"],
                 whose=h.whose)


def _wound_treated(h: Happening, _: Told) -> str:
    template = (gettext("{whose}'s {level} wound (slot {slot}) heals") if h.data["healed"]
                else gettext("{whose}'s {level} wound (slot {slot}) is treated"))
    return template.format(whose=h.whose, level=gettext(h.data["level"]), slot=h.data["slot"] + 1)


def _reputation(h: Happening, _: Told) -> str:
    by = f"{'+' if h.data['by'] > 0 else ''}{h.data['by']}"
    return gettext("{whose}'s reputation {by} → {reputation} ({reason})").format(
        whose=h.whose, by=by, reputation=h.data["reputation"], reason=h.data["reason"])


def _fitted(h: Happening, _: Told) -> str:
    names = _move_names(spoken())
    fitted = ", ".join(names.get(m) or gettext(words(m)) for m in h.data["ship_moves"] + h.data["rigging"])
    return gettext("{whose} has {fitted}").format(whose=h.whose, fitted=fitted)


def _scheme(h: Happening, _: Told) -> str:
    # Terms: шансы плана и шансы Мастера L194.
    return count("{whose}'s plan now has {count} chance from {roll}, the GM {gm_chances} ({outcome})",
                 "{whose}'s plan now has {count} chances from {roll}, the GM {gm_chances} ({outcome})",
                 h.data["chances"], whose=h.whose, roll=h.data["roll"], gm_chances=h.data["gm_chances"],
                 outcome=gettext(words(h.data["outcome"])))


def _negotiation_round(h: Happening, _: Told) -> str:
    # Terms: козырь L202, L204.
    if not h.data["winner"]:
        return gettext("round {number} now goes to nobody").format(number=h.data["number"])
    return count("round {number} now goes to the {winner} ({count} trump)",
                 "round {number} now goes to the {winner} ({count} trumps)", h.data["trumps"],
                 number=h.data["number"], winner=gettext(h.data["winner"]))


VOICE = Voice(
    purpose=_purpose,
    headings={"take_damage": _take_damage},
    phrases={
        "MoveRolled": silent,  # its roll says it
        "MoveModified": silent,  # RollModified says it
        "Wounded": _wound,
        "LuckSpent": _luck,
        "LuckLost": _luck,
        "LuckGained": _luck,
        "LightWoundsHealed": _light_wounds_healed,
        "WoundTreated": _wound_treated,
        "ReputationChanged": _reputation,
        # Terms: встреча с судьбой L75.
        "FateCalled": said("{whose} must meet fate ({reason})"),
        "FateCalledAtOnce": said("{whose} must meet fate before anything else ({reason})"),
        "FateChosen": lambda h, _: gettext("{whose}'s fate: {option}").format(
            whose=h.whose, option=gettext(words(h.data["option"]))),
        "FateOptionStruck": silent,
        # Terms: обменять успешный бросок на провал L50.
        "SuccessTraded": lambda h, _: gettext("{whose} trades a {outcome} for a miss").format(
            whose=h.whose, outcome=gettext(words(h.data["outcome"]))),
        # Terms: жетон засады L54.
        "AmbushTokenGained": said("{whose} gains an ambush token against {enemy}"),
        "AmbushTokenSpent": said("{whose} spends an ambush token against {enemy}"),
        # Terms: пробоина, корпус L138; поломка L140.
        "Holed": said("{whose} is holed: hull {hull}"),
        "BrokeDown": lambda h, _: gettext("{whose} breaks down: {breakdown} ({stat})").format(
            whose=h.whose, breakdown=gettext(words(h.data["breakdown"])), stat=gettext(h.data["stat"])),
        "HullRepaired": said("{whose}'s hull repaired to {hull}"),
        "BreakdownRemoved": lambda h, _: gettext("{whose}'s {breakdown} repaired").format(
            whose=h.whose, breakdown=gettext(words(h.data["breakdown"]))),
        "Fitted": _fitted,
        # Terms: порт L147, L206.
        "EnteredPort": said("{whose} enters port"),
        "PutToSea": said("{whose} puts to sea"),
        "EnemyFaced": lambda h, _: gettext("against {enemy}").format(enemy=h.data["enemy"]) if h.data.get("enemy")
        else None,
        "MoveClosed": said("{whose}'s roll {roll} is final ({why})"),
        "SchemeReckoned": _scheme,
        "NegotiationRoundReckoned": _negotiation_round,
        "MoneyGained": _money,
        "MoneySpent": _money,
    },
)


# --- the words a page says of the game's commands ---------------------------------------------------------
#: The common moves (`Ruleset.common_moves`) and the book's groups, as the cards name them.
# Terms: ход, фарт, урон; базовые ходы, ходы корабля, такелаж, порт.
CARD_WORDS = (N_("luck"), N_("harm"), N_("basic"), N_("ship"), N_("additional ship"), N_("rigging"), N_("port"),
              N_("special"))

# --- the words a page says of the game's commands and fields (web/field_words.py says them) ---
# Terms: фарт, пункт фарта L40-L51; урон, рана L43; поломка, пробоина (корабль); репутация L44; характеристика;
# сундук, пиастры, дублоны; попойка, байка L52; картограф; кодекс; совет; засада, жетон засады; судьба L75-L78;
# переговоры; замысел (план); порт, выйти в море; такелаж.
#: The fields of the game's commands, as their forms ask them.
FIELDS = (
    N_("absorb with luck"), N_("actor"), N_("advantage"), N_("at"), N_("background"), N_("bonuses"), N_("breakdown"),
    N_("campaign"), N_("chests"), N_("commitment"), N_("council"), N_("disadvantage"), N_("doubloons"), N_("enemy"),
    N_("from"), N_("harm"), N_("id"), N_("in port"), N_("initiator"), N_("kept"), N_("level"), N_("luck bonus"),
    N_("move"), N_("name"), N_("options"), N_("paid by"), N_("piastres"), N_("player"), N_("points"),
    N_("position"), N_("precept"), N_("purpose"), N_("purse piastres"), N_("rigging"), N_("ruleset"), N_("salt"),
    N_("secrets"), N_("seen"), N_("ship"), N_("ship moves"), N_("stats"), N_("strike"), N_("testing kit"), N_("to"),
    N_("trait limit"), N_("treasury piastres"), N_("type"), N_("what"),
)
#: The game's once-only limits (`Ruleset.limits`), as the campaign page's table names them.
# Terms: +1 к проверке, помочь или помешать L45-L46; поломка, пробоина L140; байка L52; залатать брешь L146;
# варианты развития L166; варианты судьбы L87.
LIMITS = (N_("luck roll bonus"), N_("luck help or hinder"), N_("breakdown instead of hole"), N_("tall tale"),
          N_("sea repair hole"), N_("development option"), N_("fate option"))
#: The game's commands, as the post page's choice and heading say them.
COMMANDS = (
    N_("abandon seed"), N_("choose fate"), N_("close roll"), N_("concede negotiation"), N_("create campaign"),
    N_("create character"), N_("create ship"), N_("end battle"), N_("end carousal"), N_("end chapter"),
    N_("end plan"), N_("end scene"), N_("end story"), N_("enter port"), N_("gain ambush token"), N_("gain money"),
    N_("gain secret"), N_("lower reputation"), N_("meet condition"), N_("negotiation round"), N_("pirate code"),
    N_("put to sea"), N_("repair ship"), N_("roll move"), N_("rotate seed"), N_("scheme"), N_("spend ambush token"),
    N_("spend luck"), N_("spend money"), N_("start battle"), N_("start carousal"), N_("start chapter"),
    N_("start negotiation"), N_("start scene"), N_("start story"), N_("take breakdown"), N_("take damage"),
    N_("take hole"), N_("tell tall tale"), N_("trade success for luck"), N_("transfer money"), N_("treat wound"),
    N_("upgrade ship"),
)

#: The sheets' key figures, as a command's line says what it changed ("Anna: luck 1 → 0"): the pirates' own words.
# Terms: фарт L38; раны L62-L68 (another game says «ранения»); корпус L138-L147; шансы L194-L196.
FIGURES = (NC_("pirates", "luck"), NC_("pirates", "wounds"), NC_("pirates", "hull"), NC_("pirates", "chances"))

#: The values the game's commands choose among (the post page's drop-downs say them; the form sends the value).
# Terms: пережить морской бой, пришвартоваться к новому берегу, пролить кровь на палубе L153-L155; новые пушки,
# новые мачты, расчистить трюм и укрепить борта, новый ход корабля, ещё 1 ход корабля, новая оснастка L158-L164;
# кошелёк, жизнь, слава L200; судьбу озвучивает Мастер L87; угроза, пират L204.
CHOICES = (N_("survived sea battle"), N_("moored new shore"), N_("spilled blood"), N_("new guns"), N_("new masts"),
           N_("reinforced hold"), N_("new ship move"), N_("another ship move"), N_("new rigging"),
           N_("more rigging"), N_("life"), N_("glory"), N_("narrated by gm"), N_("threat"), N_("pirate"))
