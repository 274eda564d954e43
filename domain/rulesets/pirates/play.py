"""How a pirate plays: the check, luck spends and gains, harm, treatment, fate, the Code, ambushes.

Each function decides at a `Table`: it validates against the sheets, rolls, and calls the
aggregates' event methods. Section numbers are the digest's (shared/rules/pirates-pbta.md).
Meeting fate is in `fate.py`, ships in `seamanship.py`, the special moves in `intrigue.py`,
money in `money.py`, who may act at all in `acting.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...dice import Modifier, Roll
from ...errors import Count, RuleViolation, UnknownName, Word
from ...names import did_you_mean
from ...table import Table
from ...timeline import Scope
from . import rules
from .campaign import TOKENS_BURN
from .acting import acting, campaign_of, in_play, in_port
from .pirate import Pirate
from .rules import HELP_OR_HINDER, OWN_BONUS, band
from .seamanship import chosen_by_ship, crew_ship, declare_chances, sinking_first
from .settling import close_move, close_plan_rolls, open_move, reckon


# --- the check (§3) ----------------------------------------------------------------------------


def check(
    table: Table,
    pirate: Pirate,
    stat: str,
    *,
    move: str | None,
    luck_bonus: bool = False,
    advantage: bool = False,
    disadvantage: bool = False,
    ship: str | None = None,
    extra: Sequence[Modifier] = (),
    settled: bool = False,
    field: str = "type",
) -> tuple[str, Roll, str]:
    """2d6 + stat + modifiers (§3), 3d6 keep 2 with a chance spent; the pirate's move from now on.

    Returns (roll id, roll, outcome). A `settled` check belongs to a move whose command
    applies its outcome at once (Scheme, a negotiation's tie): luck after the roll makes
    that outcome follow (see `SETTLED`), until the roll closes. A ship that must not go under
    refuses it, naming `field` (L138).
    """
    in_play(pirate, "make a move")
    sinking_first(table, move=move, ship=ship, field=field)
    if pirate.move is not None:
        close_move(table, pirate, None)  # the next move makes the last one final
        table.campaign.release(Scope.MOVE, pirate.move["roll"])
    draw = table.draw()
    modifiers = [Modifier(stat, pirate.stats[stat]), *pirate.wound_modifiers(), *extra]
    if luck_bonus:
        table.campaign.use_limit(OWN_BONUS, holder=pirate.name, instance=draw.roll_id)
        pirate.spend_luck(1, "roll_bonus", field="luck_bonus")
        modifiers.append(Modifier("luck", 1))
    if advantage or disadvantage:
        vessel = crew_ship(table, ship)
        close_plan_rolls(table, vessel, f"a chance of {vessel.name}'s plan was spent", moving=pirate)
    chances = declare_chances(table, ship, draw.roll_id, advantage=advantage, disadvantage=disadvantage)
    check = rules.check_dice(chances, tuple(modifiers))
    table.foresee(check)
    roll = check.dice.roll(draw)
    outcome = check.judge(roll.total)
    roll_id = table.record(
        draw, roll, purpose=f"move:{move or stat}", character=pirate.name, outcome=outcome, stat=stat
    )
    table.campaign.begin_move(pirate.name, roll_id)
    pirate.move_rolled(roll=roll_id, move=move, stat=stat, total=roll.total, outcome=outcome, settled=settled)
    return roll_id, roll, outcome


def roll_move(
    table: Table,
    character: str,
    stat: str,
    move: str | None = None,
    *,
    luck_bonus: bool = False,
    advantage: bool = False,
    disadvantage: bool = False,
    ship: str | None = None,
) -> str:
    """A move from the book rolled with the stat the GM names (§3, §8, §9, §12)."""
    pirate = acting(table, character, "make a move")
    move_key = None
    if move is not None:
        move_key = rules.find_move(move)
        if move_key is None:
            known = [key for entries in rules.move_book().values() for key in entries]
            raise UnknownName("no move named {move!r} in the book (see `rollbook moves`){did_you_mean}", field="move",
                              move=move, did_you_mean=did_you_mean(move, known))
        kind, entry = rules.move_entry(move_key)
        if "command" in entry:
            raise RuleViolation(
                "{en} is played step by step with the `{command}` command ({line})",
                field="move", en=entry["en"], command=entry["command"], line=entry["line"],
            )
        if "applied_by" in entry:
            raise RuleViolation(
                "{en} ({ru}) is an automatic move, not rolled ({line}): the GM applies it with `{applied_by}`",
                field="move", en=entry["en"], ru=entry["ru"], line=entry["line"], applied_by=entry["applied_by"],
            )
        if kind == "port":
            in_port(table, ship, f"{entry['en']} is a port move (L206)", field="move")
        if kind in ("additional_ship", "rigging"):
            chosen_by_ship(table, ship, move_key)
        if "stat" in entry and entry["stat"] != stat:
            raise RuleViolation(
                "{en} rolls 2d6 + {stat} (L215, HB), not {given}",
                field="stat", en=entry["en"], stat=Word(entry["stat"]), given=Word(stat),
            )
    roll_id, _, _ = check(
        table, pirate, stat, move=move_key, luck_bonus=luck_bonus,
        advantage=advantage, disadvantage=disadvantage, ship=ship, field="move",
    )
    if move_key == "dont_go_under":
        vessel = crew_ship(table, ship)
        if vessel.must_not_go_under:
            vessel.dont_go_under_played(roll=roll_id)
    return roll_id


def _modifiable(pirate: Pirate) -> None:
    assert pirate.move is not None
    if pirate.move["closed"]:
        raise RuleViolation(
            "roll {roll} ({move}) is closed: its move's outcome is final ({closed})",
            field="roll", roll=pirate.move["roll"], move=pirate.move["move"], closed=pirate.move["closed"],
        )
    if pirate.move["traded"]:
        raise RuleViolation(
            "{name} traded roll {roll} for luck: it is a miss for good (L50-L51)",
            field="roll", name=pirate.name, roll=pirate.move["roll"],
        )


def _modify_move(table: Table, pirate: Pirate, value: int, source: str) -> None:
    assert pirate.move is not None
    total = pirate.move["total"] + value
    outcome = band(total)
    reason = f"{source} {value:+d}"
    pirate.move_modified(roll=pirate.move["roll"], total=total, outcome=outcome, reason=reason)
    table.campaign.modify_roll(
        pirate.move["roll"], total, outcome, reason, modifier=Modifier(source, value).as_dict()
    )
    reckon(table, pirate)


def _own_move(pirate: Pirate, roll: str | None) -> dict:
    if pirate.move is None:
        raise RuleViolation("{name} has no rolled move", field="roll", name=pirate.name)
    if roll is not None and roll != pirate.move["roll"]:
        raise RuleViolation(
            "roll {roll!r} is not {name}'s open move ({open_roll})",
            field="roll", roll=roll, name=pirate.name, open_roll=pirate.move["roll"],
        )
    return pirate.move


# --- luck (§4.1) ---------------------------------------------------------------------------------


def spend_luck(table: Table, character: str, purpose: str, roll: str | None) -> None:
    """1 luck for +1 to his own open move (L45), ±1 to a crewmate's `roll` (L46), or a Reputation below −2 (L44)."""
    if purpose == "roll_bonus":
        add_own_bonus(table, character, roll)
    elif purpose == "reputation":
        spend_luck_for_reputation(table, character)
    else:
        assert roll is not None, "the command model requires the roll it helps or hinders"
        help_or_hinder(table, character, roll, hinder=purpose == "hinder")


def add_own_bonus(table: Table, character: str, roll: str | None) -> None:
    """S3, decided after the roll (P-6): +1 to his own open move for 1 luck, once per move."""
    pirate = acting(table, character, "spend luck")
    move = _own_move(pirate, roll)
    _modifiable(pirate)
    table.campaign.use_limit(OWN_BONUS, holder=character, instance=move["roll"])
    pirate.spend_luck(1, "roll_bonus")
    _modify_move(table, pirate, 1, "luck")


def help_or_hinder(table: Table, character: str, roll: str, *, hinder: bool) -> None:
    """S4: 1 luck for +1 (or -1) to a crewmate's roll, after the roll too; once per helper per move."""
    helper = acting(table, character, "help or hinder")
    in_play(helper, "help or hinder")
    target = open_move(table, roll)
    if target.name == character:
        raise RuleViolation(
            "{character} cannot help or hinder his own roll; +1 to one's own roll is purpose roll_bonus",
            field="roll", character=character,
        )
    _modifiable(target)
    table.campaign.use_limit(HELP_OR_HINDER, holder=character, instance=roll)
    helper.spend_luck(1, "hinder" if hinder else "help")
    _modify_move(table, target, -1 if hinder else 1, f"{'hindered' if hinder else 'helped'} by {character}")


def trade_success_for_luck(table: Table, character: str, roll: str) -> None:
    """G2: the Cartographer offers luck for turning a success into a miss; the pirate accepts (L50-L51)."""
    pirate = acting(table, character, "trade a roll for luck")
    move = _own_move(pirate, roll)
    _modifiable(pirate)
    if move["outcome"] == rules.MISS:
        raise RuleViolation(
            "roll {roll} is already a miss ({total}); only a success can be traded for luck (L50)",
            field="roll", roll=roll, total=move["total"],
        )
    luck = rules.SWAP_LUCK[move["outcome"]]
    pirate.success_traded(roll=roll, outcome=move["outcome"], luck=luck)
    table.campaign.modify_roll(roll, move["total"], rules.MISS, f"{move['outcome']} traded for {luck} luck (G2)")
    pirate.gain_luck(luck, f"{move['outcome']} traded for a miss (L50-L51)")
    reckon(table, pirate)


def tell_tall_tale(table: Table, character: str) -> None:
    """G3 (HB): a tall tale told at a carousal regains luck — for one pirate per carousal (L52; P-9)."""
    pirate = acting(table, character, "tell a tall tale")
    carousal = campaign_of(table).carousal
    if not carousal["open"]:
        raise RuleViolation("a tall tale regains luck only during a carousal (L52): start_carousal first")
    instance = f"carousal {carousal['number']}"
    used = table.campaign.uses(rules.TALL_TALE, holder="crew", instance=instance)
    if used >= rules.TALL_TALE.count:
        raise rules.TALL_TALE.refusal(used, instance, field="character")
    table.campaign.use_limit(rules.TALL_TALE, holder="crew", instance=instance)
    pirate.gain_luck(table.campaign.option("tall_tale_luck"), f"a tall tale at {instance} (L52, HB)")


def start_carousal(table: Table, title: str | None, ship: str | None) -> None:
    """A carousal (попойка, L52) is held in port by default (the digest's §1, §12); the option lets it be anywhere."""
    campaign = campaign_of(table)
    if campaign.carousal["open"]:
        raise RuleViolation("carousal {number} is still going; end it first", number=campaign.carousal["number"])
    if campaign.option("carousal") == "in_port":
        in_port(table, ship, "a carousal is held in port (digest §1, §12; option carousal)", field="ship")
    campaign.carousal_started(number=campaign.carousal["number"] + 1, title=title)


def end_carousal(table: Table) -> None:
    campaign = campaign_of(table)
    if not campaign.carousal["open"]:
        raise RuleViolation("no carousal is going on")
    number = campaign.carousal["number"]
    campaign.release(Scope.CAMPAIGN, f"carousal {number}")
    campaign.carousal_ended(number=number)


# --- harm, wounds, treatment (§5) ------------------------------------------------------------------


def take_harm(
    table: Table, character: str, harm: int, *, absorb_with_luck: int | bool = 0, level: str = rules.LIGHT
) -> None:
    """Each point of harm in turn (§5): absorbed by 1 luck, or a wound, or a mandatory luck.

    `absorb_with_luck`: how many points luck absorbs; True, as many as his luck covers (L43).
    """
    pirate = table.get(Pirate, character)
    if absorb_with_luck is True:
        absorb_with_luck = min(harm, pirate.luck)
    absorb_with_luck = int(absorb_with_luck)
    if absorb_with_luck > harm:
        raise RuleViolation(
            "cannot absorb {absorb_with_luck} wounds of {harm} harm",
            field="absorb_with_luck", absorb_with_luck=absorb_with_luck, harm=harm,
        )
    if absorb_with_luck > pirate.luck:
        raise RuleViolation(
            "{character} has {luck} and cannot absorb {absorb_with_luck} wounds with it (L43)",
            field="absorb_with_luck", character=character, luck=Count(pirate.luck, "{count} luck", "{count} luck"),
            absorb_with_luck=absorb_with_luck,
        )
    upgrade_lowest = table.campaign.option("full_wound_slots") == "upgrade_lowest"
    for point in range(harm):
        if point < absorb_with_luck:
            pirate.spend_luck(rules.LUCK_PER_WOUND_AVOIDED, "avoid_wound")
            continue
        wound = pirate.wound_for_harm(level, upgrade_lowest=upgrade_lowest)
        if wound is not None:
            change, slot, wound_level = wound
            pirate.wounded(slot=slot, level=wound_level, change=change)
        elif not pirate.lose_luck(1, "no_free_wound_slot"):  # S6, mandatory (L70-L71)
            pirate.fate_called(reason="harm with every wound slot full and no luck (L71, L75)")


def treat_wound(table: Table, character: str, level: str, count: int, *, heal: bool) -> None:
    """P-25: treatment names the wounds it reaches; a terrible one may stay until its special condition (L68)."""
    table.get(Pirate, character).treat(level, count, heal)


def end_of_chapter(table: Table) -> None:
    """Chapter end (§1): light wounds heal; an untreated terrible wound calls fate (P-24: once)."""
    for pirate in table.stirred(Pirate, "end:chapter"):
        pirate.heal_light_wounds()
        if pirate.has_untreated_terrible_wound and not pirate.dead:  # the dead meet no fate (L85)
            pirate.fate_called(reason="a terrible wound untreated at the end of the chapter (L68, L75)")


# --- Reputation and the Pirate Code (§4.2, §7) -----------------------------------------------------


def _reputation_in_luck(pirate: Pirate, points: int) -> None:
    """S2: each point Reputation cannot fall below -2 costs 1 luck; with none left, fate (L44, L75)."""
    if not pirate.lose_luck(points * rules.LUCK_PER_REPUTATION_POINT, "reputation_at_minus_2"):
        pirate.fate_called(reason="Reputation had to fall below -2 with no luck left (L44, L75)")


def pirate_code(table: Table, character: str, kept: bool, precept: str | None) -> None:
    """+1 Reputation for a precept kept, -1 for one broken, by conscious choice (L91); clamped (P-8)."""
    pirate = table.get(Pirate, character)
    what = f"Pirate Code {'kept' if kept else 'broken'}" + (f": {precept}" if precept else "") + " (L91)"
    unmoved = pirate.change_reputation(rules.CODE_STEP if kept else -rules.CODE_STEP, what)
    if unmoved and not kept and table.campaign.option("code_violation_costs_luck"):
        _reputation_in_luck(pirate, unmoved)


def lower_reputation(table: Table, character: str, points: int, move: str | None) -> None:
    """A move orders Reputation lowered: at -2 the rest is paid in luck (S2, L44; P-8)."""
    pirate = table.get(Pirate, character)
    reason = f"lowered by {move or 'a move'} (L44)"
    unmoved = pirate.change_reputation(-points, reason)
    if unmoved:
        _reputation_in_luck(pirate, unmoved)


def spend_luck_for_reputation(table: Table, character: str) -> None:
    """S2 as a spend: a move orders one more point off a Reputation that is already -2 (L44)."""
    pirate = acting(table, character, "spend luck")
    reputation = pirate.stats["reputation"]
    if reputation > rules.STAT_MIN:
        raise RuleViolation(
            "{character}'s Reputation is {reputation:+d}, not -2: a move lowers it (lower_reputation); luck pays for "
            "it only at -2 (L44)",
            field="purpose", character=character, reputation=reputation,
        )
    _reputation_in_luck(pirate, 1)


# --- ambush tokens (§4.3) -------------------------------------------------------------------------


def _enemy(table: Table, enemy: str | None) -> str:
    if enemy is not None:
        return enemy
    scene = table.scene()
    if scene is None or scene.enemy is None:
        raise RuleViolation("name the enemy: no scene with an enemy is open (L56)", field="enemy")
    return scene.enemy


def gain_ambush_token(table: Table, character: str, enemy: str | None) -> None:
    table.get(Pirate, character).gain_ambush_token(enemy=_enemy(table, enemy))


def spend_ambush_token(table: Table, character: str, enemy: str | None) -> None:
    pirate = acting(table, character, "spend an ambush token")
    pirate.spend_ambush_token(_enemy(table, enemy))


def scene_started(table: Table) -> None:
    """When the scene and the enemy change, every unused ambush token burns (L56; P-10 (a))."""
    campaign = campaign_of(table)
    scene = table.scene()
    assert scene is not None
    if campaign.scenes_seen and scene.enemy != campaign.enemy:
        for pirate in table.stirred(Pirate, TOKENS_BURN):
            pirate.burn_ambush_tokens(
                reason=f"scene {scene.number} against {scene.enemy or 'nobody'}, no longer {campaign.enemy or 'nobody'} (L56)"
            )
    campaign.enemy_faced(enemy=scene.enemy, scene=scene.number)


def scene_ended(table: Table) -> None:
    """Who left the scene after meeting fate is back in play (L78); the dead are not (L85)."""
    for pirate in table.stirred(Pirate, "end:scene"):
        if pirate.out_of_scene and not pirate.dead:
            pirate.returned_to_play()
