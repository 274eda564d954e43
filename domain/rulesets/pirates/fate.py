"""Meet Fate (§6): the unmodified 2d6, leaving the scene, the fate chosen and struck for the player."""

from __future__ import annotations

from ...errors import PermissionDenied, RuleViolation, UnknownName
from ...table import Table
from ...timeline import Scope
from . import rules
from .pirate import Pirate
from .acting import acting, alive


def meet_fate(table: Table, character: str) -> str:
    """2d6 with no modifiers at all (L77): 12 luck +1, 10+ escape, 7-9 player picks, 6- GM picks (L78)."""
    pirate = acting(table, character, "meet fate again")
    if pirate.fate_choice is not None:
        raise RuleViolation(
            f"{character}'s last Meet Fate still awaits the {pirate.fate_choice}'s choice (choose_fate)",
            field="character",
        )
    if not pirate.fate_pending:
        raise RuleViolation(
            f"{character} has no reason to meet fate: only a mandatory luck loss with no luck left, "
            "a terrible wound untreated at the chapter's end or a lost negotiation call it (L75, L204)",
            field="character",
        )
    draw = table.draw()
    fate = rules.fate_dice()
    table.foresee(fate)
    roll = fate.dice.roll(draw)
    total = roll.total
    result = fate.judge(total)
    roll_id = table.record(
        draw, roll, purpose="meet_fate", character=character, outcome=result, reason=pirate.fate_pending[0]
    )
    caught = result in ("player_chooses", "gm_chooses")
    all_struck = len(pirate.fate_struck) >= len(rules.FATE_OPTIONS)
    chooser = ("player" if result == "player_chooses" else "gm") if caught and not all_struck else None
    pirate.fate_met(
        roll=roll_id, total=total, result=result, chooser=chooser,
        left_scene=caught and table.campaign.is_open(Scope.SCENE),
    )
    if result == "escaped_lucky":
        pirate.gain_luck(rules.FATE_LUCKY_LUCK, "12 on Meet Fate (L78)")
    if caught and all_struck:
        pirate.fate_chosen(option=rules.FATE_NARRATED, by="gm")  # every option struck: the GM narrates (L87)
    return roll_id


def choose_fate(table: Table, character: str, option: str) -> None:
    """The fate picked after 7-9 (by the player) or 6- (by the GM), struck for the player (L78, L87)."""
    pirate = table.get(Pirate, character)
    alive(pirate, "choose another fate")
    if pirate.fate_choice is None:
        raise RuleViolation(f"{character} has no fate to choose (meet_fate first, L78)", field="character")
    if pirate.fate_choice == "gm" and table.actor != "gm":
        raise PermissionDenied(f"on 6 or less the GM chooses {character}'s fate (L78), not {table.actor}")
    remaining = [o for o in rules.FATE_OPTIONS if o not in pirate.fate_struck]
    if option == rules.FATE_NARRATED and not remaining:
        pirate.fate_chosen(option=option, by=table.actor)
        return
    if option not in rules.FATE_OPTIONS:
        raise UnknownName(
            f"no fate {option!r}; the fates are {', '.join(rules.FATE_OPTIONS)} (L80-L85)"
            + ("" if remaining else f"; all are struck, so the GM narrates: {rules.FATE_NARRATED}"),
            field="option",
        )
    if option in pirate.fate_struck:
        raise RuleViolation(
            f"{option} is struck for {pirate.fate_holder} until the end of the campaign (L87); "
            f"still open: {', '.join(remaining) or f'none ({rules.FATE_NARRATED})'}",
            field="option",
        )
    table.campaign.use_limit(rules.FATE_OPTION, holder=pirate.fate_holder, instance=option)
    pirate.fate_chosen(option=option, by=table.actor)
    # The holder's pirates: his player's (the roster knows whose each is), or he alone.
    roster = table.campaign.roster
    mates = [n for n, e in roster.items() if pirate.player and e["player"] == pirate.player] or [pirate.name]
    for other in table.named(Pirate, mates):
        if other.fate_holder == pirate.fate_holder:
            other.fate_option_struck(option=option)


