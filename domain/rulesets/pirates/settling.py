"""Moves whose own command applies the outcome at once, and luck that still changes them.

Scheme (§10) and a negotiation's tie (§11) roll an ordinary check whose result their command
applies at once; yet luck may be added after any check (L45-L46; P-6 (b)). So such a roll stays
open: a change of its total makes what the move gave follow (the plan's chances, the round's
trump), and what cannot be undone waits until the roll closes (the end of a negotiation).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...errors import RuleViolation, UnknownName
from ...table import Table
from .pirate import Pirate
from .ship import Ship


def open_move(table: Table, roll: str) -> Pirate:
    """The pirate whose open move `roll` is; a move closes when its pirate rolls the next one."""
    for pirate in table.named(Pirate, table.campaign.open_move_of(roll)):
        if pirate.move is not None and pirate.move["roll"] == roll:
            return pirate
    raise UnknownName("roll {roll!r} is not the open move of any pirate", field="roll", roll=roll)


@dataclass(frozen=True)
class Settled:
    """A special move whose own command applies its outcome at once (Scheme, a negotiation's tie).

    Luck may still change its total after the roll (L45-L46; P-6 (b)): `reckon` makes what the
    move gave follow the changed outcome; `close` applies what had to wait for the roll to be
    final. A roll closes at its pirate's next move, when what it gave comes into play (a chance
    spent, the next round), or by `close_roll`.
    """

    reckon: Callable[[Table, Pirate], None]
    close: Callable[[Table, Pirate], None]


#: The settled moves by move key; intrigue.py, where they are played, fills it.
SETTLED: dict[str, Settled] = {}


def reckon(table: Table, pirate: Pirate) -> None:
    assert pirate.move is not None
    if pirate.move["settled"]:
        SETTLED[pirate.move["move"]].reckon(table, pirate)


def close_move(table: Table, pirate: Pirate, why: str | None) -> None:
    """Close the pirate's open settled move, if any: no luck changes it any more (see `Settled`).

    `why` None: the pirate's next move replaces it, which is record enough.
    """
    move = pirate.move
    if move is None or not move["settled"] or move["closed"]:
        return
    if why is not None:
        pirate.move_closed(roll=move["roll"], why=why)
    SETTLED[move["move"]].close(table, pirate)


def close_roll(table: Table, roll: str, why: str, *, moving: Pirate | None = None) -> None:
    """Close a settled roll if it is still some pirate's open move (nothing happens otherwise);
    not `moving`'s, whose next move being made closes his own."""
    for pirate in table.named(Pirate, table.campaign.open_move_of(roll)):
        if pirate is not moving and pirate.move is not None and pirate.move["roll"] == roll:
            close_move(table, pirate, why)


def close_plan_rolls(table: Table, vessel: Ship, why: str, *, moving: Pirate | None = None) -> None:
    """The plan's chances come into play (spent, or the plan ends): its Scheme rolls are final."""
    if vessel.plan is not None:
        for roll in vessel.plan.get("schemes", {}):
            close_roll(table, roll, why, moving=moving)


def close_roll_command(table: Table, roll: str) -> None:
    """`close_roll`: the GM, or the roller's player, declares a settled roll final."""
    pirate = open_move(table, roll)
    table.acting_for(pirate.name)
    move = pirate.move
    assert move is not None
    if not move["settled"]:
        raise RuleViolation(
            "roll {roll} ({move}) is an ordinary check: the GM applies its outcome with his next commands, and "
            "nothing waits for it to close",
            field="roll", roll=roll, move=move["move"] or move["stat"],
        )
    if move["closed"]:
        raise RuleViolation("roll {roll} is already closed ({closed})", field="roll", roll=roll, closed=move["closed"])
    close_move(table, pirate, f"closed by {table.actor}")
