"""We Can Be Heroes in numbers: every constant, table and limit of the superhero game, in one place.

Line references (`L45`) are to shared/seeds/heroes-d6.ru.txt; section references (§5) to the
English digest shared/rules/heroes-d6.md; H-n are its ambiguity rulings.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from math import ceil

from ...options import Option, Options
from ...timeline import Limit, Scope

# --- the sheet (§2) ---------------------------------------------------------------------

ABILITIES = ("strength", "agility", "stamina", "intellect", "perception", "will")  # L79
#: The Defining Moment's cost: physical effort lowers one of these, a mental task one of those (L79).
EFFORT_ABILITIES = {
    "physical": ("agility", "strength", "stamina"),
    "mental": ("intellect", "perception", "will"),
}
#: What a Power can be used for; attack, defence and affecting others count for starting Resolve (L96).
POWER_USES = ("attack", "defence", "affect", "movement")
RESOLVE_USES = frozenset({"attack", "defence", "affect"})

#: Initiative ties: Heroes > Villains > Opponents > Others (L130-L131); minions act last (L133).
ROLES = ("hero", "villain", "opponent", "other", "minion")
HERO, MINION = "hero", "minion"

DEFAULT_TRAIT_LIMIT = 10  # Note (not in the source): the GM sets it per game (L27); 10 until he does


def half(rank: int) -> int:
    """Half a trait, rounded up like every rounding of the game (L29: half of Strength 5 is 3)."""
    return ceil(rank / 2)


def edge(abilities: dict[str, int]) -> int:
    """Edge (Инициатива) = Perception + Agility or Intellect, whichever is higher (L127-L128)."""
    return abilities["perception"] + max(abilities["agility"], abilities["intellect"])


def max_health(abilities: dict[str, int]) -> int:
    """The average of Stamina and Strength or of Stamina and Will, the higher, rounded up (L188-L189, L29)."""
    return ceil((abilities["stamina"] + max(abilities["strength"], abilities["will"])) / 2)


def highest_rank(abilities: dict[str, int], powers: dict[str, dict[str, object]]) -> int:
    """Rmax of L86-L96: Abilities and Powers used to attack, defend or affect others; not Talents (L95-L96)."""
    ranks = list(abilities.values())
    ranks += [p["rank"] for p in powers.values() if p["rank"] is not None and RESOLVE_USES & set(p["uses"])]  # type: ignore[arg-type]
    return max(ranks)  # type: ignore[arg-type]


def starting_resolve(trait_limit: int, highest_rank: int) -> int:
    """2 Resolve per rank the best Ability/interacting Power lies below the Trait Limit (L86-L96)."""
    return 2 * max(0, trait_limit - highest_rank)


# --- the check (§3) ---------------------------------------------------------------------

#: Faces 2 and 4 are one success, 6 two, the odd faces none (L34).
SUCCESSES = {1: 0, 2: 1, 3: 0, 4: 1, 5: 0, 6: 2}
SIDES = 6

#: Who narrates, by net successes band (L37-L41), or the traditional GM table (L58-L62).
OUTCOME_TABLES = {
    "narrator": (
        "opponent_narrates",
        "opponent_narrates_with_embellishment",
        "hero_narrates_with_embellishment",
        "hero_narrates",
    ),
    "traditional": (
        "complete_failure",
        "failure_with_positive_detail",
        "success_with_problem",
        "success",
    ),
}


def band(net: int) -> int:
    """The outcome band of net successes: ≤ −2, −1…0, 1…2, ≥ 3 (L37-L41) as 0..3."""
    if net <= -2:
        return 0
    if net <= 0:
        return 1
    if net <= 2:
        return 2
    return 3


def outcome(net: int, table: str) -> str:
    return OUTCOME_TABLES[table][band(net)]


def embellishment(net: int) -> str | None:
    """Who may embellish: the loser of an outcome that is neither a full failure nor a full win (L35, L54)."""
    return {1: "hero", 2: "opponent"}.get(band(net))


#: Difficulty names (L43-L52): 0 Easy ... 12+ Epic.
DIFFICULTIES = ((12, "epic"), (9, "legendary"), (6, "superhuman"), (5, "inhuman"), (4, "brutal"),
                (3, "daunting"), (2, "hard"), (1, "average"), (0, "easy"))


def difficulty_name(difficulty: int) -> str:
    return next(name for floor, name in DIFFICULTIES if difficulty >= floor)


SITUATIONAL_MAX = 3  # cover, visibility, size: −1…−3 / +1, +3 "to the roll", read as dice (L182-L184; H-5)

# --- dice modifiers (§3.1) --------------------------------------------------------------

RESOLVE_DICE = 1  # L108
DEFINING_MOMENT_RESOLVE_DICE = 3  # L77
HELP_DIFFICULTY = 2  # L66
CONTEST_BONUS = 2  # L73
CHASE_BONUS = 2  # L169 read as dice (H-4)
CHARGE_BONUS = 2  # L251
ALL_OUT_BONUS = 2  # L261-L262
TEAM_ATTACK_BONUS = 2  # L272
CLUB_PENALTY = -2  # L254
EXTRA_ACTION_PENALTY = -2  # per additional action (L142)
DEFAULT_CONTEST_CHECKS = 3  # L72
GROUP_FULL_SUCCESS = 3  # more than 3 (net) successes may be shared (L68; H-3)

# --- resources (§4) ---------------------------------------------------------------------

TRANSFER_COST = {"direct": 1, "indirect": 2}  # L107; H-20: direct 1 → 1
ADVERSITY_COST = 1  # H-18
BACK_IN_THE_FIGHT_HEALTH = 3  # L203; H-7 caps it at MaxHealth
KNOCKBACK_DAMAGE = 6  # L265; H-16: the net damage
REDIRECT_MARGIN = 3  # L269

RESOLVE_GAINS = {
    "defeat": "L99",
    "setback": "L99",
    "flaw": "L100",
    "social": "L101; H-19",
    "motivation": "L102",
    "heroic": "L84",
    "desperation": "L103; H-17",
}

# --- damage, recovery, effects (§6) -----------------------------------------------------

RECOVERY_DIFFICULTY = {"battle": 2, "day": 2, "full_day": 1}  # L193

# --- combat (§7) ------------------------------------------------------------------------

DISTANCES = ("close", "far", "extreme")  # L147-L150
CHASE_LADDER = ("cornered", *DISTANCES, "escaped")  # L170
FAST_MOVEMENT_RANK = 6  # L160
OPEN_TERRAIN_CLASSES = 3  # "2 or even 3" range classes a page (L161)
FOOT_PAGES_PER_CLASS = 2  # L160
CHASE_SHIFT_NET = 3  # L169; Note: by one range class


def thrown_range(strength: int) -> str:
    """Range of a throw by Strength rank (L153-L158); Strength 1-2 is Close too (H-15)."""
    if strength >= 25:
        return "beyond_extreme"
    if strength >= 13:
        return "extreme"
    if strength >= 7:
        return "far"
    return "close"


def grapple_result(net: int) -> str:
    """L213-L216: 0 or less fails, 1-2 a partial grab, 3+ held (or the item taken)."""
    if net <= 0:
        return "failed"
    return "partial" if net <= 2 else "held"


MANOEUVRES = {  # L235-L238: attacking and defending traits are the GM's word (L224)
    "confuse": "Agility or a movement Power vs Agility or a matching Power",
    "stunning_technique": "a normal attack vs a physical trait the GM picks",
    "overpower": "Strength or a Power acting on objects vs Strength or active defence",
    "taunt": "Charisma or Leadership vs Will",
    "other": "the GM's choice",
}


def manoeuvre_result(net: int) -> dict[str, object] | None:
    """The example effect table (L227-L231): dice penalty (H-5) and what else the target suffers."""
    if net <= 0:
        return None
    if net <= 2:
        return {"penalty": 1, "effects": ["speed halved"]}
    if net <= 4:
        return {"penalty": 2, "effects": ["cannot move", "loses weapon"]}
    return {"penalty": 3, "effects": ["loses the page"]}


def effect_pages(net: int) -> int:
    """A special effect lasts one page per two net successes, rounded up (L195)."""
    return ceil(net / 2) if net > 0 else 0


def help_dice(net: int) -> int:
    """+1 die per 2 net successes of the helper, rounded up (L66); nothing without a net success."""
    return ceil(net / 2) if net > 0 else 0


# --- options: the readings the digest keeps switchable ---------------------------------

TRAIT_LIMIT_MAX = 100
#: Each option: the default (the recommended reading), the values allowed, the ruling it comes from.
OPTIONS = Options(
    trait_limit=Option(DEFAULT_TRAIT_LIMIT, range(1, TRAIT_LIMIT_MAX + 1), "the GM's Trait Limit, L27"),
    # Who narrates (L37-L41), or the traditional GM table (L58-L62).
    outcome_table=Option("narrator", tuple(OUTCOME_TABLES), "L37-L41, L58-L62"),
    # H-1: (a) Resolve is reset at an issue's start; (b) topped up.
    resolve_renewal=Option("reset", ("reset", "top_up"), "H-1"),
    # L136: Act First bought acts first; "double_edge" is the GM variant of L137.
    act_first=Option("first", ("first", "double_edge"), "L136-L137"),
    # H-11: an effect counts down on its bearer's own turn, or every page.
    effect_countdown=Option("own_turn", ("own_turn", "every_page"), "H-11"),
    # H-24: one minion out per attack, or one per net success.
    minions=Option("one_per_attack", ("one_per_attack", "per_net_success"), "H-24"),
    # H-25: a Defining Moment's dice on its action, or on all its rolls.
    defining_moment_rolls=Option("action", ("action", "all_rolls"), "H-25"),
    # L126: actions in Edge order; "free" lets a forum table post as it can.
    initiative_order=Option("enforced", ("enforced", "free"), "L126"),
)

# --- limits (§9) ------------------------------------------------------------------------

DEFINING_MOMENT = Limit(
    "defining_moment", Scope.STORY, 1, "L19, L79",
    "a character may declare a Defining Moment",
)
BACK_IN_THE_FIGHT = Limit(
    "back_in_the_fight", Scope.SCENE, 1, "L205; H-6",
    "Resolve to get back in the fight or shake off a special effect may be spent",
)
TEAM_ATTACK = Limit(
    "team_attack", Scope.BATTLE, 1, "L273",
    "a character may take part in a team attack",
)
VILLAINOUS_ACT = Limit(
    "villainous_act", Scope.CHAPTER, 1, "L120",
    "the main villain may commit an unstoppable villainous act",
)
SAME_TARGET = Limit(
    "attack_same_target", Scope.MOVE, 1, "L143",
    "a character may attack the same target",
)
MOVEMENT = Limit(
    "movement", Scope.MOVE, 1, "L143",
    "a character may declare a movement",
)
ACTION = Limit(
    "action", Scope.MOVE, 1, "L126, L141-L142",
    "a character may act (more actions only if declared, at -2 dice each extra)",
)


@cache
def actions(declared: int) -> Limit:
    """ACTION for one who declared `declared` actions this page (L142); each count made once, not every action."""
    return replace(ACTION, count=declared)


EXTEND_EFFECT = Limit(
    "extend_effect", Scope.SCENE, 1, "L199",
    "an effect on a defeated opponent may be extended for 1 Resolve",
)
CHASE_CHECK = Limit(
    "chase_check", Scope.MOVE, 1, "L167",
    "a chase check takes one page",
)
SCENE_POOL = Limit(
    "scene_adversity_pool", Scope.SCENE, 1, "L119",
    "a scene may have its own Adversity pool",
)
RECOVERY = Limit(
    "recovery_after_battle", Scope.BATTLE, 1, "L193",
    "a character may make the recovery check after a battle",
)
REST_RECOVERY = Limit(
    "recovery_after_rest", Scope.CAMPAIGN, 1, "L193",
    "a character may make the recovery check after a day's rest", per="day",
)

LIMITS = (
    DEFINING_MOMENT, BACK_IN_THE_FIGHT, TEAM_ATTACK, VILLAINOUS_ACT, SAME_TARGET, MOVEMENT, ACTION,
    EXTEND_EFFECT, CHASE_CHECK, SCENE_POOL, RECOVERY, REST_RECOVERY,
)
