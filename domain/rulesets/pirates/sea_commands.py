"""Commands of the pirate game for ships (§9), secrets and chances, Scheme (§10) and negotiations (§11).

They share the ruleset of `commands.py`, and its payers.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ....commands.base import forwards, handles
from ....commands.ownership import GM_ONLY, THE_GM, GmOnly, Own, Owned
from ...errors import N_
from ...table import Table
from . import intrigue, rules, seamanship
from .commands import GMCommand, Payer, PiratesCommand

#: ≤ 3 (L105-L107); the source sets no minimum (P-23): a new ship starts at 0 or more, breakdowns may go lower.
ShipStat = Annotated[int, Field(ge=0, le=rules.SHIP_STAT_MAX)]
ShipStatName = Literal[rules.SHIP_STATS]  # type: ignore[valid-type]
Breakdown = Literal[tuple(rules.BREAKDOWNS)]  # type: ignore[valid-type]
Condition = Literal[rules.CONDITIONS]  # type: ignore[valid-type]
Upgrade = Literal[tuple(rules.UPGRADES)]  # type: ignore[valid-type]
Value = Literal[rules.PURSE, rules.LIFE, rules.GLORY]
Secret = Annotated[str, Field(min_length=1, max_length=500)]
BookName = Annotated[str, Field(min_length=1, max_length=200)]
SHIP = Field(min_length=1, max_length=200, description=N_("The ship (a ship of the campaign) it concerns."))
ShipName = Field(
    default=None, min_length=1, max_length=200,
    description=N_("The crew's ship; needed only when the campaign has several ships."),
)


class CreateShip(PiratesCommand):
    __doc__ = N_("""The crew's ship (§9): stats ≤ 3, Hull 0…6; `bonuses` past 3 go into Hull (L113).""")

    type: Literal["create_ship"] = "create_ship"
    name: str = Field(min_length=1, max_length=200, description=N_("The ship's name, unique in the campaign."))
    navigation: ShipStat = Field(description=N_("Navigation, at most 3 (L105)."))
    firepower: ShipStat = Field(description=N_("Firepower, at most 3 (L106)."))
    displacement: ShipStat = Field(description=N_("Displacement, at most 3 (L107)."))
    hull: int = Field(ge=0, le=rules.HULL_MAX, description=N_("Hull, 0…6 (L109)."))
    bonuses: dict[ShipStatName, Annotated[int, Field(ge=0, le=3)]] = Field(
        default_factory=dict,
        description=N_("Voyage-purpose and position bonuses (L111-L113): a stat that would pass 3 gives the rest to Hull."),
    )
    hull_rating: int | None = Field(
        default=None, ge=0, le=rules.HULL_MAX,
        description=N_("Rated hull that repairs restore up to, with the `hull: rated` option (P-17); default: Hull."),
    )
    secrets: list[Secret] = Field(
        default_factory=list, max_length=rules.SECRETS_MAX, description=N_("Secrets the crew already knows (≤ 3, L99).")
    )
    treasury_piastres: Annotated[int, GM_ONLY] = Field(default=0, ge=0, le=10**12, description=N_("The crew treasury (P-26)."))
    in_port: bool = Field(default=False, description=N_("In port (true) or at sea (false)."))
    ship_moves: Annotated[list[BookName] | None, GM_ONLY] = Field(
        default=None, max_length=len(rules.move_book()["additional_ship"]),
        description=N_("Additional ship moves the ship has when it comes (its type's, pp. 107-108, not in the source), "
        "from the book (L170-L179); the only ones it rolls besides those its development chooses. GM only."),
    )
    rigging: Annotated[list[BookName] | None, GM_ONLY] = Field(
        default=None, max_length=len(rules.move_book()["rigging"]),
        description=N_("Rigging the ship has when it comes, from the book (L182-L190). GM only."),
    )

    @model_validator(mode="after")
    def _rating_holds_hull(self) -> CreateShip:
        if self.hull_rating is not None and self.hull_rating < self.hull:
            raise ValueError("hull_rating cannot be below hull")
        if len(set(self.secrets)) != len(self.secrets):
            raise ValueError("each secret once")
        return self


class TakeHole(GMCommand):
    __doc__ = N_("""Hull −1; at Hull 0 the ship must play Don't Go Under at once (L138). The GM's: a ship "receives" a hole
    (L138), from the GM's move or a move's consequence, which a player does not declare for himself.""")

    type: Literal["take_hole"] = "take_hole"
    ship: str = SHIP


class TakeBreakdown(PiratesCommand):
    __doc__ = N_("""A breakdown instead of a hole: once per battle, one at a time (L140-L144).""")

    type: Literal["take_breakdown"] = "take_breakdown"
    ship: str = SHIP
    breakdown: Breakdown = Field(description=N_("torn_sails: Navigation −1; wrecked_deck: Displacement −1; "
                                 "wet_powder: Firepower −1 (L141-L143)."))


class RepairShip(PiratesCommand):
    __doc__ = N_("""At sea (Patch the Breach) one hole between port visits, free; in port 1 chest for Hull +1 or the
    breakdown removed (L146-L147; P-21).""")

    type: Literal["repair_ship"] = "repair_ship"
    ship: str = SHIP
    what: Literal["hull", "breakdown"] = Field(description=N_("hull: Hull +1; breakdown: remove it (in port only)."))
    paid_by: Payer | None = Field(
        default=None, min_length=1, max_length=200,
        description=N_("Who pays in port: a pirate or a ship; default the ship's own treasury (P-26)."),
    )


class EnterPort(PiratesCommand):
    __doc__ = N_("""The ship arrives in port: repairs for chests and development become possible (L146-L151). The crew's: where
    the ship goes is the pirates' decision, their ship moves made by any of them (L117, L121).""")

    type: Literal["enter_port"] = "enter_port"
    ship: str = SHIP


class PutToSea(PiratesCommand):
    __doc__ = N_("""The ship puts to sea: a new stay at sea, with its own one-hole sea repair (P-21). The crew's, as Cast Off
    is, a ship move any pirate makes (L117, L121).""")

    type: Literal["put_to_sea"] = "put_to_sea"
    ship: str = SHIP


class MeetCondition(GMCommand):
    __doc__ = N_("""A development condition met (L153-L155), counted since the last development (P-19 option).""")

    type: Literal["meet_condition"] = "meet_condition"
    ship: str = SHIP
    condition: Condition = Field(description=N_("Survive a sea battle, moor at a new shore, spill blood on deck."))


class UpgradeShip(PiratesCommand):
    __doc__ = N_("""Development in port: 6 chests and 2 conditions, each option once per ship, then Hull +1 (L151-L168).""")

    type: Literal["upgrade_ship"] = "upgrade_ship"
    ship: str = SHIP
    option: Upgrade = Field(description=N_("One of the seven developments (L158-L164), each once per ship."))
    pick: str | None = Field(
        default=None, min_length=1, max_length=200,
        description=N_("For a ship move or rigging option: which one, from the book (`rollbook moves`)."),
    )
    paid_by: Payer | None = Field(
        default=None, min_length=1, max_length=200,
        description=N_("Who pays the 6 chests: a pirate or a ship; default the ship's own treasury."),
    )


class GainSecret(GMCommand):
    __doc__ = N_("""A secret on the ship sheet; with three held, `strike` names one of the four that lost relevance (L99). The
    GM's: a move "gives the chance to learn" a secret of a character or faction (L99), which the GM tells; the crew
    says which one to strike, and he writes it down.""")

    type: Literal["gain_secret"] = "gain_secret"
    ship: str | None = ShipName
    secret: Secret = Field(description=N_("The secret learned, about a character or a faction."))
    strike: str | None = Field(
        default=None, min_length=1, max_length=500,
        description=N_("With three held: the one of the four that lost relevance (the new one too, P-11)."),
    )


class Scheme(PiratesCommand):
    __doc__ = N_("""Scheme (§10): mark secrets, the leader's Foresight check, the council's +1s for 1 luck each (≤ +3, HB),
    chances by the result; the marked secrets are gone and the plan begins. 2 faces in `dice`.""")

    type: Literal["scheme"] = "scheme"
    ship: str | None = ShipName
    leader: Own = Field(min_length=1, max_length=200, description=N_("The pirate who leads the planning and rolls."))
    goal: str = Field(min_length=1, max_length=500, description=N_("The goal of the plan."))
    secrets: list[Secret] = Field(min_length=1, max_length=rules.SECRETS_MAX, description=N_("The marked secrets."))
    council: list[Annotated[Own, Field(min_length=1, max_length=200)]] = Field(
        default_factory=list, max_length=20,
        description=N_("Other pirates at the council paying 1 luck for +1 each; past the third they add and pay nothing."),
    )
    luck_bonus: bool = Field(default=False, description=N_("The leader's own +1 for 1 luck (L45)."))


class EndPlan(GMCommand):
    __doc__ = N_("""The plan is carried out (or abandoned): its Scheme rolls are final; unspent chances of both sides
    are gone (P-13).""")

    type: Literal["end_plan"] = "end_plan"
    ship: str | None = ShipName


class StartNegotiation(PiratesCommand):
    __doc__ = N_("""Conduct Negotiations (§11) begins: 3 rounds, trumps 0:0.""")

    type: Literal["start_negotiation"] = "start_negotiation"
    negotiator: Own = Field(min_length=1, max_length=200, description=N_("The pirate who conducts it (P-27)."))
    opponent: str = Field(min_length=1, max_length=200, description=N_("The other side: a GM character or a pirate."))
    opponent_kind: Literal["threat", "character", "pirate"] = Field(
        default="character",
        description=N_("threat: a GM threat that takes harm = margin when it loses; character: another GM character; "
        "pirate: a pirate, who loses luck = margin when he loses (L204)."),
    )
    initiator: Literal[rules.PIRATES, rules.OPPONENT] = Field(
        default="pirates", description=N_("Who bets first in round 1 between two pirates (L202).")
    )
    ship: str | None = ShipName


def pirates_bet_owner(campaign: Any, bet: str) -> str | None:
    """The pirates' bet is the negotiator's to make (P-27)."""
    negotiation = getattr(campaign, "negotiation", None)
    return negotiation["negotiator"] if negotiation else None


def opponents_bet_owner(campaign: Any, bet: str) -> str | None:
    """The other side's bet: a pirate's own, or the GM's for his threats and characters (L202)."""
    negotiation = getattr(campaign, "negotiation", None)
    if not negotiation:
        return None
    return negotiation["opponent"] if negotiation["opponent_kind"] == "pirate" else THE_GM


class NegotiationRound(PiratesCommand):
    __doc__ = N_("""One round (L202-L204): both secret bets revealed; Purse beats Life, Glory beats Purse, Life beats
    Glory; a tie is decided by a Reputation check of the side acting first (2 faces in `dice`, 3 with a chance
    of the plan spent on it, L196).""")

    type: Literal["negotiation_round"] = "negotiation_round"
    pirate_bet: Annotated[Value, Owned(whose=pirates_bet_owner)] = Field(description=N_("The pirates' secret bet: purse, life or glory."))
    opponent_bet: Annotated[Value, Owned(whose=opponents_bet_owner)] = Field(description=N_("The opponent's secret bet: purse, life or glory."))
    secret: str | None = Field(
        default=None, min_length=1, max_length=500,
        description=N_("A secret of the opponent from the ship sheet, used and struck: a won round gives 2 trumps."),
    )
    opponent_secret: str | None = Field(
        default=None, min_length=1, max_length=500,
        description=N_("A secret of the pirates the opponent learned: a round he wins gives him 2 trumps (P-16)."),
    )
    luck_bonus: bool = Field(default=False, description=N_("+1 for 1 luck on the tie's Reputation check (L45)."))
    advantage: bool = Field(
        default=False,
        description=N_("On a tie, the negotiating ship's crew spends a chance of its plan: the Reputation check rolls "
        "3d6 keep 2 highest (L196, HB); the roller's player declares it."),
    )
    disadvantage: Annotated[bool, GmOnly(rule="only the GM spends a GM chance for disadvantage, L196")] = Field(
        default=False, description=N_("On a tie, the GM spends his chance: the Reputation check rolls 3d6 keep 2 lowest "
        "(L196). GM only."),
    )


class ConcedeNegotiation(PiratesCommand):
    __doc__ = N_("""After round 2 at 2:0 (P-15) the trailing side yields instead of playing round 3 (L204).""")

    type: Literal["concede_negotiation"] = "concede_negotiation"


@handles(CreateShip)
def create_ship(command: CreateShip, table: Table) -> None:
    seamanship.create_ship(
        table, command.name,
        stats={"navigation": command.navigation, "firepower": command.firepower, "displacement": command.displacement},
        hull=command.hull, hull_rating=command.hull_rating, bonuses=dict(command.bonuses), secrets=command.secrets,
        treasury_piastres=command.treasury_piastres, in_port=command.in_port, ship_moves=command.ship_moves or [],
        rigging=command.rigging or [],
    )


@handles(Scheme)
def scheme(command: Scheme, table: Table) -> None:
    intrigue.scheme(
        table, command.ship, command.leader, command.goal, list(command.secrets), list(command.council),
        luck_bonus=command.luck_bonus,
    )


# The commands that are one domain call with their fields as they are.
forwards({
    TakeHole: seamanship.take_hole,
    TakeBreakdown: seamanship.take_breakdown,
    RepairShip: seamanship.repair_ship,
    EnterPort: seamanship.enter_port,
    PutToSea: seamanship.put_to_sea,
    MeetCondition: seamanship.meet_condition,
    UpgradeShip: seamanship.upgrade_ship,
    GainSecret: seamanship.gain_secret,
    EndPlan: intrigue.end_plan,
    StartNegotiation: intrigue.start_negotiation,
    NegotiationRound: intrigue.negotiation_round,
    ConcedeNegotiation: intrigue.concede_negotiation,
})
