"""Who may act in the pirates' game: a pirate alive (L85) and still in the scene (L78), a crew's ship in
port for what is done ashore. Every move checks these before its own rules (play.py, fate.py, intrigue.py).
"""

from __future__ import annotations

from ...errors import RuleViolation
from ...table import Table
from .campaign import PiratesCampaign
from .pirate import Pirate
from .seamanship import crew_ship
from .ship import Ship


def campaign_of(table: Table) -> PiratesCampaign:
    assert isinstance(table.campaign, PiratesCampaign)
    return table.campaign


def acting(table: Table, name: str, doing: str, field: str = "character") -> Pirate:
    """The pirate a command has act: one his player (or the GM) commands, and alive (L85)."""
    pirate = table.get(Pirate, name, field=field)
    alive(pirate, doing, field)
    return pirate


def alive(pirate: Pirate, doing: str, field: str = "character") -> None:
    """A pirate who met death (L85 «ты погибаешь, успев совершить последнее действие») has had his last action."""
    if pirate.dead:
        raise RuleViolation(
            f"{pirate.name} is dead, having made a last action (L85), and cannot {doing}", field=field
        )


def in_play(pirate: Pirate, doing: str, field: str = "character") -> None:
    """A dead pirate acts no more (L85); one who met fate on 9 or less has left the scene (L78) until it ends;
    one who lost a negotiation he could not pay for meets fate before he does anything else (L204)."""
    alive(pirate, doing, field)
    if pirate.out_of_scene:
        raise RuleViolation(
            f"{pirate.name} left the scene after meeting fate (L78) and cannot {doing} until it ends",
            field=field,
        )
    if pirate.fate_at_once:
        # Only L204 says «сразу»: a fate owed under L44 or L75 waits until the GM has him meet it.
        raise RuleViolation(
            f"{pirate.name} must meet fate first: a lost negotiation sends him to it right after the negotiation "
            "(L204 «сразу после переговоров»), before anything else he does; meet_fate",
            field=field,
        )


def in_port(table: Table, ship: str | None, what: str, field: str) -> None:
    """Refuse what is done in port while the crew's ship is at sea; a crew with no ship has no place recorded."""
    if ship is None and not table.campaign.members(Ship.kind):
        return
    vessel = crew_ship(table, ship)
    if not vessel.in_port:
        raise RuleViolation(f"{vessel.name} is at sea: {what}; enter_port first", field=field)
