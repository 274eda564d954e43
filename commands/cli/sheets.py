"""Sheets as the game's own sheet reads: grouped (stats, resources, wounds or health,
conditions), in words, modifiers explained, with no bookkeeping fields. `--json` is the
projection's sheet exactly as it is; this is only how a terminal shows it.

Each ruleset's layout is a list of sections, each a list of (label, value) read from the
sheet; a field no section shows and no list hides is still shown under "Other", so a field
a ruleset adds later is never lost from view.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ...domain.rulesets.pirates import rules as pirate_rules

Sheet = Mapping[str, Any]
Rows = list[tuple[str, str]]
Section = tuple[str, Callable[[Sheet], Rows]]


def said(value: Any) -> str:
    """A value in words: numbers as they are, yes/no, lists and maps as phrases, — for nothing."""
    if value is None or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(said(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{str(k).replace('_', ' ')} {said(v)}" for k, v in value.items())
    return str(value).replace("_", " ") if isinstance(value, str) else str(value)


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def fields(*names: str, labels: Mapping[str, str] | None = None) -> Callable[[Sheet], Rows]:
    def rows(sheet: Sheet) -> Rows:
        return [((labels or {}).get(n, n.replace("_", " ")), said(sheet[n])) for n in names if n in sheet]
    return rows


def spread(name: str, show: Callable[[Any], str] = said) -> Callable[[Sheet], Rows]:
    """One row per entry of a map field (a stat, an ability, a skill each on its line)."""
    def rows(sheet: Sheet) -> Rows:
        return [(key.replace("_", " "), show(value)) for key, value in (sheet.get(name) or {}).items()]
    return rows


# --- the pirate game ------------------------------------------------------------------------


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
    return [("open move", f"{move['roll']}: {name} = {move['total']}, {said(move['outcome'])}")]


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

# --- the other games ------------------------------------------------------------------------

HERO: list[Section] = [
    ("Abilities", lambda s: [(k, f"{v}" + (f" (lowered {s['lowered'][k]})" if s.get("lowered", {}).get(k) else ""))
                             for k, v in s["abilities"].items()]),
    ("Powers and talents", lambda s: [*spread("powers")(s), *spread("talents")(s)]),
    ("Health and Resolve", lambda s: [("health", f"{s['health']} of {s['max_health']}"),
                                      *fields("resolve", "edge", "minions", "defeated", "unconscious")(s)]),
    ("Conditions", fields("effects", "defining_moment", "defining_moment_used", "must_lower_ability", "lost_pages")),
    ("Who", fields("player", "role", "motivation", "perks", "flaws")),
]
HERO_HIDDEN = {"name", "power_uses", "lowered", "stunts", "acts_first"}


def _implant_wounds(sheet: Sheet) -> Rows:
    penalty = sheet.get("wound_penalty", 0)
    why = f" ({sheet['wounds']} wounds)" if penalty else ""
    return [("wounds", f"{sheet['wounds']} of {sheet['max_wounds']}"), ("wound penalty", f"{signed(-abs(penalty))}{why}")]


IMPLANT: list[Section] = [
    ("Attributes", spread("attributes")),
    ("Skills", spread("skills")),
    ("Defence", fields("parry", "toughness", "armour")),
    ("Wounds", _implant_wounds),
    ("Conditions", lambda s: [(k, "yes") for k in ("shaken", "dying", "out", "vulnerable", "distracted", "aiming")
                              if s.get(k)] or [("conditions", "—")]),
    ("Gear and bennies", fields("bennies", "energy_cells", "weapons", "disarmed")),
    ("Who", fields("player", "wild_card")),
]
IMPLANT_HIDDEN = {"name", "wound_penalty", "benny_pool", "unconscious_hours", "max_wounds"}

GLADIATOR: list[Section] = [
    ("Attributes and skills", lambda s: [*spread("attributes")(s), ("main skill", s["main_skill"]),
                                         *spread("skills")(s), *fields("class_skill", "style")(s)]),
    ("Signature moves", spread("signature_moves")),
    ("Health", lambda s: [("health", f"{s['health']} of {s['max_health']}"), *fields("beaten")(s)]),
    ("Motivation and tokens", fields("motivation", "motivation_used", "roleplay_tokens")),
    ("Who", fields("player")),
]
ENEMY: list[Section] = [
    ("Health", lambda s: [("health", f"{s['health']} of {s['max_health']}"), *fields("standing", "members", "beaten")(s)]),
]

LAYOUTS: dict[tuple[str, str], tuple[list[Section], set[str]]] = {
    ("pirates", "character"): (PIRATE, PIRATE_HIDDEN),
    ("pirates", "ship"): (SHIP, SHIP_HIDDEN),
    ("heroes", "character"): (HERO, HERO_HIDDEN),
    ("implant", "character"): (IMPLANT, IMPLANT_HIDDEN),
    ("gladiators", "character"): (GLADIATOR, {"name"}),
    ("gladiators", "enemy"): (ENEMY, {"name", "squad"}),
}


def sections(ruleset: str, kind: str, sheet: Sheet) -> list[tuple[str, Rows]]:
    """The sheet in the game's sections; whatever none of them reads or hides, under "Other"."""
    layout, hidden = LAYOUTS.get((ruleset, kind), ([], {"name"}))
    reading = _Reading(sheet)
    shown = [(title, rows(reading)) for title, rows in layout]
    other = [(key.replace("_", " "), said(value)) for key, value in sheet.items()
             if key not in reading.read and key not in hidden]
    return [(title, rows) for title, rows in [*shown, ("Other", other)] if rows]


class _Reading(dict):  # type: ignore[type-arg]
    """A sheet that notes which of its fields the sections read, so none is left unshown."""

    def __init__(self, sheet: Sheet) -> None:
        super().__init__(sheet)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


def key_figures(ruleset: str, kind: str, sheet: Sheet) -> dict[str, Any]:
    """The few numbers a GM looks for first in a listing of characters."""
    if "max_health" in sheet:
        figures: dict[str, Any] = {"health": f"{sheet['health']}/{sheet['max_health']}"}
        for key in ("resolve", "roleplay_tokens", "standing"):
            if key in sheet:
                figures[key.replace("_", " ")] = sheet[key]
        return figures
    if kind == "ship":
        return {"hull": f"{sheet['hull']}/{sheet['hull_rating']}", "chances": sheet["chances"]}
    if ruleset == "implant":
        return {"wounds": f"{sheet['wounds']}/{sheet['max_wounds']}", "bennies": sheet["bennies"]}
    if ruleset == "pirates":
        wounds = ", ".join(f"{n} {level}" for level, n in sheet["wounds"].items() if n) or "none"
        return {"luck": sheet["luck"], "wounds": wounds}
    return {}
