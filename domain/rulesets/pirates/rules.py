"""«Поднять паруса!» in numbers: every constant, limit and rule option of the pirate game, in one place.

Line references (`L45`) are to shared/seeds/pirates-pbta.ru.txt; section references (§5)
to the English digest shared/rules/pirates-pbta.md; P-n are its ambiguity rulings.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from ...dice import Judged, Modifier, SumDice
from ...options import Option, Options
from ...timeline import Limit, Scope

STATS = ("audacity", "guile", "foresight", "reputation")
STAT_MIN, STAT_MAX, STAT_MAX_AT_CREATION = -2, 3, 2  # L10

FULL_SUCCESS, PARTIAL_SUCCESS, MISS = "full_success", "partial_success", "miss"


def band(total: int) -> str:
    """The outcome of a check (L12-L17; P-1 reads "10 –" as 10+)."""
    if total >= 10:
        return FULL_SUCCESS
    if total >= 7:
        return PARTIAL_SUCCESS
    return MISS


CHECK_DICE, CHANCE_DICE, KEPT_DICE, CHECK_DIE = 2, 3, 2, 6  # 2d6 (L7); 3d6 keep 2 with a chance (L196)


def check_dice(chances: str | None, modifiers: tuple[Modifier, ...]) -> Judged:
    """What a check throws (§3): 2d6; a crew chance 3d6 keep the 2 highest, a GM chance the 2 lowest (L196)."""
    if chances == "advantage":
        dice = SumDice(CHANCE_DICE, CHECK_DIE, modifiers, keep_highest=KEPT_DICE)
    elif chances == "disadvantage":
        dice = SumDice(CHANCE_DICE, CHECK_DIE, modifiers, keep_lowest=KEPT_DICE)
    else:
        dice = SumDice(CHECK_DICE, CHECK_DIE, modifiers)
    return Judged(dice, band, (FULL_SUCCESS, PARTIAL_SUCCESS, MISS))


# --- luck (§4.1) --------------------------------------------------------------------------

#: The Cartographer's swap of a success for a miss (G2, L50-L51).
SWAP_LUCK = {PARTIAL_SUCCESS: 1, FULL_SUCCESS: 2}
LUCK_PER_WOUND_AVOIDED = 1  # S1, L43
LUCK_PER_REPUTATION_POINT = 1  # S2, L44; P-8

# --- wounds (§5) --------------------------------------------------------------------------

WOUND_SLOTS = 3  # L60
LIGHT, SERIOUS, TERRIBLE = "light", "serious", "terrible"
WOUND_LEVELS = (LIGHT, SERIOUS, TERRIBLE)
SERIOUS_PENALTY = -1  # L66, regardless of their number
TERRIBLE_PENALTY = -2  # L68; P-4: once for any number, adding to the serious -1

# --- meeting fate (§6) --------------------------------------------------------------------

FATE_ESCAPE = 10  # L78: 10+ escapes at the last moment
FATE_LUCKY = 12  # L78: 12 also regains 1 luck at once
FATE_LUCKY_LUCK = 1
FATE_PLAYER_CHOOSES = 7  # L78: 7-9 the player chooses; 6- the GM chooses
FATE_RESULTS = ("escaped_lucky", "escaped", "player_chooses", "gm_chooses")


def fate_result(total: int) -> str:
    """Meet Fate's 2d6 read by L78: 12 lucky, 10+ escaped, 7-9 the player chooses, 6- the GM."""
    if total >= FATE_LUCKY:
        return "escaped_lucky"
    if total >= FATE_ESCAPE:
        return "escaped"
    if total >= FATE_PLAYER_CHOOSES:
        return "player_chooses"
    return "gm_chooses"


def fate_dice() -> Judged:
    """2d6 with no modifiers at all (L77)."""
    return Judged(SumDice(CHECK_DICE, CHECK_DIE), fate_result, FATE_RESULTS)
#: The six fates (L80-L85), struck per player for the whole campaign once chosen (L87).
FATE_OPTIONS = {
    "artificial_body_part": "ты получаешь искусственную часть тела (L80)",
    "ugly_scar": "ты получаешь уродливый шрам (L81)",
    "slave_of_dark_powers": "ты становишься рабом тёмных сил (L82)",
    "hard_task": "высшие силы спасают тебя, но ты получаешь трудное задание (L83)",
    "wake_who_knows_where": "ты приходишь в себя неведомо где (L84)",
    "die_after_last_action": "ты погибаешь, успев совершить последнее действие (L85)",
}
#: What `choose_fate` takes when every option is struck: the GM narrates instead (L87).
FATE_NARRATED = "narrated_by_gm"
DEATH = "die_after_last_action"

# --- Pirate Code (§7) ---------------------------------------------------------------------

CODE_STEP = 1  # L91: +1 for a precept kept, -1 for one broken

# --- money (§4.7) -------------------------------------------------------------------------

PIASTRES_PER_DOUBLOON = 5  # L95
DOUBLOONS_PER_CHEST = 10  # L95
PIASTRES_PER_CHEST = PIASTRES_PER_DOUBLOON * DOUBLOONS_PER_CHEST


def piastres(chests: int = 0, doubloons: int = 0, coins: int = 0) -> int:
    return chests * PIASTRES_PER_CHEST + doubloons * PIASTRES_PER_DOUBLOON + coins


def in_coins(amount: int) -> dict[str, int]:
    """An amount shown in all three units: whole chests, then doubloons, then piastres."""
    chests, rest = divmod(amount, PIASTRES_PER_CHEST)
    doubloons, coins = divmod(rest, PIASTRES_PER_DOUBLOON)
    return {"chests": chests, "doubloons": doubloons, "piastres": coins}


# --- secrets and chances (§4.4, §4.5, §10) -----------------------------------------------

SECRETS_MAX = 3  # L99
COUNCIL_BONUS_MAX = 3  # L194; P-12: the participants' +1s, at most +3 in all
COUNCIL_LUCK = 1  # P-12: the price of helping (L46)
FULL_SUCCESS_EXTRA_CHANCES = 2  # L194

# --- negotiations (§11) -------------------------------------------------------------------

NEGOTIATION_ROUNDS = 3  # L202
PIRATES, OPPONENT = "pirates", "opponent"
PURSE, LIFE, GLORY = "purse", "life", "glory"
#: Purse beats Life, Glory beats Purse, Life beats Glory (L202).
BEATS = {PURSE: LIFE, GLORY: PURSE, LIFE: GLORY}
ROUND_TRUMPS = 1
SECRET_TRUMPS = 2  # L204: a secret used makes a won round worth 2 trumps; P-16 for the opponent
CONCESSION_AFTER_ROUND = 2  # L204
CONCESSION_LEAD = 2  # L204 "2/0"; P-15

# --- ships (§9) ---------------------------------------------------------------------------

SHIP_STATS = ("navigation", "firepower", "displacement")
SHIP_STAT_MAX = 3  # L105-L107
HULL_MAX = 6  # L109
#: Each breakdown lowers one stat by 1 (L141-L143).
BREAKDOWNS = {"torn_sails": "navigation", "wrecked_deck": "displacement", "wet_powder": "firepower"}
PORT_REPAIR_CHESTS = 1  # L147: Hull +1 or a breakdown removed
DEVELOPMENT_CHESTS = 6  # L152
DEVELOPMENT_CONDITIONS_NEEDED = 2  # L152
CONDITIONS = ("survived_sea_battle", "moored_new_shore", "spilled_blood")  # L153-L155
DEVELOPMENT_HULL = 1  # L168
#: The seven developments (L158-L164) and what each raises or what the crew picks from the book.
UPGRADES: dict[str, dict[str, str]] = {
    "new_guns": {"stat": "firepower"},
    "new_masts": {"stat": "navigation"},
    "reinforced_hold": {"stat": "displacement"},
    "new_ship_move": {"pick": "additional_ship"},
    "another_ship_move": {"pick": "additional_ship"},
    "new_rigging": {"pick": "rigging"},
    "more_rigging": {"pick": "rigging"},
}

# --- limits (§15) -------------------------------------------------------------------------

OWN_BONUS = Limit(
    "luck_roll_bonus", Scope.MOVE, 1, "L45",
    "a pirate may spend luck for +1 to his own roll",
)
HELP_OR_HINDER = Limit(
    "luck_help_or_hinder", Scope.MOVE, 1, "L46; P-7",
    "a pirate may spend luck to help or hinder a crewmate's roll",
)
BREAKDOWN_PER_BATTLE = Limit(
    "breakdown_instead_of_hole", Scope.BATTLE, 1, "L140",
    "a ship may take a breakdown instead of a hole",
)
#: Counted per carousal: the instance is "carousal N", forgotten when the carousal ends.
TALL_TALE = Limit(
    "tall_tale", Scope.CAMPAIGN, 1, "L52 (HB)",
    "only one pirate regains luck for a tall tale",
)
#: The pirates' own scope: what a ship may do once for as long as it sails (L146-L147, L166); the
#: timeline never opens or closes it, its rules name the instance and release it in port.
SHIP = Scope("ship", Scope.CAMPAIGN.rank + 1, lasting=True)
#: Counted per stay at sea: the instance is "<ship> at sea N", forgotten in port.
SEA_REPAIR = Limit(
    "sea_repair_hole", SHIP, 1, "L146-L147; P-21",
    "at sea only one hole may be patched",
)
#: Counted per ship for its whole life: the instance is the option.
DEVELOPMENT_OPTION = Limit(
    "development_option", SHIP, 1, "L166",
    "each development can be chosen only once",
)
#: Counted per player for the whole campaign: the instance is the option.
FATE_OPTION = Limit(
    "fate_option", Scope.CAMPAIGN, 1, "L87",
    "a fate, once chosen, is struck for that player",
)

LIMITS = (
    OWN_BONUS, HELP_OR_HINDER, BREAKDOWN_PER_BATTLE, TALL_TALE, SEA_REPAIR, DEVELOPMENT_OPTION, FATE_OPTION,
)

# --- rule options: the readings the digest keeps available --------------------------------

#: Each option: the default (the recommended reading), the values allowed, the ruling it comes from.
OPTIONS = Options(
    # P-2: (a) only all-light / all-serious escalate; (b) upgrade the lowest wound whenever full.
    full_wound_slots=Option("exact_escalation", ("exact_escalation", "upgrade_lowest"), "P-2"),
    # P-8: a Code violation at Reputation -2 is clamped; the option pays it in luck like S2.
    code_violation_costs_luck=Option(False, (False, True), "P-8"),
    # P-9: the tall tale's luck (HB; the amount is not stated).
    tall_tale_luck=Option(1, (1, 2, 3), "P-9"),
    # P-13 note: crew advantage and GM disadvantage on one roll cancel (2d6), or are refused.
    opposed_chances=Option("cancel", ("cancel", "refuse"), "P-13"),
    # P-15: (b) one side at 0 trumps, the other at 2 or more; (a) exactly 2 : 0.
    concession=Option("shutout", ("shutout", "exactly_2_0"), "P-15"),
    # P-17: (a) one Hull value capped at 6; (b) a rated hull that repairs restore up to.
    hull=Option("single", ("single", "rated"), "P-17"),
    # L52 names no place for a carousal (попойка); the digest (§1, §12) holds it in port, among the port moves.
    carousal=Option("in_port", ("in_port", "anywhere"), "L52; digest §1, §12"),
    # P-19 note: conditions count since the last development, or since the ship was acquired.
    development_conditions=Option("since_last_development", ("since_last_development", "ever"), "P-19"),
)


# --- the book of moves (names only: the source gives no text) -----------------------------


@cache
def move_book() -> dict[str, dict[str, dict[str, str]]]:
    """The moves the source names (without their text), by kind: data, not code."""
    text = resources.files(__package__).joinpath("data/moves.json").read_text(encoding="utf-8")
    return {kind: moves for kind, moves in json.loads(text).items() if not kind.startswith("_")}


def find_move(name: str, kinds: tuple[str, ...] | None = None) -> str | None:
    """A move's key from its key, English or Russian name; None if the book (or those kinds) lacks it."""
    wanted = name.strip().casefold()
    for kind, moves in move_book().items():
        if kinds is not None and kind not in kinds:
            continue
        for key, move in moves.items():
            names = (key, move["en"], move["ru"], *move.get("aliases", ()))
            if wanted in (n.casefold() for n in names):
                return key
    return None


def move_entry(key: str) -> tuple[str, dict[str, str]]:
    """(kind, entry) of a move key from the book."""
    for kind, moves in move_book().items():
        if key in moves:
            return kind, moves[key]
    raise KeyError(key)
