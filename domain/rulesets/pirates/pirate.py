"""A pirate's sheet: stats, luck (фарт), three wound slots, the open move (§2, §4, §5)."""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...dice import Modifier
from ...errors import RuleViolation
from ...members import Character
from . import rules
from .rules import LIGHT, SERIOUS, TERRIBLE


class Pirate(Character):
    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        player: str | None,
        stats: dict[str, int],
        luck: int,
        background: str | None,
        position: str | None,
        purse_piastres: int,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.stats = dict(stats)
        self.luck = luck
        self.background = background
        self.position = position
        self.purse_piastres = purse_piastres
        self.slots: list[str | None] = [None] * rules.WOUND_SLOTS
        self.treated: list[bool] = [False] * rules.WOUND_SLOTS
        self.pending_light = 0
        self.move: dict[str, Any] | None = None
        self.fate_struck: list[str] = []
        self.fate_pending: str | None = None
        self.out_of_scene = False

    # --- luck ---------------------------------------------------------------------

    def spend_luck(self, amount: int, purpose: str) -> None:
        """An optional spend: refused when the pirate does not have the luck (§4.1)."""
        if amount > self.luck:
            raise RuleViolation(
                f"{self.name} has {self.luck} luck and cannot spend {amount} ({purpose}); "
                "luck never goes below 0 (L43)",
                field="character",
            )
        self._luck_spent(amount=amount, purpose=purpose)

    @event("LuckSpent")
    def _luck_spent(self, amount: int, purpose: str) -> None:
        self.luck -= amount

    @event("LuckGained")
    def gain_luck(self, amount: int, reason: str) -> None:
        self.luck += amount

    # --- the check ----------------------------------------------------------------

    def wound_modifiers(self) -> list[Modifier]:
        """The wound modifier on the next rolled move (§2; P-3, P-4)."""
        modifiers = []
        if self.pending_light:
            modifiers.append(Modifier("light wounds", -self.pending_light))
        if SERIOUS in self.slots:
            modifiers.append(Modifier("serious wound", rules.SERIOUS_PENALTY))
        if TERRIBLE in self.slots:
            modifiers.append(Modifier("terrible wound", rules.TERRIBLE_PENALTY))
        return modifiers

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.wound_modifiers())

    @event("MoveRolled")
    def move_rolled(self, roll: str, move: str | None, stat: str, total: int, outcome: str) -> None:
        """A rolled move consumes every pending light-wound -1 (invariant 7)."""
        self.move = {"roll": roll, "move": move, "stat": stat, "total": total, "outcome": outcome}
        self.pending_light = 0

    @event("MoveModified")
    def move_modified(self, roll: str, total: int, outcome: str, reason: str) -> None:
        assert self.move is not None and self.move["roll"] == roll
        self.move = {**self.move, "total": total, "outcome": outcome}

    # --- harm and wounds (§5) -------------------------------------------------------

    def wound_for_harm(self, level: str = LIGHT) -> tuple[str, int, str] | None:
        """Where one point of harm goes: (change, slot, level), or None when no wound can be recorded.

        The transition table of §5 under ruling P-2 (a): an empty slot takes the wound;
        all three light -> one becomes serious; all three serious -> one becomes terrible;
        any other full combination cannot take a wound.
        """
        if None in self.slots:
            return "filled", self.slots.index(None), level
        if all(s == LIGHT for s in self.slots):
            return "upgraded", 0, SERIOUS
        if all(s == SERIOUS for s in self.slots):
            return "upgraded", 0, TERRIBLE
        return None

    @event("Wounded")
    def wounded(self, slot: int, level: str, change: str) -> None:
        self.slots[slot] = level
        self.treated[slot] = False
        if change == "filled" and level == LIGHT:
            self.pending_light += 1

    @event("WoundTreated")
    def wound_treated(self, slot: int, level: str, healed: bool) -> None:
        if healed:
            self.slots[slot] = None
            self.treated[slot] = False
        else:
            self.treated[slot] = True

    def heal_light_wounds(self) -> None:
        count = self.slots.count(LIGHT)
        if count:
            self._light_wounds_healed(count=count)

    @event("LightWoundsHealed")
    def _light_wounds_healed(self, count: int) -> None:
        """Chapter end: every light wound heals by itself (L64)."""
        self.slots = [None if s == LIGHT else s for s in self.slots]
        self.treated = [t and s is not None for s, t in zip(self.slots, self.treated, strict=True)]

    @property
    def has_untreated_terrible_wound(self) -> bool:
        return any(s == TERRIBLE and not t for s, t in zip(self.slots, self.treated, strict=True))

    # --- meeting fate (§6) -----------------------------------------------------------

    @event("FateCalled")
    def fate_called(self, reason: str) -> None:
        """The pirate must meet fate (L75): a mandatory loss he cannot pay, or a wound left untreated."""
        self.fate_pending = reason

    # --- the sheet ----------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player": self.player,
            "stats": dict(self.stats),
            "luck": self.luck,
            "wounds": {level: self.slots.count(level) for level in rules.WOUND_LEVELS},
            "slots": list(self.slots),
            "treated": [s for s, t in zip(self.slots, self.treated, strict=True) if t],
            "pending_light": self.pending_light,
            "modifier": self.modifier,
            "fate_struck": list(self.fate_struck),
            "fate_pending": self.fate_pending,
            "out_of_scene": self.out_of_scene,
            "purse_piastres": self.purse_piastres,
            "background": self.background,
            "position": self.position,
            "move": dict(self.move) if self.move else None,
        }
