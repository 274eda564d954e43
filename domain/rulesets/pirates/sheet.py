"""The pirates' sheets as «Поднять паруса!» prints them: stats, luck and purse, wounds with the modifier
they give (L66, L68), the open move, Fate; the ship's stats, hull, crew and development."""

from __future__ import annotations

from typing import Any

from ...ids import shown_id
from ...sheet_layout import Layouts, Rows, Section, Sheet, fields, said, signed, spread
from . import rules as pirate_rules


def _pirate_wounds(sheet: Sheet) -> Rows:
    slots = [f"{i}: {level or 'empty'}" for i, level in enumerate(sheet["slots"], start=1)]
    return [("slots", ", ".join(slots)), ("modifier", _pirate_modifier(sheet))]


def _pirate_modifier(sheet: Sheet) -> str:
    """The wound modifier on the next rolled move, with where each part comes from (L66, L68)."""
    modifier, parts = sheet["modifier"], []
    if sheet["pending_light"]:
        parts.append(f"-{sheet['pending_light']} light wounds, once")
    if pirate_rules.SERIOUS in sheet["slots"]:
        parts.append(f"{pirate_rules.SERIOUS_PENALTY} serious wound")
    if pirate_rules.TERRIBLE in sheet["slots"]:
        parts.append(f"{pirate_rules.TERRIBLE_PENALTY} terrible wound")
    return f"{signed(modifier)} ({'; '.join(parts)})" if parts else "0"


def _pirate_move(sheet: Sheet) -> Rows:
    move = sheet.get("move")
    if not move:
        return []
    name = (move.get("move") or move.get("stat") or "").replace("_", " ")
    return [("open move", f"{shown_id(move['roll'])}: {name} = {move['total']}, {said(move['outcome'])}")]


def _fate(sheet: Sheet) -> Rows:
    rows = fields("fates", "fate_pending", "fate_choice", "dead", "out_of_scene")(sheet)
    return [(label, value) for label, value in rows if value not in ("—", "no")]


PIRATE: list[Section] = [
    ("Stats", spread("stats", lambda v: signed(int(v)))),
    ("Luck and purse", lambda s: [("luck", str(s["luck"])), ("purse", f"{s['purse_piastres']} piastres"),
                                  *fields("ambush_tokens")(s)]),
    ("Wounds", _pirate_wounds),
    ("Move", _pirate_move),
    ("Fate", _fate),
    ("Who", fields("player", "background", "position")),
]
PIRATE_HIDDEN = {"name", "wounds", "treated", "pending_light", "purse", "fate_struck"}

SHIP: list[Section] = [
    ("Stats", fields("navigation", "firepower", "displacement")),
    ("Hull", lambda s: [("hull", f"{s['hull']} of {s['hull_rating']}"), *fields("breakdown")(s)]),
    ("Crew", lambda s: [("chances", str(s["chances"])), ("GM's chances", str(s["gm_chances"])),
                        ("treasury", f"{s['treasury_piastres']} piastres"), *fields("in_port", "plan")(s)]),
    ("Development", fields("developments", "ship_moves", "rigging", "conditions", "secrets")),
]
SHIP_HIDDEN = {"name", "hull_rating", "treasury", "voyage", "below_zero", "must_not_go_under"}


LAYOUTS: Layouts = {"character": (PIRATE, PIRATE_HIDDEN), "ship": (SHIP, SHIP_HIDDEN)}


def key_figures(kind: str, sheet: Sheet) -> dict[str, Any]:
    """Luck and wounds of a pirate; hull and chances of a ship."""
    if kind == "ship":
        return {"hull": f"{sheet['hull']}/{sheet['hull_rating']}", "chances": sheet["chances"]}
    wounds = ", ".join(f"{n} {level}" for level, n in sheet["wounds"].items() if n) or "none"
    return {"luck": sheet["luck"], "wounds": wounds}
