"""Commands of the pirate game («Поднять паруса!»); the rules they apply are in domain/rulesets/pirates."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..domain.errors import RuleViolation
from ..domain.rulesets.pirates import play, rules
from ..domain.rulesets.pirates.pirate import Pirate
from ..domain.rulesets.pirates.ship import BREAKDOWNS, Ship
from ..domain.table import Table
from .base import NAME, Command, handles

PIRATES = frozenset({"pirates"})
Stat = Literal["audacity", "guile", "foresight", "reputation"]
CreationStat = Annotated[int, Field(ge=rules.STAT_MIN, le=rules.STAT_MAX_AT_CREATION)]
ShipStat = Annotated[int, Field(le=rules.SHIP_STAT_MAX)]


class Stats(BaseModel):
    """The four stats; each −2…+2 at creation (L10)."""

    model_config = ConfigDict(extra="forbid")
    audacity: CreationStat
    guile: CreationStat
    foresight: CreationStat
    reputation: CreationStat


class CreatePirate(Command):
    type: Literal["create_character"] = "create_character"
    rulesets = PIRATES
    name: str = NAME
    player: str | None = Field(default=None, min_length=1, max_length=200)
    stats: Stats
    luck: int = Field(ge=0, le=1000, description="Starting luck, set by the background (L40).")
    background: str | None = Field(default=None, max_length=500)
    position: str | None = Field(default=None, max_length=500)
    purse_piastres: int = Field(default=0, ge=0, le=10**12)


class CreateShip(Command):
    type: Literal["create_ship"] = "create_ship"
    rulesets = PIRATES
    name: str = NAME
    navigation: ShipStat
    firepower: ShipStat
    displacement: ShipStat
    hull: int = Field(ge=0, le=rules.HULL_MAX)
    secrets: list[Annotated[str, Field(min_length=1, max_length=500)]] = Field(default_factory=list, max_length=3)
    treasury_piastres: int = Field(default=0, ge=0, le=10**12)
    in_port: bool = False


class RollMove(Command):
    """A check: 2d6 + stat (3d6 keep 2 with advantage/disadvantage); 2 or 3 faces in `dice`."""

    type: Literal["roll_move"] = "roll_move"
    rulesets = PIRATES
    character: str = NAME
    stat: Stat
    move: str | None = Field(default=None, max_length=200, description="A move from the book (`rollbook moves`).")
    luck_bonus: bool = Field(default=False, description="+1 for 1 luck, declared before the roll (L45).")
    advantage: bool = False
    disadvantage: bool = False


class SpendLuck(Command):
    """Spend 1 luck: +1 to one's own open move, help or hinder a crewmate's roll (L45-L46)."""

    type: Literal["spend_luck"] = "spend_luck"
    rulesets = PIRATES
    character: str = NAME
    purpose: Literal["roll_bonus", "help", "hinder"]
    roll: str | None = Field(default=None, max_length=210, description="The roll to modify (its id).")

    @model_validator(mode="after")
    def _roll_named_for_help(self) -> SpendLuck:
        if self.purpose in ("help", "hinder") and self.roll is None:
            raise ValueError(f"spend_luck for {self.purpose} needs the `roll` it modifies")
        return self


class TakeDamage(Command):
    """Harm in wounds; each point absorbed by 1 luck or recorded by the table of §5."""

    type: Literal["take_damage"] = "take_damage"
    rulesets = PIRATES
    character: str = NAME
    harm: int = Field(ge=1, le=100)
    absorb_with_luck: int | bool = Field(
        default=0, description="How many of the points to absorb with luck (true: as many as possible)."
    )
    level: Literal["light", "serious", "terrible"] = Field(
        default="light", description="The level of wound the move inflicts into a free slot."
    )


class TakeHole(Command):
    type: Literal["take_hole"] = "take_hole"
    rulesets = PIRATES
    ship: str = NAME


class TakeBreakdown(Command):
    type: Literal["take_breakdown"] = "take_breakdown"
    rulesets = PIRATES
    ship: str = NAME
    breakdown: Literal["torn_sails", "wrecked_deck", "wet_powder"]


@handles(CreatePirate)
def create_pirate(command: CreatePirate, table: Table) -> None:
    if table.actor.startswith("player:") and command.player != table.actor.split(":", 1)[1]:
        raise RuleViolation(f"{table.actor} can only create a pirate of their own", field="player")
    table.campaign.enrol(command.name, Pirate.kind, command.player)
    table.add(
        Pirate(
            campaign=table.campaign.campaign,
            name=command.name,
            player=command.player,
            stats=command.stats.model_dump(),
            luck=command.luck,
            background=command.background,
            position=command.position,
            purse_piastres=command.purse_piastres,
        )
    )


@handles(CreateShip)
def create_ship(command: CreateShip, table: Table) -> None:
    table.campaign.enrol(command.name, Ship.kind)
    table.add(
        Ship(
            campaign=table.campaign.campaign,
            name=command.name,
            navigation=command.navigation,
            firepower=command.firepower,
            displacement=command.displacement,
            hull=command.hull,
            secrets=command.secrets,
            treasury_piastres=command.treasury_piastres,
            in_port=command.in_port,
        )
    )


@handles(RollMove)
def roll_move(command: RollMove, table: Table) -> None:
    play.roll_move(
        table,
        command.character,
        command.stat,
        command.move,
        luck_bonus=command.luck_bonus,
        advantage=command.advantage,
        disadvantage=command.disadvantage,
    )


@handles(SpendLuck)
def spend_luck(command: SpendLuck, table: Table) -> None:
    if command.purpose == "roll_bonus":
        play.add_own_bonus(table, command.character, command.roll)
    else:
        assert command.roll is not None
        play.help_or_hinder(table, command.character, command.roll, hinder=command.purpose == "hinder")


@handles(TakeDamage)
def take_damage(command: TakeDamage, table: Table) -> None:
    absorb = command.absorb_with_luck
    if absorb is True:
        absorb = min(command.harm, table.get(Pirate, command.character).luck)
    play.take_harm(table, command.character, command.harm, absorb_with_luck=int(absorb), level=command.level)


@handles(TakeHole)
def take_hole(command: TakeHole, table: Table) -> None:
    play.take_hole(table, command.ship)


@handles(TakeBreakdown)
def take_breakdown(command: TakeBreakdown, table: Table) -> None:
    assert command.breakdown in BREAKDOWNS
    play.take_breakdown(table, command.ship, command.breakdown)
