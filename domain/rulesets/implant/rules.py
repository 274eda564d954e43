"""«Имплант» in numbers: every constant, formula, option and limit of the game, in one place.

Line references (`L45`) are to shared/seeds/implant-savage-worlds.ru.txt; section references
(§5.2) to the English digest shared/rules/implant-savage-worlds.md; I-n are its ambiguity
rulings. Dice are kept as their number of sides (a d8 is 8) and shown as "d8".
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

from ...errors import RuleViolation
from ...options import Option, Options
from ...timeline import Limit, Scope

# --- dice (L6) ----------------------------------------------------------------------------

#: d4 → d6 → d8 → d10 → d12; "и так далее" above d12 is not defined (I-20), so d12 is the top.
DIE_STEPS = (4, 6, 8, 10, 12)
UNTRAINED_SIDES = 4  # an untrained skill rolls d4 ...
UNTRAINED_MODIFIER = -2  # ... with −2, on the wild die too (L6, L14; I-10)
WILD_DIE = 6  # L14
RAISE_DIE = 6  # +1d6 damage per attack raise (L102; I-3)
DEFAULT_TN = 4  # "обычно 4" (L11); the TN of every check the source leaves open (I-12)


def die(text: str) -> int:
    """"d8" → 8."""
    match = re.fullmatch(r"d(\d+)", text)
    if match is None or int(match.group(1)) not in DIE_STEPS:
        raise RuleViolation("{text!r} is not a trait die (d4, d6, d8, d10, d12; L6, I-20)", text=text)
    return int(match.group(1))


def die_text(sides: int) -> str:
    return f"d{sides}"


def step(sides: int | None) -> int:
    """A die's step: untrained 0, d4 1, d6 2, ... (one creation point per step, L123)."""
    return 0 if sides is None else DIE_STEPS.index(sides) + 1


def half(sides: int) -> int:
    """"Half a die" = half its number of sides (L78, L105)."""
    return sides // 2


def damage_dice(text: str) -> list[list[int]]:
    """A weapon's damage "2d6" or "d6+d4" → [[2, 6]] or [[1, 6], [1, 4]] (L100-L101)."""
    groups = []
    for part in text.replace(" ", "").split("+"):
        match = re.fullmatch(r"(\d*)d(\d+)", part)
        if match is None or int(match.group(2)) not in DIE_STEPS or int(match.group(1) or 1) not in range(1, 11):
            raise RuleViolation(
                "weapon damage {text!r} is not dice like 2d6 or d6+d4 (1-10 dice of d4…d12; L100)",
                field="weapons", text=text,
            )
        groups.append([int(match.group(1) or 1), int(match.group(2))])
    return groups


def dice_text(groups: list[list[int]]) -> str:
    return "+".join(f"{'' if count == 1 else count}d{sides}" for count, sides in groups)


# --- traits (L21-L60) --------------------------------------------------------------------


@cache
def traits() -> dict[str, dict[str, Any]]:
    """The attributes and skills of the source with their Russian names and linked attributes: data."""
    text = resources.files(__package__).joinpath("data/traits.json").read_text(encoding="utf-8")
    return {kind: entries for kind, entries in json.loads(text).items() if not kind.startswith("_")}


ATTRIBUTES = tuple(traits()["attributes"])
SKILLS = tuple(traits()["skills"])


def linked_attribute(skill: str) -> str:
    return str(traits()["skills"][skill]["attribute"])


# --- character creation (L120-L128, §7) --------------------------------------------------

#: All attributes d4, Intellect d6 ("мы уже повышали интеллект в игре", L121).
STARTING_ATTRIBUTES = {"strength": 4, "agility": 4, "intellect": 6, "vigor": 4, "spirit": 4}
#: Athletics, Persuasion, Common Knowledge, Notice and Stealth start at d4 (L123).
STARTING_SKILLS = {"athletics": 4, "persuasion": 4, "common_knowledge": 4, "notice": 4, "stealth": 4}
CREATION_POINTS = 10  # one point = one step; unspent points are lost (L123; I-26)
PC_MAX_WOUNDS = 2  # L127
STARTING_ARMOUR = 0  # L126
STARTING_ENERGY_CELLS = 0  # L128

# --- derived values (L78, L105, L125-L126) -----------------------------------------------

BASE_PARRY = 2
BASE_TOUGHNESS = 2
#: I-1: (a) 2 + half(Vigor) + armour (L105, recommended); (b) 2 + Vigor + armour (L126).
TOUGHNESS_READINGS = ("half_vigor", "vigor")


def parry(fighting: int | None) -> int:
    """2 + half(Fighting); just 2 without Fighting (L78, L125; I-18)."""
    return BASE_PARRY + (half(fighting) if fighting is not None else 0)


def toughness(vigor: int, armour: int, reading: str) -> int:
    """2 + half(Vigor) + armour (L105; I-1 a), or 2 + Vigor + armour under reading (b) (L126)."""
    return BASE_TOUGHNESS + (half(vigor) if reading == "half_vigor" else vigor) + armour


MAX_WOUND_PENALTY = 3  # "максимальный штраф не может быть ниже -3" (L112)


def wound_penalty(wounds: int, per_wound: int) -> int:
    """−1 per wound (I-4, standard rules), never below −3 (L112)."""
    return -min(wounds * per_wound, MAX_WOUND_PENALTY)


# --- the check (L9-L19) ------------------------------------------------------------------

#: I-2: (a) result // TN − 1, the source's formula and example (L19); (b) standard SW (result − TN) // 4.
RAISE_READINGS = ("source", "standard")
STANDARD_RAISE_STEP = 4


def raises(result: int, tn: int, reading: str) -> int:
    """Raises of a result against a TN: 26 vs 4 → 26 // 4 − 1 = 5 (L19; I-2); 0 below the TN."""
    if result < tn:
        return 0
    if reading == "source":
        return result // tn - 1
    return (result - tn) // STANDARD_RAISE_STEP


def new_wounds(damage: int, toughness: int, reading: str, shaken_hit: str, shaken: bool) -> int:
    """Wounds of a damage total that reaches Toughness (L106-L107): one per raise; with no raise a
    Shaken target takes one (I-6); on a Shaken target `raises_plus_one` adds one to the raises (I-28)."""
    count = raises(damage, toughness, reading)
    if not count:
        return int(shaken)
    return count + int(shaken_hit == "raises_plus_one" and shaken)


# --- bennies and energy (L63-L69) --------------------------------------------------------

SCENE_BENNIES = 3  # renewed (set) to three at every scene start (L63; I-8)
GM_BENNIES_PER_ENEMY = 1  # L63
ENERGY_CELLS_PER_BENNY = 5  # L68
BENNY_PURPOSES = ("reroll", "unshake", "soak", "damage_reroll", "energy", "story")
#: I-16: any trait check may be rerolled (recommended) or, literally, only skill checks (L64).
REROLL_READINGS = ("trait_checks", "skill_checks")

# --- combat (L72-L96) --------------------------------------------------------------------

EXTRA_MELEE_PENALTIES = (0, -2, -4)  # first attack, then two more at −2 and −4 (L80; I-17)
DESPERATE_BONUSES = (2, 4)  # +2 or +4 to hit, the same subtracted from damage (L81)
WILD_ATTACK_BONUS = 2  # L82
VULNERABLE_BONUS = 2  # every check against a Vulnerable character (L82)
RANGED_TN = 4  # "Сложность попадания 4, если не сказано иное" (L85)
RANGE_PENALTY_MIN = -8  # L86
COVER_PENALTY_MIN = -10  # L87
RATE_OF_FIRE = (1, 6)  # L88
RECOIL_PENALTY = -2  # each attack after the first of a main action, not cumulative (L88; I-11)
AIM_BONUS = 2  # +2 to Shooting in the next round (L89)
OFF_HAND_PENALTY = -2  # L92
NONLETHAL_PENALTY = -1  # L93
UNCONSCIOUS_HOURS_DIE = 6  # unconscious for d6 hours instead of dying (L93)
CALLED_SHOT_PENALTY = -4  # head, vitals or a weapon (L94)
CALLED_SHOT_DAMAGE = 4  # head or vitals (L94)
CALLED_SHOT_TARGETS = ("head", "vitals", "weapon")
DISTRACTED_PENALTY = -2  # to every skill check of the Distracted character (L96)
HEALING_MINUTES = 10  # L117
#: I-28: a hit on a Shaken target: 1 wound on a success, r on r raises (standard); or r + 1.
SHAKEN_HIT_READINGS = ("standard", "raises_plus_one")

# --- options (alternative readings the digest keeps; defaults are its recommendations) ---

#: Each option: the default (the recommended reading), the values allowed, the ruling it comes from.
OPTIONS = Options(
    # I-1: Toughness 2 + half Vigor + armour (L105), or 2 + Vigor + armour (L126).
    toughness=Option("half_vigor", TOUGHNESS_READINGS, "I-1"),
    # I-2: raises = result // TN − 1 (L19), or the standard (result − TN) // 4.
    raises=Option("source", RAISE_READINGS, "I-2"),
    # I-16: a benny rerolls any trait check, or literally skill checks only (L64).
    benny_reroll=Option("trait_checks", REROLL_READINGS, "I-16"),
    # I-28: raises on a Shaken target give r wounds, or r + 1.
    shaken_hit=Option("standard", SHAKEN_HIT_READINGS, "I-28"),
    # I-4 (standard rules, not in the source): −1 per wound.
    wound_penalty_per_wound=Option(1, range(1, 4), "I-4"),
    # I-13 (standard rules, not in the source): Distracted until the end of the target's next N rounds.
    distracted_rounds=Option(1, range(1, 11), "I-13"),
    # I-25 (standard rules, not in the source): the GM spends his bennies for his NPCs as the player does.
    gm_bennies_spendable=Option(True, (True, False), "I-25"),
)

# --- limits (§8) -------------------------------------------------------------------------

TURN = Limit("turn", Scope.MOVE, 1, "L72", "a character's round starts")
MAIN_ACTION = Limit("main_action", Scope.MOVE, 1, "L72", "a character takes one main action")
EXTRA_MELEE_ATTACK = Limit(
    "extra_melee_attack", Scope.MOVE, 2, "L80; I-17", "a character may make additional melee attacks"
)
FREE_ATTACK = Limit(
    "withdrawal_free_attack", Scope.MOVE, 1, "L79",
    "an adjacent opponent gets a free attack on a character withdrawing from melee",
)
SOAK = Limit("soak", Scope.CAMPAIGN, 1, "L114", "a character may soak the wounds of one attack", per="damage")

LIMITS = (TURN, MAIN_ACTION, EXTRA_MELEE_ATTACK, FREE_ATTACK, SOAK)
