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
        # Terms: фарт L38-L52; встреча с судьбой L73-L87; Картограф L50; попойка, байка L52; жетоны засады L56;
        # пробоина, корпус, поломка L138-L147; развитие корабля L151-L155; строить козни, шансы L194-L196;
        # Переговоры, козыри L202-L204; тайны L99; сундуки, дублоны, пиастры L95; кошелёк L202.
        raise RuleViolation(
            "{name} is dead, having made a last action (L85), and cannot {doing}",
            field=field, name=pirate.name, doing=doing,
        )


def in_play(pirate: Pirate, doing: str, field: str = "character") -> None:
    """A dead pirate acts no more (L85); one who met fate on 9 or less has left the scene (L78) until it ends;
    one who lost a negotiation he could not pay for meets fate before he does anything else (L204)."""
    alive(pirate, doing, field)
    if pirate.out_of_scene:
        raise RuleViolation(
            "{name} left the scene after meeting fate (L78) and cannot {doing} until it ends",
            field=field, name=pirate.name, doing=doing,
        )
    if pirate.fate_at_once:
        # Only L204 says «сразу»: a fate owed under L44 or L75 waits until the GM has him meet it.
        raise RuleViolation(
            "{name} must meet fate first: a lost negotiation sends him to it right after the negotiation (L204 "
            "«сразу после переговоров»), before anything else he does; meet_fate",
            field=field, name=pirate.name,
        )


def in_port(table: Table, ship: str | None, what: str, field: str) -> None:
    """Refuse what is done in port while the crew's ship is at sea; a crew with no ship has no place recorded."""
    if ship is None and not table.campaign.members(Ship.kind):
        return
    vessel = crew_ship(table, ship)
    if not vessel.in_port:
        raise RuleViolation("{name} is at sea: {what}; enter_port first", field=field, name=vessel.name, what=what)
