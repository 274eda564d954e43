"""The words of the record a page shows, in the page's language: the commands' and their fields' names, the
members' roles, the roll badges' states. The record and the forms keep their identifiers (`luck_bonus`,
`roll_move`); a page says them as words (`said`), translated where the catalog has them.

The identifiers are data, so the words a page says of them are marked here for extraction (N_). The
pirates' are the originals' terms (pirates-pbta.ru.txt); another game's identifier the catalog lacks is
said in English words, as before.
"""

from __future__ import annotations

from typing import Any

from ..language import N_, gettext

#: The members' roles and what a sheet is of.
ROLES = (N_("gm"), N_("player"), N_("auditor"), N_("character"), N_("ship"))

# Terms: фарт, пункт фарта L40-L51; урон, рана L43; поломка, пробоина (корабль); репутация L44; характеристика;
# сундук, пиастры, дублоны; попойка, байка L52; картограф; кодекс; совет; засада, жетон засады; судьба L75-L78;
# переговоры; замысел (план); порт, выйти в море; такелаж.
#: The pirates' fields, as their forms ask them.
FIELDS = (
    N_("absorb with luck"), N_("actor"), N_("advantage"), N_("at"), N_("background"), N_("bonuses"), N_("breakdown"),
    N_("campaign"), N_("chests"), N_("commitment"), N_("council"), N_("disadvantage"), N_("doubloons"), N_("enemy"),
    N_("from"), N_("harm"), N_("id"), N_("in port"), N_("initiator"), N_("kept"), N_("level"), N_("luck bonus"),
    N_("move"), N_("name"), N_("options"), N_("paid by"), N_("piastres"), N_("player"), N_("points"),
    N_("position"), N_("precept"), N_("purpose"), N_("purse piastres"), N_("rigging"), N_("ruleset"), N_("salt"),
    N_("secrets"), N_("seen"), N_("ship"), N_("ship moves"), N_("stats"), N_("strike"), N_("testing kit"), N_("to"),
    N_("trait limit"), N_("treasury piastres"), N_("type"), N_("what"),
)
#: The pirates' once-only limits (`Ruleset.limits`), as the campaign page's table names them.
# Terms: +1 к проверке, помочь или помешать L45-L46; поломка, пробоина L140; байка L52; залатать брешь L146;
# варианты развития L166; варианты судьбы L87.
LIMITS = (N_("luck roll bonus"), N_("luck help or hinder"), N_("breakdown instead of hole"), N_("tall tale"),
          N_("sea repair hole"), N_("development option"), N_("fate option"))
#: The pirates' commands, as the post page's choice and heading say them.
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


def said(name: Any) -> str:
    """An identifier (`luck_bonus`) or a text of the record in words of the page's language ("luck bonus"
    in English); nothing stays nothing (gettext's "" is the catalog's header)."""
    text = str(name or "").replace("_", " ").strip()
    return gettext(text) if text else ""
