"""The pirates' sheets as «Поднять паруса!» prints them: stats, luck and purse, wounds with the modifier
they give (L66, L68), the open move, Fate; the ship's stats, hull, crew and development.

Terms: Дерзость, Изворотливость, Дальновидность, Репутация L9-L10; фарт L38; пиастры, кошелёк L113; лёгкая,
серьёзная, ужасная рана L62-L68; судьба L80-L85; корабль: навигация, боевая мощь, водоизмещение, корпус,
шансы и шансы Мастера, казна, развитие (pirates.ru.txt).
"""

from __future__ import annotations

from typing import Any

from ...ids import shown_id
from ...sheet_layout import N_, Layouts, Phrase, Rows, Section, Sheet, fields, listed, out_of, said, signed, spread, word
from . import rules as pirate_rules


def _pirate_wounds(sheet: Sheet) -> Rows:
    slots = [Phrase(N_("{slot}: {level}"), slot=i, level=Phrase(level or N_("empty")))
             for i, level in enumerate(sheet["slots"], start=1)]
    return [(N_("slots"), listed(slots)), (N_("modifier"), _pirate_modifier(sheet))]


def _pirate_modifier(sheet: Sheet) -> str:
    """The wound modifier on the next rolled move, with where each part comes from (L66, L68)."""
    modifier, parts = sheet["modifier"], []
    if sheet["pending_light"]:
        parts.append(Phrase(N_("-{count} light wounds, once"), count=sheet["pending_light"]))
    if pirate_rules.SERIOUS in sheet["slots"]:
        parts.append(Phrase(N_("{penalty} serious wound"), penalty=pirate_rules.SERIOUS_PENALTY))
    if pirate_rules.TERRIBLE in sheet["slots"]:
        parts.append(Phrase(N_("{penalty} terrible wound"), penalty=pirate_rules.TERRIBLE_PENALTY))
    return Phrase(N_("{modifier} ({parts})"), modifier=signed(modifier), parts=listed(parts, "; ")) if parts else "0"


def _pirate_move(sheet: Sheet) -> Rows:
    move = sheet.get("move")
    if not move:
        return []
    name = (move.get("move") or move.get("stat") or "").replace("_", " ")
    return [(N_("open move"), Phrase(N_("{roll}: {move} = {total}, {outcome}"), roll=shown_id(move["roll"]),
                                     move=Phrase(name), total=move["total"], outcome=Phrase(said(move["outcome"]))))]


def _fate(sheet: Sheet) -> Rows:
    rows = fields("fates", "fate_pending", "fate_choice", "dead", "out_of_scene", show=word)(sheet)
    return [(label, value) for label, value in rows if value not in ("—", "no")]


def _piastres(count: int) -> str:
    """Counted by the reader's plural rule; English says "piastres" of every count, as the sheet always has."""
    return Phrase(N_("{count} piastres"), N_("{count} piastres"), count=count)


PIRATE: list[Section] = [
    (N_("Stats"), spread("stats", lambda v: signed(int(v)))),
    (N_("Luck and purse"), lambda s: [(N_("luck"), str(s["luck"])), (N_("purse"), _piastres(s["purse_piastres"])),
                                      *fields("ambush_tokens")(s)]),
    (N_("Wounds"), _pirate_wounds),
    (N_("Move"), _pirate_move),
    (N_("Fate"), _fate),
    (N_("Who"), fields("player", "background", "position")),
]
PIRATE_HIDDEN = {"name", "wounds", "treated", "pending_light", "purse", "fate_struck"}

SHIP: list[Section] = [
    (N_("Stats"), fields("navigation", "firepower", "displacement")),
    (N_("Hull"), lambda s: [(N_("hull"), out_of(s["hull"], s["hull_rating"])),
                            *([(N_("breakdown"), word(s["breakdown"]))] if "breakdown" in s else [])]),
    (N_("Crew"), lambda s: [(N_("chances"), str(s["chances"])), (N_("GM's chances"), str(s["gm_chances"])),
                            (N_("treasury"), _piastres(s["treasury_piastres"])), *fields("in_port", "plan")(s)]),
    (N_("Development"), fields("developments", "ship_moves", "rigging", "conditions", "secrets")),
]
SHIP_HIDDEN = {"name", "hull_rating", "treasury", "voyage", "below_zero", "must_not_go_under"}


LAYOUTS: Layouts = {"character": (PIRATE, PIRATE_HIDDEN), "ship": (SHIP, SHIP_HIDDEN)}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    """Luck and wounds of a pirate; hull and chances of a ship."""
    if kind == "ship":
        return {"hull": f"{sheet['hull']}/{sheet['hull_rating']}", "chances": sheet["chances"]}
    wounds = [_WOUNDS[level](n) for level, n in sheet["wounds"].items() if n]
    return {"luck": sheet["luck"], "wounds": listed(wounds) if wounds else Phrase(N_("none"))}


#: A count of wounds of each level, as a change's line says it ("1 light", «2 лёгкие раны»; L62-L68).
_WOUNDS = {
    pirate_rules.LIGHT: lambda n: Phrase(N_("{count} light"), N_("{count} light"), count=n),
    pirate_rules.SERIOUS: lambda n: Phrase(N_("{count} serious"), N_("{count} serious"), count=n),
    pirate_rules.TERRIBLE: lambda n: Phrase(N_("{count} terrible"), N_("{count} terrible"), count=n),
}
