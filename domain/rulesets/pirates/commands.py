"""Commands of the pirate game («Поднять паруса!»); the rules they apply are the modules beside this one.

This module holds the pirates' own commands (characters, checks, luck, harm, fate, the Code,
ambushes, carousals, money); `sea_commands.py` holds the ships', Scheme's and the
negotiations'. Both register with the same ruleset.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ....commands.base import Command, damage_named, forwards, handles
from ....commands.ownership import GM_ONLY, GmOnly, Own, Owned, Owner
from ....language import N_
from ...table import Table
from . import creation, fate, money, play, rules, settling

PIRATES = frozenset({"pirates"})


class PiratesCommand(Command):
    """Every one of the pirates' game's own commands."""

    rulesets = PIRATES


class GMCommand(PiratesCommand):
    """One the GM alone gives."""

    gm_only = True


Stat = Literal[rules.STATS]  # type: ignore[valid-type]
CreationStat = Annotated[int, Field(ge=rules.STAT_MIN, le=rules.STAT_MAX_AT_CREATION)]
Level = Literal[rules.WOUND_LEVELS]  # type: ignore[valid-type]
FateOption = Literal[(*rules.FATE_OPTIONS, rules.FATE_NARRATED)]  # type: ignore[valid-type]
PIRATE = Field(min_length=1, max_length=200, description=N_("The pirate (a character of the campaign) it concerns."))
AMBUSH_ENEMY = Field(
    default=None, min_length=1, max_length=200, description=N_("The enemy the token is for; default the scene's.")
)
#: The moves a roll_move may name, for forms (`x-choices`): the book's, less those played by another
#: command or applied by the GM. A move is still accepted by its English or Russian name too.
ROLLED_MOVES = {key: f"{move['en']} ({move['line']})" for moves in rules.move_book().values()
                for key, move in moves.items() if "command" not in move and "applied_by" not in move}
#: The stat a move rolls where the source fixes it (L215, HB), for forms (`x-sets`): choosing the move sets it.
FIXED_STATS = {key: move["stat"] for moves in rules.move_book().values()
               for key, move in moves.items() if key in ROLLED_MOVES and "stat" in move}


#: A payer: a pirate (his owner's to give) or a ship (the crew's).
Payer = Annotated[str, Owned(whose=money.purse_owner)]


class Stats(BaseModel):
    __doc__ = N_("The four stats; each −2…+2 at creation (L10).")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    audacity: CreationStat
    guile: CreationStat
    foresight: CreationStat
    reputation: CreationStat


class CreatePirate(PiratesCommand):
    __doc__ = N_("""A new pirate (§14): stats −2…+2, luck from the background, 3 empty wound slots.""")

    type: Literal["create_character"] = "create_character"
    name: str = Field(min_length=1, max_length=200, description=N_("The pirate's name, unique in the campaign."))
    player: Owner | None = Field(default=None, min_length=1, max_length=200, description=N_("The player who owns him."))
    stats: Stats = Field(description=N_("Audacity, Guile, Foresight, Reputation: each −2…+2 at creation (L10)."))
    luck: int = Field(ge=0, le=1000, description=N_("Starting luck, set by the background (L40)."))
    background: str | None = Field(default=None, max_length=500, description=N_("Background (предыстория), as text."))
    position: str | None = Field(default=None, max_length=500, description=N_("Position (должность), as text."))
    purse_piastres: Annotated[int, GM_ONLY] = Field(
        default=0, ge=0, le=10**12, description=N_("Money in his own purse (P-26); money comes from the GM.")
    )


class RollMove(PiratesCommand):
    # Its fields' descriptions are marked (N_) too: the post form and `post --help` say them in the reader's language.
    __doc__ = N_("""A check: 2d6 + stat (3d6 keep 2 with a chance spent); 2 or 3 faces in `dice`.""")

    type: Literal["roll_move"] = "roll_move"
    character: Own = PIRATE
    stat: Stat = Field(description=N_("The stat the move (or the GM) names."))
    move: str | None = Field(default=None, max_length=200, description=N_("A move from the book (`rollbook moves`)."),
                             json_schema_extra={"x-choices": ROLLED_MOVES, "x-sets": {"stat": FIXED_STATS}})
    luck_bonus: bool = Field(default=False, description=N_("+1 for 1 luck, declared before the roll (L45)."))
    advantage: bool = Field(
        default=False, description=N_("Spend a crew chance while carrying out a plan: 3d6 keep 2 highest (L196, HB).")
    )
    disadvantage: Annotated[bool, GmOnly(rule="only the GM spends a GM chance for disadvantage, L196")] = Field(
        default=False, description=N_("The GM spends his chance: 3d6 keep 2 lowest (L196). GM only.")
    )
    ship: str | None = Field(
        default=None, max_length=200,
        description=N_("The crew's ship whose chances are spent, that plays Don't Go Under, or that must be "
                       "in port for a port move (L206); needed only when the campaign has several ships."),
    )


class SpendLuck(PiratesCommand):
    __doc__ = N_("""Spend 1 luck: +1 to one's own open move, help or hinder a crewmate's roll (L45-L46), or
    pay for a Reputation a move lowers below −2 (L44; at 0 luck he meets fate).""")

    type: Literal["spend_luck"] = "spend_luck"
    throws_dice = False  # luck changes a roll made; it throws none of its own
    character: Own = PIRATE
    purpose: Literal["roll_bonus", "help", "hinder", "reputation"] = Field(
        description=N_("roll_bonus: +1 to his own open move (L45); help/hinder: ±1 to `roll` (L46); "
        "reputation: a move lowers his Reputation at −2 (L44).")
    )
    roll: str | None = Field(default=None, max_length=210, description=N_("The roll to modify (its id)."))

    @model_validator(mode="after")
    def _roll_named_for_help(self) -> SpendLuck:
        if self.purpose in ("help", "hinder") and self.roll is None:
            raise ValueError(f"spend_luck for {self.purpose} needs the `roll` it modifies")
        return self


class TradeSuccessForLuck(PiratesCommand):
    __doc__ = N_("""The Cartographer's offer accepted: a success becomes a miss for 1 luck (partial) or 2 (full) (L50-L51).""")

    type: Literal["trade_success_for_luck"] = "trade_success_for_luck"
    character: Own = PIRATE
    roll: str = Field(min_length=1, max_length=210, description=N_("The pirate's open move (its roll id)."))


class CloseRoll(PiratesCommand):
    __doc__ = N_("""A roll of Scheme or of a negotiation's tie made final: luck no longer changes it (L45-L46), and what
    waited for it follows (the negotiation ends after a third round's tie). It closes by itself at its
    pirate's next move, a chance of the plan spent, the plan's end, or the next round or a concession.""")

    type: Literal["close_roll"] = "close_roll"
    roll: str = Field(min_length=1, max_length=210, description=N_("The open roll (its id): the GM's or the roller's."))


class TakeDamage(PiratesCommand):
    __doc__ = N_("""Harm in wounds; each point absorbed by 1 luck or recorded by the table of §5.""")

    type: Literal["take_damage"] = "take_damage"
    character: Own = PIRATE
    harm: int = damage_named("harm", ge=1, le=100, description=N_(
        "Points of harm, each handled in turn (§5); also `damage`, the name every game shares."))
    absorb_with_luck: Annotated[int, Field(ge=0, le=100)] | bool = Field(
        default=0, description=N_("How many of the points to absorb with luck (true: as many as possible).")
    )
    level: Level = Field(default="light", description=N_("The level of wound the move inflicts into a free slot."))


class TreatWound(GMCommand):
    __doc__ = N_("""Treatment (L70; P-25): the GM names the wounds it reaches. `heal: false` marks a terrible wound
    treated while its special condition is still to be met (L68): it stays, but calls no fate.""")

    type: Literal["treat_wound"] = "treat_wound"
    character: str = PIRATE
    level: Level = Field(description=N_("The level of the wounds treated."))
    count: int = Field(default=1, ge=1, le=rules.WOUND_SLOTS, description=N_("How many wounds of that level."))
    heal: bool = Field(default=True, description=N_("The wounds heal (their slots empty); false: treated, not yet healed."))


class MeetFate(PiratesCommand):
    __doc__ = N_("""The pirate's owed Meet Fate: 2d6 with no modifiers (L77-L78); 2 faces in `dice`.""")

    type: Literal["meet_fate"] = "meet_fate"
    character: Own = PIRATE


class ChooseFate(PiratesCommand):
    __doc__ = N_("""The fate after Meet Fate: the player picks on 7–9, the GM on 6 or less; struck for the player for
    the whole campaign (L78, L87). `narrated_by_gm` only when all six are struck.""")

    type: Literal["choose_fate"] = "choose_fate"
    character: Own = PIRATE
    option: FateOption = Field(description=N_("One of the six fates (L80-L85), not yet struck for the player."))


class KeepPirateCode(GMCommand):
    __doc__ = N_("""The Pirate Code judged (L91): a precept kept by conscious choice +1 Reputation, broken −1; clamped
    to −2…+3 (P-8; option `code_violation_costs_luck`).""")

    type: Literal["pirate_code"] = "pirate_code"
    character: str = PIRATE
    kept: bool = Field(description=N_("true: the precept was kept; false: it was broken."))
    precept: str | None = Field(default=None, max_length=500, description=N_("Which precept of the crew's Code."))


class LowerReputation(GMCommand):
    __doc__ = N_("""A move orders Reputation lowered; what cannot go below −2 is paid in luck, 1 a point (L44; P-8).""")

    type: Literal["lower_reputation"] = "lower_reputation"
    character: str = PIRATE
    points: int = Field(default=1, ge=1, le=10, description=N_("How many points the move takes off."))
    move: str | None = Field(default=None, max_length=200, description=N_("The move that orders it."))


class GainAmbushToken(GMCommand):
    __doc__ = N_("""An ambush token a move grants, against one enemy (L56); the scene's enemy unless named.""")

    type: Literal["gain_ambush_token"] = "gain_ambush_token"
    character: str = PIRATE
    enemy: str | None = AMBUSH_ENEMY


class SpendAmbushToken(PiratesCommand):
    __doc__ = N_("""An ambush token used against its enemy (L56); the scene's enemy unless named.""")

    type: Literal["spend_ambush_token"] = "spend_ambush_token"
    character: Own = PIRATE
    enemy: str | None = AMBUSH_ENEMY


class StartCarousal(GMCommand):
    __doc__ = N_("""A carousal (попойка) begins: one pirate's tall tale may regain luck in it (L52, HB).""")

    type: Literal["start_carousal"] = "start_carousal"
    title: str | None = Field(default=None, max_length=500, description=N_("Where, or what is celebrated."))
    ship: str | None = Field(
        default=None, min_length=1, max_length=200,
        description=N_("The crew's ship, which must be in port (option `carousal`); needed only with several ships."),
    )


class EndCarousal(GMCommand):
    __doc__ = N_("""The carousal ends; the next one may bring another tall tale's luck (L52).""")

    type: Literal["end_carousal"] = "end_carousal"


class TellTallTale(PiratesCommand):
    __doc__ = N_("""A tall tale (байка) told at the carousal: luck +1 (P-9 option), one pirate per carousal (L52, HB).""")

    type: Literal["tell_tall_tale"] = "tell_tall_tale"
    character: Own = PIRATE


class _Money(PiratesCommand):
    """An amount in any mix of the three units: 1 chest = 10 doubloons = 50 piastres (L95)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    chests: int = Field(default=0, ge=0, le=10**6, description=N_("Chests of loot (сундуки добычи)."))
    doubloons: int = Field(default=0, ge=0, le=10**7, description=N_("Gold doubloons (1 chest = 10)."))
    piastres: int = Field(default=0, ge=0, le=10**8, description=N_("Silver piastres (1 doubloon = 5)."))
    reason: str | None = Field(default=None, max_length=500, description=N_("What the money is for, or where from."))

    @property
    def amount(self) -> int:
        return rules.piastres(self.chests, self.doubloons, self.piastres)

    def payload(self) -> dict[str, Any]:
        return self.model_dump(mode="json", exclude_none=True, by_alias=True)


class GainMoney(_Money):
    __doc__ = N_("""Money gained (loot, sales): into a pirate's purse or a ship's crew treasury (P-26).""")

    type: Literal["gain_money"] = "gain_money"
    gm_only = True
    to: str = Field(min_length=1, max_length=200, description=N_("A pirate (his purse) or a ship (the crew treasury)."))


class SpendMoney(_Money):
    __doc__ = N_("""Money spent; refused beyond what the purse or treasury holds (never below 0).""")

    type: Literal["spend_money"] = "spend_money"
    from_: Payer = Field(alias="from", min_length=1, max_length=200, description=N_("A pirate or a ship."))


class TransferMoney(_Money):
    __doc__ = N_("""Money handed from one purse or treasury to another.""")

    type: Literal["transfer_money"] = "transfer_money"
    from_: Payer = Field(alias="from", min_length=1, max_length=200, description=N_("A pirate or a ship."))
    to: str = Field(min_length=1, max_length=200, description=N_("A pirate or a ship."))


# Written out: the stats come as a model, which the rules take as a dict.
@handles(CreatePirate)
def create_pirate(command: CreatePirate, table: Table) -> None:
    creation.create_pirate(
        table, command.name, player=command.player, stats=command.stats.model_dump(), luck=command.luck,
        background=command.background, position=command.position, purse_piastres=command.purse_piastres,
    )


# The commands that are one domain call with their fields as they are (in the schema's order).
forwards({
    RollMove: play.roll_move,
    SpendLuck: play.spend_luck,
    TradeSuccessForLuck: play.trade_success_for_luck,
    CloseRoll: settling.close_roll_command,
    TakeDamage: play.take_harm,
    TreatWound: play.treat_wound,
    MeetFate: fate.meet_fate,
    ChooseFate: fate.choose_fate,
    KeepPirateCode: play.pirate_code,
    LowerReputation: play.lower_reputation,
    GainAmbushToken: play.gain_ambush_token,
    SpendAmbushToken: play.spend_ambush_token,
    StartCarousal: play.start_carousal,
    EndCarousal: play.end_carousal,
    TellTallTale: play.tell_tall_tale,
})


# Written out: the amount is counted from the three coins, and the ledger's reason has a default.
@handles(GainMoney)
def gain_money(command: GainMoney, table: Table) -> None:
    money.gain_money(table, command.to, command.amount, command.reason or "gained")


@handles(SpendMoney)
def spend_money(command: SpendMoney, table: Table) -> None:
    money.spend_money(table, command.from_, command.amount, command.reason or "spent")


@handles(TransferMoney)
def transfer_money(command: TransferMoney, table: Table) -> None:
    money.transfer_money(table, command.from_, command.to, command.amount, command.reason)
