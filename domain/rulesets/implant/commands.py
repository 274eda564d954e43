"""Commands of «Имплант» (Savage Worlds); the rules they apply are the modules beside this one.

Faces in `dice` are consumed in the order of domain/dice.py: a check's trait die with its
aces, then the wild die with its aces (extras roll no wild die); an attack's roll, then
the defender's Strength check when a called shot hits his weapon; damage dice in the order
written (Strength, weapon, one d6 per raise), each with its aces, then d6 hours if a
nonlethal blow knocks the target out.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from ....commands.base import NAME, Command, forwards, handles
from ....commands.ownership import OWNED, Owner
from ... import boundaries
from ...errors import N_
from ...table import Table
from ...timeline import Scope
from . import combat, damage, healing, play, rules
from .bennies import award_benny

IMPLANT = frozenset({"implant"})


class _Implant(Command):
    """Every one of Implant's own commands."""

    rulesets = IMPLANT


class _GM(_Implant):
    """One the GM alone gives."""

    gm_only = True


Die = Literal[tuple(f"d{sides}" for sides in rules.DIE_STEPS)]  # type: ignore[valid-type]
Skill = Literal[rules.SKILLS]  # type: ignore[valid-type]
Trait = Literal[rules.ATTRIBUTES + rules.SKILLS]  # type: ignore[valid-type]
Kind = Literal[combat.MELEE, combat.RANGED]
Name = Annotated[str, NAME]
#: A character the actor must own (commands/ownership.py).
OwnName = Annotated[Name, OWNED]


class Attributes(BaseModel):
    __doc__ = N_("Attribute dice; a player's character must show the starting ones (d4, Intellect d6; L121).")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    strength: Die | None = None
    agility: Die | None = None
    intellect: Die | None = None
    vigor: Die | None = None
    spirit: Die | None = None


class Weapon(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Kind
    damage: str = Field(
        max_length=50,
        description=N_("Ranged: fixed dice like 2d6 (L100); melee: the die added to Strength, e.g. d4 (L101)."),
    )
    rate_of_fire: int | None = Field(default=None, description=N_("Ranged only, 1-6 (L88); default 1."))


class CreateCharacter(_Implant):
    __doc__ = N_("""A character. With a `player` the creation rules apply (L120-L128): attributes d4 and
    Intellect d6, Athletics/Persuasion/Common Knowledge/Notice/Stealth d4, 10 points of skill
    steps, no skill above its attribute. The GM's characters are free-form; `wild_card: false`
    makes an Extra (no wild die, out at the first wound).""")

    type: Literal["create_character"] = "create_character"
    name: Name
    player: Owner | None = Field(default=None, min_length=1, max_length=200)
    wild_card: bool | None = Field(default=None, description=N_("Default true; false makes an Extra (GM only)."))
    attributes: Attributes = Field(default_factory=Attributes)
    skills: dict[Skill, Die] = Field(default_factory=dict, description=N_("Trained skills; the rest are untrained (d4−2)."))
    armour: int = Field(default=0, ge=0, le=50)
    max_wounds: int | None = Field(default=None, ge=0, le=20, description=N_("GM wild cards: 2 or more (L112)."))
    weapons: dict[Name, Weapon] = Field(default_factory=dict, max_length=20)


class StartCombat(_GM):
    __doc__ = N_("""Combat starts: the GM gets one benny per enemy (L63); round 1 begins.""")

    type: Literal["start_battle"] = "start_battle"
    title: str | None = Field(default=None, max_length=500)
    enemies: list[Name] = Field(max_length=100, description=N_("The GM's characters fighting the hero."))


class JoinCombat(_GM):
    __doc__ = N_("""Enemies joining a running combat: one more GM benny each (L63).""")

    type: Literal["join_battle"] = "join_battle"
    enemies: list[Name] = Field(min_length=1, max_length=100)


class EndCombat(_GM):
    type: Literal["end_battle"] = "end_battle"


class NextRound(_GM):
    __doc__ = N_("""The next round of ≈6 seconds (L72).""")

    type: Literal["next_round"] = "next_round"


class StartTurn(_Implant):
    __doc__ = N_("""A character's round starts (the GM states the order, I-24): Dying → Vigor check,
    Shaken → Spirit check; Vulnerable ends (L110-L113).""")

    type: Literal["start_turn"] = "start_turn"
    character: OwnName


class TraitCheck(_Implant):
    __doc__ = N_("""A check of an attribute or skill (L9-L19); untrained skills roll d4−2.""")

    type: Literal["trait_check"] = "trait_check"
    character: OwnName
    trait: Trait
    tn: int = Field(default=rules.DEFAULT_TN, ge=1, le=1000, description=N_("Target number, usually 4 (L11)."))
    modifier: int = Field(default=0, ge=-50, le=50, description=N_("The GM's modifiers (L11)."))
    against: str | None = Field(
        default=None, max_length=200, description=N_("A character the check acts against (+2 if Vulnerable).")
    )


class AttackOptions(BaseModel):
    __doc__ = N_("Every option of §6.2-§6.4, declared before the roll.")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    desperate: Literal[(0, *rules.DESPERATE_BONUSES)] = Field(  # type: ignore[valid-type]
        default=0, description=N_("Melee: +2/+4 to hit, as much off the damage (L81).")
    )
    wild: bool = Field(default=False, description=N_("Melee: +2 to hit, Vulnerable until his next round (L82)."))
    free_attack: bool = Field(default=False, description=N_("Melee: the free attack on a withdrawing opponent (L79)."))
    range: int = Field(default=0, ge=rules.RANGE_PENALTY_MIN, le=0, description=N_("Ranged: 0…−8 (L86)."))
    cover: int = Field(default=0, ge=rules.COVER_PENALTY_MIN, le=0, description=N_("Ranged: 0…−10 (L87)."))
    tn: int | None = Field(default=None, ge=1, le=1000, description=N_("Ranged: a TN other than 4 (L85)."))
    off_hand: bool = Field(default=False, description=N_("−2 (L92)."))
    nonlethal: bool = Field(default=False, description=N_("−1; the target is knocked out for d6 hours instead (L93)."))
    called_shot: Literal[rules.CALLED_SHOT_TARGETS] | None = Field(  # type: ignore[valid-type]
        default=None, description=N_("−4; head/vitals +4 damage; weapon: Strength check or disarmed (L94-L95).")
    )
    target_weapon: str | None = Field(default=None, max_length=200, description=N_("Which weapon a called shot aims at."))
    modifier: int = Field(default=0, ge=-50, le=50, description=N_("Other situational modifiers."))


class Attack(_Implant):
    __doc__ = N_("""Fighting vs Parry (L78) or Shooting vs 4 (L85); a hit waits for roll_damage.""")

    type: Literal["attack"] = "attack"
    attacker: OwnName
    target: Name
    kind: Kind
    weapon: str | None = Field(default=None, max_length=200, description=N_("A weapon of the attacker, or unarmed."))
    options: AttackOptions = Field(default_factory=AttackOptions)


class RollDamage(_Implant):
    __doc__ = N_("""The hit's damage (L98-L107), applied at once; the victim may then soak.""")

    type: Literal["roll_damage"] = "roll_damage"
    attack: str | None = Field(
        default=None, max_length=210, description=N_("The attack roll's id (default: the pending hit).")
    )


class ApplyDamage(_GM):
    __doc__ = N_("""A damage total against the character's Toughness (§5.2), from outside an attack.""")

    type: Literal["take_damage"] = "take_damage"
    character: Name
    damage: int = Field(ge=-100, le=10_000)
    nonlethal: bool = False


class SpendBenny(_Implant):
    __doc__ = N_("""One benny (L64-L69): reroll the latest check keeping the better, recover from Shaken,
    soak, reroll the latest damage, +5 energy cells, or influence the story (`note`).""")

    type: Literal["spend_benny"] = "spend_benny"
    character: OwnName
    purpose: Literal[rules.BENNY_PURPOSES]  # type: ignore[valid-type]
    note: str | None = Field(default=None, max_length=2000)


class Soak(_Implant):
    __doc__ = N_("""Spend a benny on a Vigor check against the latest attack's wounds (L114).""")

    type: Literal["soak"] = "soak"
    character: OwnName


class Heal(_Implant):
    __doc__ = N_("""A Healing check, 10 minutes (L117).""")

    type: Literal["heal"] = "heal"
    healer: OwnName
    patient: Name


class Aim(_Implant):
    type: Literal["aim"] = "aim"
    character: OwnName


class Taunt(_Implant):
    type: Literal["taunt"] = "taunt"
    character: OwnName
    target: Name
    tn: int = Field(default=rules.DEFAULT_TN, ge=1, le=1000, description=N_("I-13: TN 4 unless the GM sets another."))


class Withdraw(_Implant):
    type: Literal["withdraw"] = "withdraw"
    character: OwnName
    opponents: list[Name] = Field(max_length=100, description=N_("The adjacent opponents (each may take a free attack)."))


class Rearm(_Implant):
    __doc__ = N_("""The character has his lost weapon back.""")

    type: Literal["rearm"] = "rearm"
    character: OwnName
    weapon: Name


class AwardBenny(_GM):
    type: Literal["award_benny"] = "award_benny"
    character: Name
    count: int = Field(default=1, ge=1, le=100)


class EndDay(_GM):
    __doc__ = N_("""The game day ends: natural healing checks for the untreated wounded (L118).""")

    type: Literal["end_day"] = "end_day"


class PassTime(_GM):
    type: Literal["pass_time"] = "pass_time"
    hours: int = Field(ge=1, le=24)


# --- handlers ----------------------------------------------------------------------------

#: The rules' parameters that the commands' fields name otherwise: parameter -> field.
FIELDS = {"name": "character", "attack_id": "attack", "healer_name": "healer", "patient_name": "patient",
          "target_name": "target"}


# Written out: the attributes and weapons come as models, which the rules take as dicts.
@handles(CreateCharacter)
def _create_character(command: CreateCharacter, table: Table) -> None:
    play.create_character(
        table, command.name, player=command.player, wild_card=command.wild_card,
        attributes=command.attributes.model_dump(exclude_none=True), skills=dict(command.skills),
        armour=command.armour, max_wounds=command.max_wounds,
        weapons={n: w.model_dump() for n, w in command.weapons.items()},
    )


# The commands that are one domain call with their fields (in the schema's order, around those written out).
forwards({StartCombat: play.start_combat, JoinCombat: play.enemies_joined})


# Written out: the battle ends as every timeline scope does, with all it closes inside.
@handles(EndCombat)
def _end_combat(command: EndCombat, table: Table) -> None:
    boundaries.end(table, Scope.BATTLE)


forwards({NextRound: play.next_round, StartTurn: play.start_turn, TraitCheck: play.trait_check}, fields=FIELDS)


# Written out: the rules take only the options declared, as a dict.
@handles(Attack)
def _attack(command: Attack, table: Table) -> None:
    combat.attack(
        table, command.attacker, command.target, command.kind, command.weapon,
        command.options.model_dump(exclude_defaults=True),
    )


forwards({
    RollDamage: damage.roll_damage,
    ApplyDamage: damage.take_damage,
    SpendBenny: play.spend_benny,
    Soak: damage.soak,
    Heal: healing.heal,
    Aim: combat.aim,
    Taunt: combat.taunt,
    Withdraw: combat.withdraw,
    Rearm: play.rearm,
    AwardBenny: award_benny,
    EndDay: healing.end_day,
    PassTime: healing.pass_time,
}, fields=FIELDS)
