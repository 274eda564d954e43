"""A hero's sheet as We Can Be Heroes prints it: abilities (lowered ones said), powers and talents,
Health and Resolve, conditions, who he is.

Terms: Характеристики, Таланты, Суперспособности, Перки, Недостатки L23; Миньоны L26; Решимость L19; здоровье,
«побежден» L186; ходы (страницы) L11; теряет сознание L103 (heroes-d6.ru.txt).
"""

from __future__ import annotations

from ...sheet_layout import N_, Layouts, Phrase, Section, fields, out_of, spread, word


HERO: list[Section] = [
    (N_("Abilities"), lambda s: [(k, Phrase(N_("{value} (lowered {by})"), value=v, by=s["lowered"][k])
                                     if s.get("lowered", {}).get(k) else f"{v}") for k, v in s["abilities"].items()]),
    (N_("Powers and talents"), lambda s: [*spread("powers")(s), *spread("talents")(s)]),
    (N_("Health and Resolve"), lambda s: [(N_("health"), out_of(s["health"], s["max_health"])),
                                          *fields("resolve", "edge", "minions", "defeated", "unconscious")(s)]),
    (N_("Conditions"), fields("effects", "defining_moment", "defining_moment_used", "must_lower_ability",
                              "lost_pages")),
    (N_("Who"), lambda s: [*fields("player")(s), *fields("role", show=word)(s),
                           *fields("motivation", "perks", "flaws")(s)]),
]
HERO_HIDDEN = {"name", "power_uses", "lowered", "stunts", "acts_first"}

LAYOUTS: Layouts = {"character": (HERO, HERO_HIDDEN)}
