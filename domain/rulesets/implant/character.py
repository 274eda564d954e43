"""A character of «Имплант»: traits, derived values, bennies, statuses and wounds (§2, §5).

Every character is one of these: the player's hero, the GM's important NPCs (wild cards with
MaxWounds ≥ 2) and ordinary NPCs (extras: no wild die, out at the first wound, L112).
The decisions live in play.py / combat.py / healing.py; the event bodies here only evolve
the state. Wound events carry the resulting state (wounds, Dying, out), so a soak or a
damage reroll restates it from what the attack found (§5.2) instead of undoing steps.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...members import Character as RosterCharacter
from . import rules
from .rules import die_text


class Character(RosterCharacter):
    kind = "character"

    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        player: str | None,
        wild_card: bool,
        attributes: dict[str, int],
        skills: dict[str, int],
        armour: int,
        max_wounds: int,
        weapons: dict[str, dict[str, Any]],
        toughness_reading: str,
        wound_penalty_per_wound: int,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.player = player
        self.wild_card = wild_card
        self.attributes = dict(attributes)
        self.skills = dict(skills)
        self.armour = armour
        self.max_wounds = max_wounds
        self.weapons = {n: dict(w) for n, w in weapons.items()}
        #: The campaign's readings of I-1 and I-4, fixed when the campaign was created.
        self.toughness_reading = toughness_reading
        self.wound_penalty_per_wound = wound_penalty_per_wound
        self.bennies = 0
        self.energy_cells = rules.STARTING_ENERGY_CELLS
        self.wounds = 0
        self.shaken = False
        self.dying = False
        self.out = False
        self.unconscious_hours: int | None = None
        self.vulnerable = False
        self.distracted_turns = 0
        self.aim_round: int | None = None
        self.turn_round: int | None = None
        self.action: dict[str, Any] | None = None
        self.disarmed: list[str] = []
        self.treated_day: int | None = None
        self.last_check: dict[str, Any] | None = None

    # --- what the rules read ------------------------------------------------------------

    @property
    def parry(self) -> int:
        return rules.parry(self.skills.get("fighting"))

    @property
    def toughness(self) -> int:
        return rules.toughness(self.attributes["vigor"], self.armour, self.toughness_reading)

    @property
    def wound_penalty(self) -> int:
        return rules.wound_penalty(self.wounds, self.wound_penalty_per_wound)

    @property
    def distracted(self) -> bool:
        return self.distracted_turns > 0

    @property
    def conscious(self) -> bool:
        """Out, Dying (L113) and knocked out by a nonlethal attack (L93) all mean unconscious."""
        return not (self.out or self.dying or self.unconscious_hours is not None)

    @property
    def own_bennies(self) -> bool:
        """The player's character holds bennies; the GM's characters draw on the GM's (I-25)."""
        return self.player is not None

    def wound_state(self) -> dict[str, Any]:
        return {
            "wounds": self.wounds, "shaken": self.shaken, "dying": self.dying,
            "out": self.out, "unconscious_hours": self.unconscious_hours,
        }

    # --- bennies and energy (L63-L69) ---------------------------------------------------

    @event("BenniesRenewed")
    def renew_bennies(self, bennies: int) -> None:
        self.bennies = bennies

    @event("BennyAwarded")
    def award_benny(self, count: int) -> None:
        self.bennies += count

    @event("BennySpent")
    def spend_benny(self, purpose: str) -> None:
        self.bennies -= 1

    @event("EnergyCellsRestored")
    def restore_energy(self, cells: int) -> None:
        self.energy_cells += cells

    @event("StoryInfluenced")
    def influence_story(self, note: str) -> None:
        pass

    # --- checks --------------------------------------------------------------------------

    @event("CheckMade")
    def check_made(self, check: dict[str, Any]) -> None:
        """The character's latest check, the one a benny may reroll (L64)."""
        self.last_check = dict(check)

    @event("CheckRerolled")
    def check_rerolled(self, check: dict[str, Any], kept: str) -> None:
        self.last_check = dict(check)

    # --- rounds (L72-L96) ---------------------------------------------------------------

    @event("TurnStarted")
    def turn_started(self, round: int, vulnerable_ended: bool, distracted_turns: int) -> None:
        self.turn_round = round
        self.vulnerable = self.vulnerable and not vulnerable_ended
        self.distracted_turns = distracted_turns

    @event("ActionTaken")
    def action_taken(self, round: int, action: str, attacks: int, weapon: str | None) -> None:
        self.action = {"round": round, "action": action, "attacks": attacks, "weapon": weapon}

    @event("Aimed")
    def aimed(self, round: int) -> None:
        self.aim_round = round

    @event("BecameVulnerable")
    def became_vulnerable(self) -> None:
        self.vulnerable = True

    @event("BecameDistracted")
    def became_distracted(self, turns: int) -> None:
        self.distracted_turns = turns

    @event("CombatStatusesEnded")
    def combat_statuses_ended(self) -> None:
        """Vulnerable, Distracted, aim and the round's action do not outlive the combat."""
        self.vulnerable = False
        self.distracted_turns = 0
        self.aim_round = None
        self.turn_round = None
        self.action = None

    @event("Disarmed")
    def disarm(self, weapon: str) -> None:
        self.disarmed.append(weapon)

    @event("Rearmed")
    def rearm(self, weapon: str) -> None:
        self.disarmed.remove(weapon)

    # --- Shaken, wounds, Dying (L104-L118) ----------------------------------------------

    @event("Unshaken")
    def unshaken(self, by: str, roll: str | None) -> None:
        self.shaken = False

    @event("CameTo")
    def came_to(self, by: str, roll: str | None) -> None:
        """Dying ends: a passed Vigor check on his turn (L113; I-14)."""
        self.dying = False

    @event("Damaged")
    def damaged(
        self, roll: str | None, damage: int, toughness: int, raises: int, new_wounds: int,
        wounds: int, shaken: bool, dying: bool, out: bool, unconscious_hours: int | None,
        replaces: str | None,
    ) -> None:
        self._set_wound_state(wounds, shaken, dying, out, unconscious_hours)

    @event("Soaked")
    def soaked(
        self, roll: str, damage: str | None, removed: int, wounds: int, dying: bool, out: bool,
        unconscious_hours: int | None,
    ) -> None:
        self._set_wound_state(wounds, self.shaken, dying, out, unconscious_hours)

    @event("Treated")
    def treated(
        self, roll: str, healer: str, change: int, wounds: int, dying: bool, out: bool,
        day: int, minutes: int,
    ) -> None:
        """A Healing attempt (L117): success −1 wound and Dying, each raise −1 more; crit +1."""
        self._set_wound_state(wounds, self.shaken, dying, out, self.unconscious_hours)
        self.treated_day = day

    @event("NaturallyHealed")
    def naturally_healed(self, roll: str, day: int, change: int, wounds: int, dying: bool, out: bool) -> None:
        self._set_wound_state(wounds, self.shaken, dying, out, self.unconscious_hours)

    @event("TimePassed")
    def time_passed(self, unconscious_hours: int | None) -> None:
        self.unconscious_hours = unconscious_hours

    def _set_wound_state(
        self, wounds: int, shaken: bool, dying: bool, out: bool, unconscious_hours: int | None
    ) -> None:
        self.wounds, self.shaken, self.dying = wounds, shaken, dying
        self.out, self.unconscious_hours = out, unconscious_hours

    # --- the sheet ----------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "player": self.player,
            "wild_card": self.wild_card,
            "attributes": {a: die_text(self.attributes[a]) for a in rules.ATTRIBUTES},
            "skills": {s: die_text(self.skills[s]) for s in rules.SKILLS if s in self.skills},
            "parry": self.parry,
            "toughness": self.toughness,
            "armour": self.armour,
            "wounds": self.wounds,
            "max_wounds": self.max_wounds,
            "wound_penalty": self.wound_penalty,
            "shaken": self.shaken,
            "dying": self.dying,
            "out": self.out,
            "unconscious_hours": self.unconscious_hours,
            "vulnerable": self.vulnerable,
            "distracted": self.distracted,
            "aiming": self.aim_round is not None,
            "bennies": self.bennies,
            "benny_pool": "own" if self.own_bennies else "gm",
            "energy_cells": self.energy_cells,
            "weapons": {
                n: {k: v for k, v in w.items() if k != "dice"} for n, w in self.weapons.items()
            },
            "disarmed": list(self.disarmed),
        }
