"""A Fate character's sheet: skills, fate points, stress track and consequences (F1, F4, F6-F8)."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from rollbook.domain.errors import RuleViolation
from rollbook.domain.members import Character

from . import rules


class Fighter(Character):
    @event("Created")
    def __init__(self, campaign: str, name: str, player: str | None, skills: dict[str, int]) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.skills = dict(skills)
        self.fate_points = rules.STARTING_FATE_POINTS
        self.stress = [False] * len(rules.STRESS_BOXES)
        self.consequences = dict.fromkeys(rules.CONSEQUENCES, False)
        self.taken_out = False

    def rating(self, skill: str) -> int:
        """F1: a skill he lacks is Mediocre."""
        return self.skills.get(skill, 0)

    def check_in_the_fight(self) -> None:
        if self.taken_out:
            raise RuleViolation(f"{self.name} is taken out of this conflict (F7)", field="character")

    def spend_fate_point(self) -> None:
        """F4: an invocation costs a fate point; with none left there is nothing to spend."""
        if self.fate_points < 1:
            raise RuleViolation(f"{self.name} has no fate point left to invoke an aspect (F4)", field="invoke")
        self._fate_point_spent()

    @event("FatePointSpent")
    def _fate_point_spent(self) -> None:
        self.fate_points -= 1

    def take_hit(self, shifts: int, consequence: str | None) -> None:
        """F6-F7: a hit checks a box, or the consequence named absorbs it; else he is taken out."""
        if consequence is not None:
            if self.consequences[consequence]:
                raise RuleViolation(f"{self.name} already has a {consequence} consequence (F7)", field="consequence")
            if rules.CONSEQUENCES[consequence] >= shifts:
                self._consequence_taken(severity=consequence, shifts=shifts)
                return
        else:
            box = rules.box_for(shifts, self.stress)
            if box is not None:
                self._stress_checked(worth=rules.STRESS_BOXES[box], shifts=shifts)
                return
        self._taken_out(shifts=shifts)

    @event("StressChecked")
    def _stress_checked(self, worth: int, shifts: int) -> None:
        self.stress[rules.STRESS_BOXES.index(worth)] = True

    @event("ConsequenceTaken")
    def _consequence_taken(self, severity: str, shifts: int) -> None:
        self.consequences[severity] = True

    @event("TakenOut")
    def _taken_out(self, shifts: int) -> None:
        self.taken_out = True

    def conflict_over(self) -> None:
        """F8: the stress track empties and he is back in play."""
        if any(self.stress) or self.taken_out:
            self._recovered_from_conflict()

    @event("RecoveredFromConflict")
    def _recovered_from_conflict(self) -> None:
        self.stress = [False] * len(rules.STRESS_BOXES)
        self.taken_out = False

    def scene_over(self) -> None:
        """F8: a mild consequence clears when its scene ends."""
        if self.consequences["mild"]:
            self._consequence_cleared(severity="mild")

    @event("ConsequenceCleared")
    def _consequence_cleared(self, severity: str) -> None:
        self.consequences[severity] = False

    def sheet(self) -> dict[str, Any]:
        return {"name": self.name, "player": self.player, "skills": dict(self.skills), "fate_points": self.fate_points,
                "stress": list(self.stress), "consequences": dict(self.consequences), "taken_out": self.taken_out}
