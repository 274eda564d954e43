"""How the gladiator game is played: creation, the combat turn, role-play awards, between battles.

Each function decides at a `Table`: it validates against the sheets, rolls, and calls the
aggregates' event methods. Section numbers are the digest's (shared/rules/gladiators-pdq.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...campaign import Campaign
from ...dice import Modifier, SumDice
from ...errors import RuleViolation, Word
from ...table import Table
from ...timeline import Scope
from . import rules
from .campaign import GladiatorsCampaign
from .enemy import Enemy, Squad
from .gladiator import Gladiator
from .rules import ATTACK, DEFENCE, EXPERT, GREAT, SPECIALIST, VERY_GOOD, damage


@dataclass(frozen=True)
class TurnRoll:
    """What a combat turn throws and how it is read, decided before any die is cast.

    Each side rolls its share of the 3d6 the tactic splits (L17-L21) plus its modifiers, against
    the GM's totals declared before the roll (L22; G-7); one-time modifiers spent after the dice
    add to both totals (`after_roll`, G-18). In the first turn against a foe the PC's blow lands
    first, and a foe it beats strikes no more (`first_blow`, L17; G-9 (b')).
    """

    tactic: str
    modifiers: dict[str, tuple[Modifier, ...]]
    after_roll: tuple[Modifier, ...]
    gm_attack: int
    gm_defence: int
    foe_health: int
    beaten_at: int
    first_blow: bool

    def dice(self, side: str, tactic: str | None = None) -> SumDice:
        """A side's dice and the modifiers rolled with them (those spent after the roll aside)."""
        attack_dice, defence_dice = rules.TACTICS[tactic or self.tactic]
        return SumDice(attack_dice if side == ATTACK else defence_dice, rules.DIE_SIDES, self.modifiers[side])

    def losses(self, attack: int, defence: int) -> tuple[int, int]:
        """(the foe's loss, the gladiator's) for the two final totals: the PC's blow first (G-9)."""
        dealt = damage(attack, self.gm_defence)
        felled = self.foe_health - dealt <= self.beaten_at
        return dealt, 0 if self.first_blow and felled else damage(self.gm_attack, defence)

    def outcomes(self, attack: int, defence: int) -> dict[str, str]:
        dealt, taken = self.losses(attack, defence)
        return {ATTACK: "hit" if dealt else "blocked", DEFENCE: "breached" if taken else "held"}


def create_gladiator(table: Table, sheet: dict[str, Any], ordinary_skills: Sequence[str] = ()) -> None:
    """Character creation (§7): every number of the sheet checked against L3-L10, health by L15. `sheet` is the
    `Gladiator` as created, his health aside: name, player, attributes, main skill, style, signature moves, skills,
    class skill and motivation, in that order."""
    attributes, main_skill, signature_moves = sheet["attributes"], sheet["main_skill"], sheet["signature_moves"]
    skills, class_skill, motivation = sheet["skills"], sheet["class_skill"], sheet["motivation"]
    raised = Counter(attributes.values())
    if {GREAT: raised[GREAT], VERY_GOOD: raised[VERY_GOOD]} not in rules.RAISE_PATTERNS:
        raise RuleViolation(
            "{great} attribute(s) Great and {very_good} Very good: all attributes are Good except either one raised "
            "two levels to Great or two raised one level to Very good (L3)",
            field="attributes", great=raised[GREAT], very_good=raised[VERY_GOOD],
        )
    if len(signature_moves) != rules.SIGNATURE_MOVES:
        raise RuleViolation(
            "{signature_moves} signature moves: a gladiator has exactly {wanted}, each an attack or a "
            "defence move (L6)",
            field="signature_moves", signature_moves=len(signature_moves), wanted=rules.SIGNATURE_MOVES,
        )
    levels = Counter(skills.values())
    up_to = table.campaign.option("additional_skills") == "up_to"
    if not rules.skill_shape_allowed(levels[EXPERT], levels[SPECIALIST], up_to):
        shapes = "2 Experts, 4 Specialists or 1 Expert and 2 Specialists"
        # Terms: уровень эксперта, уровень специалиста L7.
        raise RuleViolation(
            "{experts} Expert and {specialists} Specialist skills: the additional skills are {at_most}{shapes} (L7; "
            "G-19)",
            field="skills", experts=levels[EXPERT], specialists=levels[SPECIALIST],
            at_most=Word("at most ") if up_to else "", shapes=shapes,
        )
    if main_skill in skills:
        raise RuleViolation(
            "{main_skill} is the main skill; the additional skills are besides it (L7)",
            field="skills", main_skill=main_skill,
        )
    both = sorted(set(attributes) & set(skills))
    if both:
        raise RuleViolation(
            "{both} named both an attribute and a skill; the GM's rulings of what is related name them (G-11), so "
            "each name must be one or the other",
            field="skills", both=", ".join(both),
        )
    _check_ordinary_skills(ordinary_skills, {main_skill, class_skill["name"], *skills, *attributes})
    if not rules.MOTIVATION_MIN <= motivation <= rules.MOTIVATION_MAX:
        raise RuleViolation(
            "motivation {motivation:+d}: it is a one-time modifier from +{motivation_min} to +{motivation_max} (L9)",
            field="motivation", motivation=motivation, motivation_min=rules.MOTIVATION_MIN,
            motivation_max=rules.MOTIVATION_MAX,
        )
    table.campaign.enrol(sheet["name"], Gladiator.kind, sheet["player"])
    gladiator = Gladiator(campaign=table.campaign.campaign, **sheet,
                          max_health=rules.max_health(attributes, skills, motivation))
    table.add(gladiator)
    if ordinary_skills:
        gladiator.list_ordinary_skills(skills=list(ordinary_skills))


def _check_ordinary_skills(ordinary: Sequence[str], named: set[str]) -> None:
    """L8: the skills a gladiator has at the level of anyone else, besides those his sheet raises (+0, L15)."""
    repeated = sorted(n for n, count in Counter(ordinary).items() if count > 1)
    if repeated:
        raise RuleViolation("{repeated} listed twice", field="ordinary_skills", repeated=", ".join(repeated))
    raised = sorted(set(ordinary) & named)
    if raised:
        raise RuleViolation(
            "{raised} is already on the sheet above the ordinary level (main, additional or class skill, or an "
            "attribute); ordinary skills are the others, «не лучше и не хуже прочих» (L8)",
            field="ordinary_skills", raised=", ".join(raised),
        )


def create_enemy(
    table: Table, name: str, health: int | None, members: int, member_health: Sequence[int] | None = None
) -> None:
    """A foe, or a squad as one opponent with the summed health of its members (L23): `health` each and
    `members` of them, or each fighter's own in `member_health` (8, 8, 12: health 28, 3 standing)."""
    if (health is None) == (member_health is None):
        raise RuleViolation(
            "give either `health` (of the foe, or of each of a squad's `members`) or `member_health` "
            "(each fighter's), not both nor neither (L23)",
            field="member_health" if member_health is not None else "health",
        )
    if member_health is not None and members not in (1, len(member_health)):
        raise RuleViolation(
            "members {members}, but member_health lists {member_health} fighters; leave members out (L23)",
            field="members", members=members, member_health=len(member_health),
        )
    table.campaign.enrol(name, Enemy.kind)
    campaign = table.campaign.campaign
    if member_health is not None:
        table.add(Squad(campaign=campaign, name=name, member_health=list(member_health)))
    else:
        assert health is not None
        table.add(Enemy(campaign=campaign, name=name, health_per_member=health, members=members))


def combat_turn(
    table: Table,
    character: str,
    enemy: str,
    tactic: str,
    *,
    gm_attack: int,
    gm_defence: int,
    attack_move: str | None = None,
    defence_move: str | None = None,
    attack_related: Sequence[str] = (),
    defence_related: Sequence[str] = (),
    use_motivation: bool = False,
    spend_tokens: int = 0,
    standing: int | None = None,
    skill: str | None = None,
) -> None:
    """One turn (§3, §6): 3d6 split by the tactic, modifiers, compared with the GM's declared totals.

    The GM's attack and defence are declared before the roll (L22; G-7), so they come in
    the command; the attack dice are rolled before the defence dice (G-6 (a)). The turn is
    fought with the main skill unless it names another of the gladiator's (L4, L7).
    """
    campaign = table.campaign
    beaten_at = campaign.option("beaten_at")
    if not campaign.is_open(Scope.BATTLE):
        raise RuleViolation("a combat turn is fought in a battle (L17, L22); start_battle first", field="type")
    gladiator = table.get(Gladiator, character)
    foe = table.get(Enemy, enemy, field="enemy")
    if gladiator.beaten:
        raise RuleViolation(
            "{character} is beaten (health {health}) until the battle ends (G-10, L24)",
            field="character", character=character, health=gladiator.health,
        )
    if foe.beaten:
        raise RuleViolation(
            "{enemy} is already beaten (health {health}) (G-10)",
            field="enemy", enemy=enemy, health=foe.health,
        )

    turn = campaign.tick(Scope.MOVE)
    modifiers = _turn_modifiers(
        campaign, gladiator, skill, {ATTACK: attack_move, DEFENCE: defence_move},
        {ATTACK: attack_related, DEFENCE: defence_related},
    )

    def one_time() -> list[Modifier]:
        """Motivation and tokens: +value to attack and to defence of this one turn (L9, L27-L28; G-4 (a))."""
        spent = []
        if use_motivation:
            spent.append(Modifier("motivation", gladiator.motivation))
        if spend_tokens:
            spent.append(Modifier(f"role-play tokens x{spend_tokens}", spend_tokens * rules.TOKEN_MODIFIER))
        return spent

    def spend_one_time() -> list[Modifier]:
        if use_motivation:
            gladiator.use_motivation(turn)
        if spend_tokens:
            gladiator.spend_tokens(spend_tokens, turn)
        return one_time()

    # G-18: added after the dice are seen (recorded as changes of the two rolls), or declared before.
    after_roll = campaign.option("one_time_modifiers") == "after_roll"
    declared = [] if after_roll else spend_one_time()
    if after_roll and table.foresight:
        spend_one_time()  # the odds refuse a spend the rules would refuse once the dice are seen

    battle = campaign.number(Scope.BATTLE)
    engaged = _record(table).foes_engaged(battle)
    plan = TurnRoll(
        tactic=tactic,
        modifiers={side: (*modifiers[side], *declared) for side in rules.SIDES},
        after_roll=tuple(one_time()) if after_roll else (),
        gm_attack=gm_attack, gm_defence=gm_defence, foe_health=foe.health, beaten_at=beaten_at,
        first_blow=_first_blow(campaign.option("first_strike"), engaged, enemy),
    )

    def roll(side: str, versus: int, outcome: Callable[[int], str]) -> tuple[str, int]:
        """One side's pool, recorded before the next is drawn (each roll takes the next nonce)."""
        draw = table.draw()
        result = plan.dice(side).roll(draw)
        table.record(
            draw, result, purpose=f"combat:{side}", character=character, outcome=outcome(result.total),
            enemy=enemy, turn=turn, tactic=tactic, side=side, versus=versus,
        )
        return draw.roll_id, result.total

    table.foresee(plan)
    attack_roll, attack = roll(ATTACK, gm_defence, lambda total: plan.outcomes(total, 0)[ATTACK])
    defence_roll, defence = roll(DEFENCE, gm_attack, lambda total: plan.outcomes(attack, total)[DEFENCE])
    if after_roll:
        for modifier in spend_one_time():
            attack, defence = attack + modifier.value, defence + modifier.value
            results = plan.outcomes(attack, defence)
            for roll_id, total, side in ((attack_roll, attack, ATTACK), (defence_roll, defence, DEFENCE)):
                campaign.modify_roll(
                    roll_id, total, results[side], f"{modifier.source} {modifier.value:+d} (L28; G-18)",
                    modifier=modifier.as_dict(),
                )

    dealt, taken = plan.losses(attack, defence)
    if enemy not in engaged:
        _record(table).engage(enemy=enemy, battle=battle)
    _strike(foe, dealt, turn, beaten_at, standing)
    if taken:
        gladiator.lose_health(amount=taken, health=gladiator.health - taken, turn=turn)
        if gladiator.health <= beaten_at:
            gladiator.fall(turn=turn)


def _record(table: Table) -> GladiatorsCampaign:
    assert isinstance(table.campaign, GladiatorsCampaign)
    return table.campaign


def _first_blow(reading: str, engaged: list[str], enemy: str) -> bool:
    """Whether this turn's blow is the players' first blow (L17 «Первый удар в любом бою наносят персонажи игроков»).

    G-9 (b'): only the battle's first turn, the one before any foe has been engaged in it;
    `per_foe`: each foe's first turn in the battle; `simultaneous` (G-9 (a)): never.
    """
    if reading == "first_turn":
        return not engaged
    return reading == "per_foe" and enemy not in engaged


def _turn_modifiers(
    campaign: Campaign, gladiator: Gladiator, skill: str | None, moves: dict[str, str | None],
    related: dict[str, Sequence[str]],
) -> dict[str, list[Modifier]]:
    """The modifiers of each side before the one-time ones (§3.1; G-13: they all add up)."""
    modifiers = {side: gladiator.skill_modifiers(skill, side) for side in rules.SIDES}
    for side in rules.SIDES:
        move = moves[side]
        if move is not None:
            modifiers[side].append(gladiator.signature_modifier(move, side, f"{side}_move"))
            campaign.use_limit(rules.SIGNATURE_MOVE_LIMITS[side], holder=gladiator.name)
    for side in rules.SIDES:
        field = f"{side}_related"
        repeated = sorted(n for n, count in Counter(related[side]).items() if count > 1)
        if repeated:
            raise RuleViolation(
                "{repeated} named twice; each modifier counts once",
                field=field, repeated=", ".join(repeated),
            )
        if skill is not None and skill in related[side]:
            raise RuleViolation(
                "{skill} is the skill this turn is fought with; its modifier counts once (G-13)",
                field=field, skill=skill,
            )
        modifiers[side] += [gladiator.related_modifier(name, field) for name in related[side]]
    return modifiers


def _strike(foe: Enemy, dealt: int, turn: int, beaten_at: int, standing: int | None) -> None:
    """The PC's damage to the foe, recorded first (G-9), and the GM's count of who still stands (L23)."""
    if dealt:
        foe.lose_health(amount=dealt, health=foe.health - dealt, turn=turn)
    if foe.health <= beaten_at:
        if standing:
            raise RuleViolation(
                "{name} is beaten by this turn (health {health}), so none of it stands (G-10)",
                field="standing", name=foe.name, health=foe.health,
            )
        foe.fall(turn=turn)
    elif standing is not None:
        foe.report_standing(standing)


def report_standing(table: Table, enemy: str, standing: int) -> None:
    table.get(Enemy, enemy, field="enemy").report_standing(standing)
    battle, record = table.campaign.number(Scope.BATTLE), _record(table)
    if enemy not in record.foes_to_restore(battle):
        record.note_standing(enemy=enemy, battle=battle)


def award_roleplay(
    table: Table, character: str, amount: int, enemy: str | None = None, reason: str | None = None
) -> None:
    """One-time +1 tokens for play in the spirit of the game (L26-L30).

    For the slaughter of a squad: +1 per fighter in it (L30). For a beautiful victory over
    a stronger single foe: a "multiplied" modifier whose size the GM enters (L30; G-5).
    """
    gladiator = table.get(Gladiator, character)
    if enemy is not None:
        foe = table.get(Enemy, enemy, field="enemy")
        if not foe.beaten:
            raise RuleViolation(
                "{enemy} is not beaten; the award is for a slaughter or a victory (L30)", field="enemy", enemy=enemy
            )
        if foe.squad and amount != foe.members:
            raise RuleViolation(
                "the slaughter of the squad {enemy} earns +1 per fighter in it, not per squad: {members}, not "
                "{amount} (L30)",
                field="amount", enemy=enemy, members=foe.members, amount=amount,
            )
        if enemy in _record(table).foes_awarded(table.campaign.number(Scope.BATTLE)):
            raise RuleViolation(
                "{enemy}'s fall in this battle has been awarded already; each such action earns its award once (L26 "
                "«За каждое такое действие», L30)",
                field="enemy", enemy=enemy,
            )
        reason = reason or (f"slaughter of the squad {enemy}" if foe.squad else f"victory over {enemy}")
    gladiator.award_tokens(amount=amount, reason=reason)


def grant_motivation(table: Table, character: str) -> None:
    """The GM grants a used motivation again (G-3 (a): no refresh of its own)."""
    gladiator = table.get(Gladiator, character)
    if not gladiator.motivation_used:
        raise RuleViolation("{character}'s motivation is unused; there is nothing to grant again (G-3)",
                            field="character", character=character)
    gladiator.restore_motivation(reason="granted again by the GM (G-3 (a))")


def end_of_battle(table: Table) -> None:
    """Between battles all lost health is restored, everyone's (L24); motivation only under G-3 (b)."""
    refresh = table.campaign.option("motivation_refresh") == "battle"
    for gladiator in table.stirred(Gladiator, "end:battle"):
        gladiator.restore_health()
        if refresh and gladiator.motivation_used:
            gladiator.restore_motivation(reason="the battle ended (G-3 (b))")
    for name in _record(table).foes_to_restore(table.campaign.number(Scope.BATTLE)):
        table.get(Enemy, name, field="enemy").restore_health()
