"""The gladiator game (PDQ-like) in numbers: every constant, table, limit and option in one place.

Line references (`L15`) are to shared/seeds/gladiators-pdq.ru.txt; section references (§3.1)
to the English digest shared/rules/gladiators-pdq.md; G-n are its ambiguity rulings.
"""

from __future__ import annotations

from ...options import Option, Options
from ...timeline import Limit, Scope

# --- attributes (§2.1, L3) --------------------------------------------------------------

GOOD, VERY_GOOD, GREAT = "good", "very_good", "great"
ATTRIBUTE_LEVELS = (GOOD, VERY_GOOD, GREAT)
#: The roll modifier of a raised attribute on related attack and defence moves (L3).
ATTRIBUTE_MODIFIER = {GOOD: 0, VERY_GOOD: 3, GREAT: 6}
#: A raised Endurance gives health instead of a roll modifier (L3; G-1 (a)).
ENDURANCE_HEALTH = {GOOD: 0, VERY_GOOD: 6, GREAT: 12}
#: The only attribute the source names (L3); the rest of the list is the missing form's (G-15).
ENDURANCE_NAMES = frozenset({"endurance", "выносливость"})
#: Either one attribute two levels up, or two attributes one level up (L3).
RAISE_PATTERNS = ({GREAT: 1, VERY_GOOD: 0}, {GREAT: 0, VERY_GOOD: 2})


def is_endurance(attribute: str) -> bool:
    return attribute.strip().casefold() in ENDURANCE_NAMES


# --- skills (§2.2, L4-L10) --------------------------------------------------------------

MAIN_SKILL_MODIFIER = 6  # Master level (L4)
STYLE_MODIFIER = 3  # L5: offensive -> attack, defensive -> defence, with the main skill (G-14)
OFFENSIVE, DEFENSIVE = "offensive", "defensive"
STYLES = (OFFENSIVE, DEFENSIVE)
SIGNATURE_MOVE_MODIFIER = 3  # L6
SIGNATURE_MOVES = 4  # L6
EXPERT, SPECIALIST = "expert", "specialist"
SKILL_MODIFIER = {EXPERT: 4, SPECIALIST: 2}  # L7
#: The three allowed shapes of the additional skills, as (experts, specialists) (L7; G-19).
SKILL_PACKAGES = ((2, 0), (0, 4), (1, 2))
CLASS_SKILL_MODIFIER = 4  # L10
ORDINARY_SKILL_MODIFIER = 0  # L8: «не лучше и не хуже прочих»; no health either (L15)
MOTIVATION_MIN, MOTIVATION_MAX = 2, 6  # L9
HEALTH_BASE = 1  # the "+ 1" of L15

# --- the combat turn (§3, L17-L22) ------------------------------------------------------

ATTACK, DEFENCE = "attack", "defence"
SIDES = (ATTACK, DEFENCE)
DIE_SIDES = 6
#: Tactic -> (attack dice, defence dice): 3d6 split for the current turn (L17-L21; G-6 (a)).
TACTICS = {
    "total_defence": (0, 3),  # L18
    "strong_defence": (1, 2),  # L19
    "strong_attack": (2, 1),  # L20
    "total_attack": (3, 0),  # L21
}
TOKEN_MODIFIER = 1  # each role-play token: +1 to attack and to defence (L27-L28; G-4 (a))

ATTACK_SIGNATURE_MOVE = Limit(
    "attack_signature_move", Scope.MOVE, 1, "L6",
    "a gladiator may perform one attack signature move",
)
DEFENCE_SIGNATURE_MOVE = Limit(
    "defence_signature_move", Scope.MOVE, 1, "L6",
    "a gladiator may perform one defence signature move",
)
SIGNATURE_MOVE_LIMITS = {ATTACK: ATTACK_SIGNATURE_MOVE, DEFENCE: DEFENCE_SIGNATURE_MOVE}
LIMITS = (ATTACK_SIGNATURE_MOVE, DEFENCE_SIGNATURE_MOVE)


def damage(attack: int, defence: int) -> int:
    """Health lost: the difference when the attack beats the defence, never negative (L22; G-8)."""
    return max(0, attack - defence)


# --- options: the alternative readings the digest keeps (§9) ------------------------------

#: Each option: the default (the recommended reading), the values allowed, the ruling it comes from.
OPTIONS = Options(
    # G-3: motivation is re-granted only by the GM (a), or refreshes at the end of each battle (b).
    motivation_refresh=Option("never", ("never", "battle"), "G-3"),
    # G-9: in the battle's first turn the PC's blow lands first (b'), or both losses of every
    # turn apply (a), or (not a digest reading) in each foe's first turn of the battle.
    first_strike=Option("first_turn", ("first_turn", "simultaneous", "per_foe"), "G-9"),
    # G-18: motivation and tokens added after the dice are seen, or declared before the roll.
    one_time_modifiers=Option("after_roll", ("after_roll", "before_roll"), "G-18"),
    # G-19: exactly one of the three packages of additional skills, or "up to" one.
    additional_skills=Option("exact", ("exact", "up_to"), "G-19"),
    # G-10 (Note, not in the source): a combatant is beaten at health <= this.
    beaten_at=Option(0, range(-100, 101), "G-10"),
)


def skill_shape_allowed(experts: int, specialists: int, up_to: bool) -> bool:
    """L7: two Experts, or four Specialists, or one Expert and two Specialists (G-19)."""
    if not up_to:
        return (experts, specialists) in SKILL_PACKAGES
    return any(experts <= e and specialists <= s for e, s in SKILL_PACKAGES)


def max_health(attributes: dict[str, str], skills: dict[str, str], motivation: int) -> int:
    """L15 (§2.4; G-1, G-2): raised attributes + main skill + additional skills + motivation + 1.

    Style, signature moves and the class skill are excluded by L15 itself; a raised
    Endurance counts with its health bonus, which is its "positive modifier" (G-1 (a)).
    """
    attribute_health = sum(
        (ENDURANCE_HEALTH if is_endurance(name) else ATTRIBUTE_MODIFIER)[level]
        for name, level in attributes.items()
    )
    skill_health = MAIN_SKILL_MODIFIER + sum(SKILL_MODIFIER[level] for level in skills.values())
    return attribute_health + skill_health + motivation + HEALTH_BASE
