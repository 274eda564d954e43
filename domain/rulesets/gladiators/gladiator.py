"""A gladiator's sheet (§2): attributes, skills, signature moves, motivation, tokens, health.

The sheet is validated before it is created (play.create_gladiator); here each method
that decides checks what only the sheet knows, and the `@event` bodies only evolve it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.domain import event

from ...dice import Modifier
from ...errors import Count, RuleViolation, Word
from ...members import Character
from . import rules
from .rules import ATTACK, DEFENCE, DEFENSIVE, OFFENSIVE


class Gladiator(Character):
    #: Skills at the level of anyone else (L8): +0, no health (L15). A class default, set by its own event
    #: only when a gladiator lists some, so the creation of every other one is recorded as it was.
    ordinary_skills: Sequence[str] = ()

    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        player: str | None,
        attributes: dict[str, str],
        main_skill: str,
        style: str,
        signature_moves: dict[str, str],
        skills: dict[str, str],
        class_skill: dict[str, str],
        motivation: int,
        max_health: int,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.attributes = dict(attributes)
        self.main_skill = main_skill
        self.style = style
        self.signature_moves = dict(signature_moves)
        self.skills = dict(skills)
        self.class_skill = dict(class_skill)
        self.motivation = motivation
        self.max_health = max_health
        self.health = max_health
        self.beaten = False
        self.motivation_used = False
        self.roleplay_tokens = 0

    @event("OrdinarySkillsListed")
    def list_ordinary_skills(self, skills: list[str]) -> None:
        self.ordinary_skills = list(skills)

    # --- modifiers of a turn (§3.1) -----------------------------------------------------

    def related_modifier(self, name: str, field: str) -> Modifier:
        """A raised attribute (+3/+6) or an additional skill (+4/+2) the GM ruled related (G-11)."""
        if name in self.skills:
            level = self.skills[name]
            return Modifier(f"{name} ({level})", rules.SKILL_MODIFIER[level])
        if name in self.attributes:
            level = self.attributes[name]
            if rules.is_endurance(name):
                # Terms: характеристики «Хорошие», «Очень хорошо», «Великолепно» L3; выносливость даёт здоровье
                # L3.
                raise RuleViolation(
                    "{name} is Endurance: raised, it gives health instead of a roll modifier (L3; G-1)",
                    field=field, name=name,
                )
            if level == rules.GOOD:
                raise RuleViolation(
                    "{gladiator}'s {attribute} is Good: only raised attributes modify rolls (L3)",
                    field=field, gladiator=self.name, attribute=name,
                )
            return Modifier(f"{name} ({level})", rules.ATTRIBUTE_MODIFIER[level])
        raised = [a for a, level in self.attributes.items() if level != rules.GOOD]
        raise RuleViolation(
            "{name!r} is neither a raised attribute nor an additional skill of {gladiator} (raised: {raised}; "
            "skills: {skills}) (L3, L7)",
            field=field, name=name, gladiator=self.name, raised=", ".join(raised),
            skills=", ".join(self.skills) or Word("none"),
        )

    def skill_modifiers(self, skill: str | None, side: str) -> list[Modifier]:
        """What applies by itself to a side of a turn fought with `skill` (None: the main skill), and the class skill.

        The Master's +6 is for the main skill's own actions (L4), the style's +3 for moves made with it (L5;
        G-14); a turn fought with another skill (a rider's horse, L7) takes that skill's own level instead:
        Expert +4, Specialist +2 (L7), an ordinary skill +0 (L8), the class skill its +4 on its side (L10).
        """
        if skill is None or skill == self.main_skill:
            modifiers = [Modifier(f"main skill {self.main_skill}", rules.MAIN_SKILL_MODIFIER)]  # L4
            if (self.style, side) in ((OFFENSIVE, ATTACK), (DEFENSIVE, DEFENCE)):
                modifiers.append(Modifier(f"{self.style} style", rules.STYLE_MODIFIER))  # L5
        elif skill in self.skills:
            modifiers = [Modifier(f"{skill} ({self.skills[skill]})", rules.SKILL_MODIFIER[self.skills[skill]])]  # L7
        elif skill in self.ordinary_skills:
            modifiers = [Modifier(f"{skill} (ordinary)", rules.ORDINARY_SKILL_MODIFIER)]  # L8
        elif skill == self.class_skill["name"]:
            modifiers = []  # its +4 comes below, on the side the class gives it (L10)
        else:
            # Terms: основной навык, дополнительные навыки, прочие навыки, навык класса L4, L7, L8, L10.
            raise RuleViolation(
                "{skill!r} is not a skill of {name} (main skill {main_skill}; additional: {skills}; ordinary: "
                "{ordinary_skills}; class skill {class_skill}) (L4, L7, L8, L10)",
                field="skill", skill=skill, name=self.name, main_skill=self.main_skill,
                skills=", ".join(self.skills) or Word("none"),
                ordinary_skills=", ".join(self.ordinary_skills) or Word("none"), class_skill=self.class_skill["name"],
            )
        if self.class_skill["applies_to"] == side:
            modifiers.append(Modifier(f"class skill {self.class_skill['name']}", rules.CLASS_SKILL_MODIFIER))  # L10
        return modifiers

    def signature_modifier(self, move: str, side: str, field: str) -> Modifier:
        """+3 for the signature move performed on this side of the turn (L6)."""
        kind = self.signature_moves.get(move)
        if kind is None:
            # Terms: коронные приёмы, атакующие или оборонительные L6.
            raise RuleViolation(
                "{move!r} is not one of {name}'s signature moves ({signature_moves}) (L6)",
                field=field, move=move, name=self.name, signature_moves=", ".join(self.signature_moves),
            )
        if kind != side:
            raise RuleViolation(
                "{move} is {name}'s {kind} signature move, not {side} move (L6)",
                field=field, move=move, name=self.name, kind=Word(kind),
                side=Word("an attack") if side == ATTACK else Word("a defence"),
            )
        return Modifier(f"signature move {move}", rules.SIGNATURE_MOVE_MODIFIER)

    # --- one-time modifiers (§4) --------------------------------------------------------

    def use_motivation(self, turn: int) -> None:
        """Motivation is one-time (L9): once used it stays used until re-granted (G-3)."""
        if self.motivation_used:
            # Terms: мотивация — разовый модификатор L9.
            raise RuleViolation(
                "{name} has already used the motivation: it is a one-time modifier (L9; G-3)",
                field="use_motivation", name=self.name,
            )
        self._motivation_used(turn=turn, value=self.motivation)

    @event("MotivationUsed")
    def _motivation_used(self, turn: int, value: int) -> None:
        self.motivation_used = True

    @event("MotivationRestored")
    def restore_motivation(self, reason: str) -> None:
        self.motivation_used = False

    def spend_tokens(self, amount: int, turn: int) -> None:
        """Each role-play token is a one-time +1 (L27-L28); one cannot spend more than one has."""
        if amount > self.roleplay_tokens:
            # Terms: модификаторы за отыгрыш L26-L28.
            raise RuleViolation(
                "{name} has {roleplay_tokens} and cannot spend {amount} (L27-L28)",
                field="spend_tokens", name=self.name,
                roleplay_tokens=Count(self.roleplay_tokens, "{count} role-play tokens", "{count} role-play tokens"),
                amount=amount,
            )
        self._tokens_spent(amount=amount, turn=turn, left=self.roleplay_tokens - amount)

    @event("TokensSpent")
    def _tokens_spent(self, amount: int, turn: int, left: int) -> None:
        self.roleplay_tokens = left

    @event("TokensAwarded")
    def award_tokens(self, amount: int, reason: str | None) -> None:
        self.roleplay_tokens += amount

    # --- health (§5) --------------------------------------------------------------------

    @event("HealthLost")
    def lose_health(self, amount: int, health: int, turn: int) -> None:
        self.health = health

    @event("Beaten")
    def fall(self, turn: int) -> None:
        self.beaten = True

    def restore_health(self) -> None:
        """All health lost in a battle comes back between battles (L24)."""
        if self.health != self.max_health or self.beaten:
            self._health_restored(health=self.max_health)

    @event("HealthRestored")
    def _health_restored(self, health: int) -> None:
        self.health = health
        self.beaten = False

    # --- the sheet ----------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player": self.player,
            "health": self.health,
            "max_health": self.max_health,
            "beaten": self.beaten,
            "motivation": self.motivation,
            "motivation_used": self.motivation_used,
            "roleplay_tokens": self.roleplay_tokens,
            "signature_moves": dict(self.signature_moves),
            "attributes": dict(self.attributes),
            "main_skill": self.main_skill,
            "style": self.style,
            "skills": dict(self.skills),
            "ordinary_skills": list(self.ordinary_skills),
            "class_skill": dict(self.class_skill),
        }
