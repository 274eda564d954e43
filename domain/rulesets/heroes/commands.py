"""Commands of the superhero game (We Can Be Heroes); the rules they apply are the modules beside this one.

Characters of every side are `create_character` with a `role`: hero (a player's), villain,
opponent, other, or minion (a group of `count` minions sharing a `danger_rank`, L26). Every roll
takes its faces from `dice` in the documented order: the pool, then its explosions round by
round; the attacker before the defender(s), the protector before the protected, the club before
the target, the charger's own passive defence last; in a team attack each member's attack
followed by the target's defence against it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ....commands.base import NAME, Command, forwards, handles
from ....commands.ownership import Own, Owner
from ...errors import N_
from ...table import Table
from . import checks, contests, creation, moment, page, resources, rules, tactics

HEROES = frozenset({"heroes"})
Rank = Annotated[int, Field(ge=1, le=rules.TRAIT_LIMIT_MAX)]
Resolve = Field(default=0, ge=0, le=100, description=N_("Resolve spent before the roll: +1 die each, 3 in a Defining Moment."))
Situation = Field(default=0, ge=-rules.SITUATIONAL_MAX, le=rules.SITUATIONAL_MAX,
                  description=N_("Cover, visibility or size: dice, −3…+3 (L181-L184; H-5)."))
Ability = Literal[rules.ABILITIES]  # type: ignore[valid-type]
Distance = Literal[rules.DISTANCES]  # type: ignore[valid-type]
Use = Literal[rules.POWER_USES]  # type: ignore[valid-type]
Text = Annotated[str, Field(min_length=1, max_length=500)]


class _Heroes(Command):
    rulesets = HEROES


class _GM(_Heroes):
    gm_only = True


class Abilities(BaseModel):
    __doc__ = N_("The six Abilities (L79); rank = d6 rolled (L25), at most the Trait Limit (L27).")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    strength: Rank
    agility: Rank
    stamina: Rank
    intellect: Rank
    perception: Rank
    will: Rank


class Power(BaseModel):
    __doc__ = N_("A Power: its rank (None for a rankless one) and what it does (L25, L96, L178, L195).")  # the form's help for it: said in the reader's language

    model_config = ConfigDict(extra="forbid")
    rank: Rank | None
    uses: list[Use] = Field(
        default_factory=lambda: ["affect"],
        description=N_("attack, defence, affect (others or objects: these count for starting Resolve, L96), movement."),
    )
    lethal: bool = Field(default=True, description=N_("Most attacks are lethal (L178)."))
    passive: bool = Field(default=False, description=N_("A defence Power that is passive (armour-like), not active."))
    effect: str | None = Field(default=None, max_length=100, description=N_("A special effect its attacks add (L195)."))
    area: bool = False


class CreateCharacter(_Heroes):
    __doc__ = N_("""A hero, villain, opponent, other, or a group of minions with one danger rank (L23-L27).""")

    type: Literal["create_character"] = "create_character"
    name: str = NAME
    player: Owner | None = Field(default=None, min_length=1, max_length=200)
    role: Literal[rules.ROLES] = "hero"  # type: ignore[valid-type]
    abilities: Abilities | None = Field(default=None, description=N_("Required except for minions."))
    talents: dict[Annotated[str, Field(min_length=1, max_length=100)], Rank] = Field(default_factory=dict)
    powers: dict[Annotated[str, Field(min_length=1, max_length=100)], Rank | Power] = Field(
        default_factory=dict, description=N_("name -> rank (a Power that affects others) or a full description.")
    )
    perks: list[Text] = Field(default_factory=list)
    flaws: list[Text] = Field(default_factory=list)
    motivation: str | None = Field(default=None, max_length=1000)
    danger_rank: Rank | None = Field(default=None, description=N_("Minions: their common rank (L26)."))
    count: int = Field(default=1, ge=1, le=1000, description=N_("Minions in the group."))


class NextPage(_GM):
    __doc__ = N_("""End the page and begin the next (its initiative order, in a battle).""")

    type: Literal["next_page"] = "next_page"


class RollCheck(_Heroes):
    __doc__ = N_("""A check: rank d6, 2/4 one success, 6 two, minus the difficulty or an opponent's successes (L33-L52).""")

    type: Literal["roll_check"] = "roll_check"
    character: Own = NAME
    trait: str = NAME
    difficulty: int | None = Field(default=None, ge=0, le=30, description=N_("0 Easy … 12+ Epic (L43-L52); default 0."))
    opponent: str | None = Field(default=None, max_length=200, description=N_("An opposed check: who rolls against."))
    opponent_trait: str | None = Field(default=None, max_length=200)
    resolve: int = Resolve
    modifier: int = Situation
    action: bool = Field(default=False, description=N_("In a battle: this check is the character's action (L141)."))


class HelpCheck(_Heroes):
    __doc__ = N_("""The helper rolls at difficulty 2; the helped gets +1 die per 2 net successes (L66-L67).""")

    type: Literal["help"] = "help"
    helper: Own = NAME
    character: str = NAME
    trait: str = NAME
    resolve: int = Resolve


class Member(BaseModel):
    model_config = ConfigDict(extra="forbid")
    character: Own = NAME
    trait: str = NAME


class GroupCheck(_Heroes):
    type: Literal["group_check"] = "group_check"
    members: list[Member] = Field(min_length=2, max_length=50)
    difficulty: int = Field(default=0, ge=0, le=30)


class ShareSuccesses(_Heroes):
    __doc__ = N_("""After a group check: successes above 3 go to other members (L68; H-3).""")

    type: Literal["share_successes"] = "share_successes"
    from_character: Own = NAME
    to_character: str = NAME
    amount: int = Field(ge=1, le=100)


class StartContest(_GM):
    type: Literal["start_contest"] = "start_contest"
    contest: str = NAME
    sides: list[str] = Field(min_length=2, max_length=2)
    checks: int = Field(default=rules.DEFAULT_CONTEST_CHECKS, ge=1, le=50)


class ContestRoll(_Heroes):
    type: Literal["contest_roll"] = "contest_roll"
    contest: str = NAME
    traits: dict[str, str] = Field(description=N_("side -> trait"))
    resolve: dict[Own, Annotated[int, Field(ge=0, le=100)]] = Field(default_factory=dict)


class Race(_Heroes):
    type: Literal["race"] = "race"
    racers: list[Member] = Field(min_length=2, max_length=50)


class StartChase(_GM):
    type: Literal["start_chase"] = "start_chase"
    chase: str = NAME
    pursuer: str = NAME
    quarry: str = NAME
    distance: Distance


class ChaseCheck(_Heroes):
    type: Literal["chase_check"] = "chase_check"
    chase: str = NAME
    pursuer_trait: str = NAME
    quarry_trait: str = NAME
    shift: Literal["closer", "farther", "none"] | None = Field(
        default=None, description=N_("The winner's choice with 3+ net successes (L169); default toward his aim.")
    )
    resolve: dict[Own, Annotated[int, Field(ge=0, le=100)]] = Field(default_factory=dict)


class Recover(_Heroes):
    __doc__ = N_("""Stamina vs 2 after a battle or a day's rest, vs 1 after a whole day of rest (L193).""")

    type: Literal["recover"] = "recover"
    character: Own = NAME
    rest: Literal[tuple(rules.RECOVERY_DIFFICULTY)] = "battle"  # type: ignore[valid-type]
    resolve: int = Resolve


class EscapeEffect(_Heroes):
    type: Literal["escape_effect"] = "escape_effect"
    character: Own = NAME
    effect: str = NAME
    trait: str = NAME
    difficulty: int = Field(default=0, ge=0, le=30, description=N_("As the Power says (no text in the source, H-10)."))
    resolve: int = Resolve


Purpose = Literal[tuple(resources.SPENDS)]  # type: ignore[valid-type]


class SpendResolve(_Heroes):
    __doc__ = N_("""Every spend of §4.1 (L105-L116); the fields each purpose reads are listed with it.""")

    type: Literal["spend_resolve"] = "spend_resolve"
    character: Own = NAME
    purpose: Purpose
    amount: int = Field(default=1, ge=1, le=100, description=N_("dice: Resolve to spend."))
    roll: str | None = Field(default=None, max_length=210, description=N_("dice, reroll: which open roll."))
    to: str | None = Field(default=None, max_length=200, description=N_("transfer: the receiver."))
    indirect: bool = Field(default=False, description=N_("transfer: 2 for 1, with a flashback."))
    narration: str | None = Field(default=None, max_length=2000, description=N_("transfer, detail."))
    effect: str | None = Field(default=None, max_length=100, description=N_("shake_off, extend_effect."))
    target: str | None = Field(default=None, max_length=200, description=N_("extend_effect, knockback."))
    into_object: bool = Field(default=False, description=N_("knockback: hits an object, +half damage (L266)."))
    redirect_at: str | None = Field(default=None, max_length=200,
                                    description=N_("redirect: at someone (costs his next page)."))
    trait: str | None = Field(default=None, max_length=200, description=N_("power_stunt: the trait used."))
    power: str | None = Field(default=None, max_length=100, description=N_("power_stunt: the Power imitated."))
    uses: list[Use] | None = None
    lethal: bool = True


class GainResolve(_GM):
    type: Literal["gain_resolve"] = "gain_resolve"
    character: str = NAME
    reason: Literal[tuple(rules.RESOLVE_GAINS)]  # type: ignore[valid-type]


class SpendAdversity(_GM):
    type: Literal["spend_adversity"] = "spend_adversity"
    purpose: Literal["overcome_flaw", "problem", "villainous_act"]
    pool: Literal["issue", "scene"] = "issue"
    villain: str | None = Field(default=None, max_length=200)


class GainAdversity(_GM):
    type: Literal["gain_adversity"] = "gain_adversity"
    reason: Literal["misbehaviour", "gm"]
    character: str | None = Field(default=None, max_length=200)
    pool: Literal["issue", "scene"] = "issue"


class SceneAdversity(_GM):
    type: Literal["scene_adversity"] = "scene_adversity"
    amount: int = Field(ge=1, le=100)


class DeclareDefiningMoment(_Heroes):
    type: Literal["declare_defining_moment"] = "declare_defining_moment"
    character: Own = NAME
    effort: Literal[tuple(rules.EFFORT_ABILITIES)]  # type: ignore[valid-type]
    lasting: bool = Field(default=False, description=N_("Lasts over several pages until end_defining_moment (L78)."))


class EndDefiningMoment(_Heroes):
    type: Literal["end_defining_moment"] = "end_defining_moment"
    character: Own = NAME


class LowerAbility(_Heroes):
    type: Literal["lower_ability"] = "lower_ability"
    character: Own = NAME
    ability: Ability


class RestoreAbility(_GM):
    type: Literal["restore_ability"] = "restore_ability"
    character: str = NAME
    ability: Ability
    cost: str = Field(min_length=1, max_length=200, description=N_("What ГО was spent (undefined in the source, H-2)."))


class NextDay(_GM):
    type: Literal["next_day"] = "next_day"


# --- handlers ---------------------------------------------------------------------------------


def _power(value: int | Power) -> dict[str, Any]:
    return (Power(rank=value) if isinstance(value, int) else value).model_dump()


@handles(CreateCharacter)
def _create_character(c: CreateCharacter, table: Table) -> None:
    creation.create_character(
        table, c.name, player=c.player, role=c.role,
        abilities=c.abilities.model_dump() if c.abilities else None, talents=dict(c.talents),
        powers={n: _power(p) for n, p in c.powers.items()}, perks=c.perks, flaws=c.flaws,
        motivation=c.motivation, danger_rank=c.danger_rank, count=c.count,
    )


@handles(GroupCheck)
def _group_check(c: GroupCheck, table: Table) -> None:
    checks.group_check(table, [(m.character, m.trait) for m in c.members], c.difficulty)


@handles(ShareSuccesses)
def _share(c: ShareSuccesses, table: Table) -> None:
    checks.share_successes(table, c.from_character, c.to_character, c.amount)


@handles(Race)
def _race(c: Race, table: Table) -> None:
    contests.race(table, [(m.character, m.trait) for m in c.racers])


@handles(SpendResolve)
def _spend_resolve(c: SpendResolve, table: Table) -> None:
    args = c.model_dump(exclude={"type", "campaign", "actor", "id", "at", "dice", "character", "purpose"})
    resources.spend_resolve(table, c.character, c.purpose, **args)


# The commands that are one domain call with their fields as they are.
forwards({
    NextPage: page.next_page,
    RollCheck: checks.roll_check,
    HelpCheck: checks.help_check,
    StartContest: contests.start_contest,
    ContestRoll: contests.contest_roll,
    StartChase: contests.start_chase,
    ChaseCheck: contests.chase_check,
    Recover: checks.recover,
    EscapeEffect: checks.escape_effect,
    GainResolve: resources.gain_resolve,
    SpendAdversity: resources.spend_adversity,
    GainAdversity: resources.gain_adversity,
    SceneAdversity: resources.open_scene_pool,
    DeclareDefiningMoment: moment.declare_defining_moment,
    EndDefiningMoment: moment.end_defining_moment,
    LowerAbility: moment.lower_ability,
    RestoreAbility: moment.restore_ability,
    NextDay: tactics.next_day,
})
