"""How the pirate game is played: the check, luck spends, harm, the chapter's end.

Each function decides at a `Table`: it validates against the sheets, rolls, and calls the
aggregates' event methods. Section numbers are the digest's (shared/rules/pirates-pbta.md).
"""

from __future__ import annotations

from ...dice import Modifier, sum_roll
from ...errors import RuleViolation, UnknownName
from ...table import Table
from ...timeline import Scope
from . import rules
from .pirate import Pirate
from .rules import HELP_OR_HINDER, OWN_BONUS, band
from .ship import Ship


def roll_move(
    table: Table,
    character: str,
    stat: str,
    move: str | None = None,
    *,
    luck_bonus: bool = False,
    advantage: bool = False,
    disadvantage: bool = False,
) -> str:
    """A check: 2d6 + stat + modifiers (§3); 3d6 keep 2 with advantage or disadvantage."""
    pirate = table.get(Pirate, character)
    table.acting_for(character)
    move_key = None
    if move is not None:
        move_key = rules.find_move(move)
        if move_key is None:
            raise UnknownName(f"no move named {move!r} in the book (see `rollbook moves`)", field="move")
    if pirate.move is not None:
        table.campaign.release(Scope.MOVE, pirate.move["roll"])

    draw = table.draw()
    modifiers = [Modifier(stat, pirate.stats[stat]), *pirate.wound_modifiers()]
    if luck_bonus:
        table.campaign.use_limit(OWN_BONUS, holder=character, instance=draw.roll_id)
        pirate.spend_luck(1, "roll_bonus")
        modifiers.append(Modifier("luck", 1))
    # P-13: advantage and disadvantage on the same roll cancel out.
    if advantage and not disadvantage:
        roll = sum_roll(draw, 3, 6, modifiers, keep_highest=2)
    elif disadvantage and not advantage:
        roll = sum_roll(draw, 3, 6, modifiers, keep_lowest=2)
    else:
        roll = sum_roll(draw, 2, 6, modifiers)
    outcome = band(roll.total)
    roll_id = table.record(
        draw, roll, purpose=f"move:{move_key or stat}", character=character, outcome=outcome
    )
    table.campaign.begin_move(character, roll_id)
    pirate.move_rolled(roll=roll_id, move=move_key, stat=stat, total=roll.total, outcome=outcome)
    return roll_id


def _open_move(table: Table, roll: str) -> Pirate:
    """The pirate whose open move `roll` is; a move closes when its pirate rolls the next one."""
    for pirate in table.all(Pirate):
        if pirate.move is not None and pirate.move["roll"] == roll:
            return pirate
    raise UnknownName(f"roll {roll!r} is not the open move of any pirate", field="roll")


def _modify_move(table: Table, pirate: Pirate, value: int, source: str) -> None:
    assert pirate.move is not None
    total = pirate.move["total"] + value
    outcome = band(total)
    reason = f"{source} {value:+d}"
    pirate.move_modified(roll=pirate.move["roll"], total=total, outcome=outcome, reason=reason)
    table.campaign.modify_roll(
        pirate.move["roll"], total, outcome, reason, modifier=Modifier(source, value).as_dict()
    )


def add_own_bonus(table: Table, character: str, roll: str | None) -> None:
    """S3, decided after the roll (P-6): +1 to his own open move for 1 luck, once per move."""
    pirate = table.get(Pirate, character)
    table.acting_for(character)
    if pirate.move is None:
        raise RuleViolation(f"{character} has no rolled move to add +1 to", field="roll")
    if roll is not None and roll != pirate.move["roll"]:
        raise RuleViolation(
            f"roll {roll!r} is not {character}'s open move ({pirate.move['roll']})", field="roll"
        )
    table.campaign.use_limit(OWN_BONUS, holder=character, instance=pirate.move["roll"])
    pirate.spend_luck(1, "roll_bonus")
    _modify_move(table, pirate, 1, "luck")


def help_or_hinder(table: Table, character: str, roll: str, *, hinder: bool) -> None:
    """S4: 1 luck for +1 (or -1) to a crewmate's roll, after the roll too; once per helper per move."""
    helper = table.get(Pirate, character)
    table.acting_for(character)
    target = _open_move(table, roll)
    if target.name == character:
        raise RuleViolation(
            f"{character} cannot help or hinder his own roll; +1 to one's own roll is purpose roll_bonus",
            field="roll",
        )
    table.campaign.use_limit(HELP_OR_HINDER, holder=character, instance=roll)
    helper.spend_luck(1, "hinder" if hinder else "help")
    _modify_move(table, target, -1 if hinder else 1, f"{'hindered' if hinder else 'helped'} by {character}")


def take_harm(
    table: Table, character: str, harm: int, *, absorb_with_luck: int = 0, level: str = rules.LIGHT
) -> None:
    """Each point of harm in turn (§5): absorbed by 1 luck, or a wound, or a mandatory luck."""
    pirate = table.get(Pirate, character)
    if absorb_with_luck > harm:
        raise RuleViolation(
            f"cannot absorb {absorb_with_luck} wounds of {harm} harm", field="absorb_with_luck"
        )
    if absorb_with_luck > pirate.luck:
        raise RuleViolation(
            f"{character} has {pirate.luck} luck and cannot absorb {absorb_with_luck} wounds with it (L43)",
            field="absorb_with_luck",
        )
    for point in range(harm):
        if point < absorb_with_luck:
            pirate.spend_luck(1, "avoid_wound")
            continue
        wound = pirate.wound_for_harm(level)
        if wound is not None:
            change, slot, wound_level = wound
            pirate.wounded(slot=slot, level=wound_level, change=change)
        elif pirate.luck > 0:
            pirate.spend_luck(1, "no_free_wound_slot")  # S6, mandatory (L70-L71)
        else:
            pirate.fate_called(reason="harm with every wound slot full and no luck (L71, L75)")


def end_of_chapter(table: Table) -> None:
    """Chapter end (§1): light wounds heal; an untreated terrible wound calls fate (P-24: once)."""
    for pirate in table.all(Pirate):
        pirate.heal_light_wounds()
        if pirate.has_untreated_terrible_wound:
            pirate.fate_called(reason="a terrible wound untreated at the end of the chapter (L68, L75)")


def take_hole(table: Table, ship: str) -> None:
    table.get(Ship, ship, field="ship").take_hole()


def take_breakdown(table: Table, ship: str, breakdown: str) -> None:
    """Once per battle, a breakdown instead of a hole (L140); one at a time (L144)."""
    vessel = table.get(Ship, ship, field="ship")
    table.campaign.check_limit(rules.BREAKDOWN_PER_BATTLE, holder=ship)
    vessel.take_breakdown(breakdown)
    table.campaign.use_limit(rules.BREAKDOWN_PER_BATTLE, holder=ship)
