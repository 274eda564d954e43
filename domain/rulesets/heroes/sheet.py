"""A hero's sheet as We Can Be Heroes prints it: abilities (lowered ones said), powers and talents,
Health and Resolve, conditions, who he is."""

from __future__ import annotations

from ...sheet_layout import Layouts, Section, fields, spread


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

LAYOUTS: Layouts = {"character": (HERO, HERO_HIDDEN)}
