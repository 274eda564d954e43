"""Combat commands of the superhero game: attacks and their special cases, damage and effects,
the page's actions, distance and movement, protecting, grappling, manoeuvres, ambushes (§7).
Their faces come in the order `commands.py` gives.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ....commands.base import NAME, damage_named, forwards, handles
from ....commands.ownership import Own
from ...errors import N_
from ...table import Table
from . import combat, page, resources, rules, tactics
from .commands import _GM, Distance, Resolve, Situation, _Heroes


class Attack(_Heroes):
    __doc__ = N_("""Attack roll vs the target's highest defence; damage = net successes (L174-L186, §7.6).""")

    type: Literal["attack"] = "attack"
    attacker: Own = NAME
    target: str = NAME
    trait: str = NAME
    defence_trait: str | None = Field(default=None, max_length=200, description=N_("Another defence option of the target."))
    defence: Literal["active", "passive"] | None = Field(default=None, description=N_("Force the defence kind."))
    lethal: bool | None = Field(default=None, description=N_("Default: the trait's (abilities lethal, L178)."))
    resolve: int = Resolve
    modifier: int = Situation
    weapon: int = Field(default=0, ge=0, le=20, description=N_("An ordinary weapon's bonus dice (L174)."))
    charge: bool = Field(default=False, description=N_("+2 dice; his active defence halved this page (L251-L252)."))
    all_out: bool = Field(default=False, description=N_("+2 dice; his defences halved this page (L261)."))
    redirect: bool = Field(default=False, description=N_("The target declares a redirect before defending (L268)."))


class AreaAttack(_Heroes):
    type: Literal["area_attack"] = "area_attack"
    attacker: Own = NAME
    targets: list[str] = Field(min_length=1, max_length=50)
    trait: str = NAME
    dodge: dict[str, Literal["half", "skip"]] = Field(
        default_factory=dict, description=N_("Each target's active defence: half rank, or full and skip a page (L249).")
    )
    lethal: bool | None = None
    resolve: int = Resolve
    modifier: int = Situation


class ClubAttack(_Heroes):
    type: Literal["club_attack"] = "club_attack"
    attacker: Own = NAME
    club: str = NAME
    target: str = NAME
    trait: str = NAME
    lethal: bool | None = None
    resolve: int = Resolve
    modifier: int = Situation


class TeamMember(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attacker: Own = NAME
    trait: str = NAME
    explode: bool = Field(default=False, description=N_("1 Resolve: his 6s explode (L272)."))
    lethal: bool | None = None
    weapon: int = Field(default=0, ge=0, le=20)


class TeamAttack(_Heroes):
    type: Literal["team_attack"] = "team_attack"
    target: str = NAME
    members: list[TeamMember] = Field(min_length=2, max_length=20)
    creative: bool = Field(default=False, description=N_("The GM allows a second team attack this battle (L273)."))


class TakeDamage(_GM):
    type: Literal["take_damage"] = "take_damage"
    character: str = NAME
    amount: int = damage_named("amount", ge=0, le=1000, description=N_("Damage to Health; also `damage`, the name every game shares."))
    lethal: bool = True


class ApplyEffect(_GM):
    type: Literal["apply_effect"] = "apply_effect"
    character: str = NAME
    effect: str = NAME
    pages: int = Field(ge=1, le=100)
    source: str | None = Field(default=None, max_length=200)


class DeclareActions(_Heroes):
    type: Literal["declare_actions"] = "declare_actions"
    character: Own = NAME
    count: int = Field(ge=2, le=10)


class DelayAction(_Heroes):
    type: Literal["delay_action"] = "delay_action"
    character: Own = NAME
    moment: str = NAME


class PassTurn(_Heroes):
    __doc__ = N_("""Let one's turn of the page go by without an action, so that the slower may act (L126).""")

    type: Literal["pass"] = "pass"
    character: Own = NAME


class StartIssue(_GM):
    __doc__ = N_("""A new issue: Resolve back to its starting stock (L19; H-1), the GM's Adversity = the heroes (L85, L118).""")

    type: Literal["start_issue"] = "start_issue"
    title: str | None = Field(default=None, max_length=500)
    characters: list[str] | None = Field(
        default=None, max_length=500,
        description=N_("The characters in play in this issue, whose Resolve is renewed (L19, L118; H-9). "
                    "Default: every character of the campaign."))


class StartBattle(_GM):
    __doc__ = N_("""A battle begins; its first page is the next one (L126).""")

    type: Literal["start_battle"] = "start_battle"
    title: str | None = Field(default=None, max_length=500)
    characters: list[str] | None = Field(
        default=None, max_length=500,
        description=N_("The battle's participants (L130): only they are in the initiative order, act and are "
                    "attacked in it. Default: everyone standing."))


class JoinBattle(_Heroes):
    __doc__ = N_("""A character enters a battle started with `characters`; in the order from the next page (L126).""")

    type: Literal["join_battle"] = "join_battle"
    character: Own = NAME


class LeaveBattle(_Heroes):
    __doc__ = N_("""A character leaves a battle started with `characters` (fled, carried off); out of the order from the
    next page.""")

    type: Literal["leave_battle"] = "leave_battle"
    character: Own = NAME


class TriggerMoment(_GM):
    type: Literal["trigger_moment"] = "trigger_moment"
    moment: str = NAME


class SetDistance(_GM):
    type: Literal["set_distance"] = "set_distance"
    character: str = NAME
    other: str = NAME
    distance: Distance


class Move(_Heroes):
    type: Literal["move"] = "move"
    character: Own = NAME
    other: str = NAME
    to: Distance
    power: str | None = Field(default=None, max_length=200, description=N_("A movement Power used."))
    open_terrain: bool = False


class Protect(_Heroes):
    type: Literal["protect"] = "protect"
    character: Own = NAME
    ward: str = NAME


class AllOutDefence(_Heroes):
    type: Literal["all_out_defence"] = "all_out_defence"
    character: Own = NAME


class Grapple(_Heroes):
    type: Literal["grapple"] = "grapple"
    attacker: Own = NAME
    target: str = NAME
    purpose: Literal["hold", "snatch"] = "hold"
    resolve: int = Resolve


class Manoeuvre(_Heroes):
    type: Literal["manoeuvre"] = "manoeuvre"
    attacker: Own = NAME
    target: str = NAME
    manoeuvre: Literal[tuple(rules.MANOEUVRES)] = Field(  # type: ignore[valid-type]
        description="; ".join(f"{name}: {traits}" for name, traits in rules.MANOEUVRES.items()) + " (L235-L238)."
    )
    trait: str = NAME
    defence_trait: str | None = Field(default=None, max_length=200)
    resolve: int = Resolve
    modifier: int = Situation


class Ambush(_Heroes):
    type: Literal["ambush"] = "ambush"
    ambusher: Own = NAME
    trait: str = Field(min_length=1, max_length=200, description=N_("Stealth, or Charisma to deceive (L244)."))
    targets: list[str] = Field(min_length=1, max_length=50)
    resolve: int = Resolve


@handles(TeamAttack)
def _team_attack(c: TeamAttack, table: Table) -> None:
    combat.team_attack(table, c.target, [m.model_dump() for m in c.members], creative=c.creative)


@handles(StartIssue)
def _start_issue(c: StartIssue, table: Table) -> None:
    page.start_issue(table, c.title, c.characters)


@handles(StartBattle)
def _start_battle(c: StartBattle, table: Table) -> None:
    page.start_battle(table, c.title, c.characters)


@handles(Manoeuvre)
def _manoeuvre(c: Manoeuvre, table: Table) -> None:
    tactics.manoeuvre(table, c.attacker, c.target, c.manoeuvre, c.trait, c.defence_trait,
                      resolve=c.resolve, modifier=c.modifier)


# The commands that are one domain call with their fields as they are.
forwards({
    Attack: combat.attack,
    AreaAttack: combat.area_attack,
    ClubAttack: combat.club_attack,
    TakeDamage: combat.take_damage,
    ApplyEffect: resources.apply_effect,
    DeclareActions: page.declare_actions,
    DelayAction: page.delay_action,
    PassTurn: page.pass_turn,
    JoinBattle: page.join_battle,
    LeaveBattle: page.leave_battle,
    TriggerMoment: page.trigger_moment,
    SetDistance: tactics.set_distance,
    Move: tactics.move,
    Protect: tactics.protect,
    AllOutDefence: tactics.all_out_defence,
    Grapple: tactics.grapple,
    Ambush: tactics.ambush,
})
