"""The GM's side of a fight: a single foe, or a squad fought as one opponent (§5, L23), its fighters alike or not."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...errors import RuleViolation
from ...members import Member


class Enemy(Member):
    """A squad's health is the sum of its members' (L23); the GM reports how many still stand."""

    kind = "enemy"

    @event("Created")
    def __init__(self, campaign: str, name: str, health_per_member: int, members: int) -> None:
        self.campaign = campaign
        self.name = name
        self.members = members
        self.max_health = health_per_member * members
        self.health = self.max_health
        self.standing = members
        self.beaten = False

    @property
    def squad(self) -> bool:
        return self.members > 1

    @event("Engaged")
    def engage(self, battle: int) -> None:
        """How a foe's first turn in a battle was recorded before the campaign kept the foes of each
        battle (issue 14); kept so that those histories still load. No command emits it now."""

    @event("HealthLost")
    def lose_health(self, amount: int, health: int, turn: int) -> None:
        self.health = health

    @property
    def member_health(self) -> list[int]:
        """Each fighter's health: alike, the squad's shared out (L23)."""
        return [self.max_health // self.members] * self.members

    def report_standing(self, standing: int, field: str = "standing") -> None:
        """The GM's count of the squad's fighters still on their feet (L23; G-12)."""
        if not self.squad:
            # Terms: отряд, единицы здоровья, бойцы (gladiators L23).
            raise RuleViolation(
                "{name} is a single foe; only a squad's standing count is reported (L23)", field=field, name=self.name
            )
        if self.beaten:
            raise RuleViolation("{name} is beaten; no one of the squad stands (G-10)", field=field, name=self.name)
        if standing > self.standing:
            raise RuleViolation(
                "{name} has {standing} standing; the count never increases during a battle (§10 invariant 11, Note)",
                field=field, name=self.name, standing=self.standing,
            )
        if standing < 1:
            raise RuleViolation(
                "{name} has {health} health left, so at least one of it still stands (L23; a squad falls at health "
                "<= its threshold, G-10)",
                field=field, name=self.name, health=self.health,
            )
        self.check_fighters(standing, field)
        if standing != self.standing:
            self._standing_reported(standing=standing)

    def check_fighters(self, standing: int, field: str) -> None:
        """Fighters alike: any count the GM reports within the limits above (G-12)."""

    @event("StandingReported")
    def _standing_reported(self, standing: int) -> None:
        self.standing = standing

    @event("Beaten")
    def fall(self, turn: int) -> None:
        self.beaten = True
        self.standing = 0

    def restore_health(self) -> None:
        """All health lost in a battle comes back between battles, a foe's too (L24): a squad stands whole again."""
        if self.health != self.max_health or self.standing != self.members or self.beaten:
            self._health_restored(health=self.max_health, standing=self.members)

    @event("HealthRestored")
    def _health_restored(self, health: int, standing: int) -> None:
        self.health = health
        self.standing = standing
        self.beaten = False

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "health": self.health,
            "standing": self.standing,
            "beaten": self.beaten,
            "max_health": self.max_health,
            "members": self.members,
            "member_health": self.member_health,
            "squad": self.squad,
        }


class Squad(Enemy):
    """A squad of fighters whose health differs (L23: its health is the sum of its members' health).

    The GM still reports how many stand (G-12), but the count must follow the fighters who can have
    fallen: those down have lost their whole health, and the health left is held by those standing.
    A squad of fighters alike stays an `Enemy`, recorded as before.
    """

    class Created(Member.Created):
        """Its own, not the alike squad's (`health_per_member`, `members`): each fighter's health."""

        campaign: str
        name: str
        member_health: list[int]

    @event(Created)
    def __init__(self, campaign: str, name: str, member_health: list[int]) -> None:  # type: ignore[override]
        self.campaign = campaign
        self.name = name
        self.members = len(member_health)
        self.fighters = list(member_health)
        self.max_health = sum(member_health)
        self.health = self.max_health
        self.standing = self.members
        self.beaten = False

    @property
    def member_health(self) -> list[int]:
        return list(self.fighters)

    def check_fighters(self, standing: int, field: str) -> None:
        """Those down have lost their whole health, and those standing hold what is left (L23)."""
        fallen, lost = self.members - standing, self.max_health - self.health
        fighters = ", ".join(map(str, self.fighters))
        weakest = sum(sorted(self.fighters)[:fallen])
        if weakest > lost:
            raise RuleViolation(
                "{name} has lost {lost} health: {fallen} of its fighters ({fighters}) cannot be down, which takes at "
                "least {weakest} (L23)",
                field=field, name=self.name, lost=lost, fallen=fallen, fighters=fighters, weakest=weakest,
            )
        strongest = sum(sorted(self.fighters, reverse=True)[:standing])
        if self.health > strongest:
            raise RuleViolation(
                "{name} has {health} health left, more than {standing} of its fighters ({fighters}) hold: at most "
                "{strongest} (L23)",
                field=field, name=self.name, health=self.health, standing=standing, fighters=fighters,
                strongest=strongest,
            )
