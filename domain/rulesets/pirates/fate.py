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
            "{character}'s last Meet Fate still awaits the {fate_choice}'s choice (choose_fate)",
            field="character", character=character, fate_choice=pirate.fate_choice,
        )
    if not pirate.fate_pending:
        raise RuleViolation(
            "{character} has no reason to meet fate: only a mandatory luck loss with no luck left, a terrible wound "
            "untreated at the chapter's end or a lost negotiation call it (L75, L204)",
            field="character", character=character,
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
        raise RuleViolation(
            "{character} has no fate to choose (meet_fate first, L78)",
            field="character", character=character,
        )
    if pirate.fate_choice == "gm" and table.actor != "gm":
        raise PermissionDenied(
            "on 6 or less the GM chooses {character}'s fate (L78), not {actor}",
            character=character, actor=table.actor,
        )
    remaining = [o for o in rules.FATE_OPTIONS if o not in pirate.fate_struck]
    if option == rules.FATE_NARRATED and not remaining:
        pirate.fate_chosen(option=option, by=table.actor)
        return
    if option not in rules.FATE_OPTIONS:
        fates = ", ".join(rules.FATE_OPTIONS)
        if remaining:
            raise UnknownName("no fate {option!r}; the fates are {fates} (L80-L85)", field="option", option=option,
                              fates=fates)
        raise UnknownName("no fate {option!r}; the fates are {fates} (L80-L85); all are struck, so the GM narrates: "
                          "{narrated}", field="option", option=option, fates=fates, narrated=rules.FATE_NARRATED)
    if option in pirate.fate_struck:
        if remaining:
            raise RuleViolation(
                "{option} is struck for {holder} until the end of the campaign (L87); still open: {remaining}",
                field="option", option=option, holder=pirate.fate_holder, remaining=", ".join(remaining),
            )
        raise RuleViolation(
            "{option} is struck for {holder} until the end of the campaign (L87); still open: none ({narrated})",
            field="option", option=option, holder=pirate.fate_holder, narrated=rules.FATE_NARRATED,
        )
    table.campaign.use_limit(rules.FATE_OPTION, holder=pirate.fate_holder, instance=option)
    pirate.fate_chosen(option=option, by=table.actor)
    # The holder's pirates: his player's (the roster knows whose each is), or he alone.
    roster = table.campaign.roster
    mates = [n for n, e in roster.items() if pirate.player and e["player"] == pirate.player] or [pirate.name]
    for other in table.named(Pirate, mates):
        if other.fate_holder == pirate.fate_holder:
            other.fate_option_struck(option=option)


