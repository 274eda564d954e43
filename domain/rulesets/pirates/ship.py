"""The crew's ship sheet (§9): Navigation, Firepower, Displacement, Hull, and what the crew keeps on it.

Besides the ship's stats the sheet holds what the source puts on it or near it: the crew's
secrets (L99), chances (§4.5), the plan being carried out, the crew treasury (P-26), and
the ship's development record. Decisions (what is allowed, what it costs) are in
`seamanship.py`; the methods here that are not events only refuse what the sheet itself
makes impossible.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import event

from ...errors import RuleViolation
from ...members import Member
from . import rules


class Ship(Member):
    kind = "ship"

    @event("Created")
    def __init__(
        self,
        campaign: str,
        name: str,
        navigation: int,
        firepower: int,
        displacement: int,
        hull: int,
        secrets: list[str],
        treasury_piastres: int,
        in_port: bool,
        hull_rating: int | None = None,
        bonuses: dict[str, int] | None = None,
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.navigation = navigation
        self.firepower = firepower
        self.displacement = displacement
        self.hull = hull
        #: P-17 (b): the hull repairs restore up to, when the campaign plays with a rated hull.
        self.hull_rating = hull if hull_rating is None else hull_rating
        self.breakdown: str | None = None
        self.developments: list[str] = []
        self.ship_moves: list[str] = []
        self.rigging: list[str] = []
        self.conditions: list[str] = []
        self.secrets = list(secrets)
        self.chances = 0
        self.gm_chances = 0
        self.plan: dict[str, Any] | None = None
        self.treasury_piastres = treasury_piastres
        self.in_port = in_port
        #: Counts the ship's stays at sea: the sea-repair limit counts per stay (P-21).
        self.voyage = 0 if in_port else 1
        self.must_not_go_under = False

    def stat(self, name: str) -> int:
        return int(getattr(self, name))

    # --- holes and breakdowns (§9.1) --------------------------------------------------

    def take_hole(self) -> None:
        """Hull -1; at Hull 0 the ship stays at 0 and must play Don't Go Under (L138)."""
        if self.hull == 0:
            self._sinking()
        else:
            self._holed(hull=self.hull - 1)

    @event("Holed")
    def _holed(self, hull: int) -> None:
        self.hull = hull

    @event("Sinking")
    def _sinking(self) -> None:
        self.must_not_go_under = True

    @event("DontGoUnderPlayed")
    def dont_go_under_played(self, roll: str) -> None:
        self.must_not_go_under = False

    def check_breakdown(self) -> None:
        if self.breakdown is not None:
            raise RuleViolation(
                "{name} already has a breakdown ({breakdown}); the crew must get rid of it before another (L144)",
                field="breakdown", name=self.name, breakdown=self.breakdown,
            )

    def take_breakdown(self, breakdown: str) -> None:
        self.check_breakdown()
        self._broke_down(breakdown=breakdown, stat=rules.BREAKDOWNS[breakdown])

    @event("BrokeDown")
    def _broke_down(self, breakdown: str, stat: str) -> None:
        self.breakdown = breakdown
        setattr(self, stat, getattr(self, stat) - 1)

    # --- repairs and development (§9.2, §9.3) -------------------------------------------

    @event("HullRepaired")
    def hull_repaired(self, hull: int, at: str) -> None:
        self.hull = hull

    @event("BreakdownRemoved")
    def breakdown_removed(self, breakdown: str, stat: str, value: int, hull: int, hull_rating: int) -> None:
        """The stat's -1 undone; a stat that would pass 3 stays 3 and Hull +1 (invariant 18, P-18)."""
        self.breakdown = None
        setattr(self, stat, value)
        self.hull, self.hull_rating = hull, hull_rating

    @event("ConditionMet")
    def condition_met(self, condition: str) -> None:
        self.conditions.append(condition)

    @event("Developed")
    def developed(
        self,
        option: str,
        stat: str | None,
        value: int | None,
        pick: str | None,
        hull: int,
        hull_rating: int,
        conditions_used: list[str],
        keep_conditions: bool,
    ) -> None:
        self.developments.append(option)
        if stat is not None:
            setattr(self, stat, value)
        if pick is not None:
            (self.rigging if rules.UPGRADES[option].get("pick") == "rigging" else self.ship_moves).append(pick)
        self.hull, self.hull_rating = hull, hull_rating
        if not keep_conditions:
            self.conditions = []

    @event("Fitted")
    def fitted(self, ship_moves: list[str], rigging: list[str]) -> None:
        """The additional ship moves and rigging the GM gives a ship when it comes (its type's, pp. 107-108)."""
        self.ship_moves.extend(ship_moves)
        self.rigging.extend(rigging)

    # --- port and sea ----------------------------------------------------------------------

    @event("EnteredPort")
    def entered_port(self) -> None:
        self.in_port = True

    @event("PutToSea")
    def put_to_sea(self, voyage: int) -> None:
        self.in_port = False
        self.voyage = voyage

    # --- secrets, chances, the plan (§4.4, §4.5, §10) -------------------------------------

    @event("SecretGained")
    def secret_gained(self, secret: str, struck: str | None) -> None:
        self.secrets.append(secret)
        if struck is not None:
            self.secrets.remove(struck)

    @event("SecretsRemoved")
    def secrets_removed(self, secrets: list[str], reason: str) -> None:
        for secret in secrets:
            self.secrets.remove(secret)

    @event("Schemed")
    def schemed(self, goal: str, leader: str, roll: str, chances: int, gm_chances: int, marked: int = 0) -> None:
        """Chances gathered for a plan: a new one, or the plan already being prepared (same goal).

        The plan keeps what each of its Scheme rolls gave (`schemes`), so that luck added to a
        roll after it can make the chances follow its new outcome (L45-L46).
        """
        if self.plan is None:
            self.plan = {"goal": goal, "leader": leader, "roll": roll}
        self.plan["schemes"] = {
            **self.plan.get("schemes", {}),
            roll: {"leader": leader, "marked": marked, "chances": chances, "gm_chances": gm_chances},
        }
        self.chances += chances
        self.gm_chances += gm_chances

    @event("SchemeReckoned")
    def scheme_reckoned(self, roll: str, outcome: str, chances: int, gm_chances: int) -> None:
        """A Scheme roll's outcome changed by luck after the roll: its chances are what the new outcome gives."""
        assert self.plan is not None
        gave = self.plan["schemes"][roll]
        self.chances += chances - gave["chances"]
        self.gm_chances += gm_chances - gave["gm_chances"]
        self.plan["schemes"] = {**self.plan["schemes"], roll: {**gave, "chances": chances, "gm_chances": gm_chances}}

    @event("ChanceSpent")
    def chance_spent(self, side: str, roll: str) -> None:
        if side == "crew":
            self.chances -= 1
        else:
            self.gm_chances -= 1

    @event("PlanEnded")
    def plan_ended(self, unspent_chances: int, unspent_gm_chances: int) -> None:
        """Unspent chances end with the plan they were gathered for (P-13)."""
        self.plan = None
        self.chances = 0
        self.gm_chances = 0

    # --- the crew treasury (§4.7; P-26) ------------------------------------------------------

    @event("MoneyGained")
    def receive(self, piastres: int, reason: str) -> None:
        self.treasury_piastres += piastres

    def pay(self, piastres: int, reason: str, *, field: str = "from") -> None:
        if piastres > self.treasury_piastres:
            have = rules.in_coins(self.treasury_piastres)
            raise RuleViolation(
                "{name}'s treasury holds {treasury_piastres} piastres ({chests} chests, {doubloons} doubloons, "
                "{piastres} piastres), not {wanted} ({reason}); money never goes below 0",
                field=field, name=self.name, treasury_piastres=self.treasury_piastres, chests=have["chests"],
                doubloons=have["doubloons"], piastres=have["piastres"], wanted=piastres, reason=reason,
            )
        self._money_spent(piastres=piastres, reason=reason)

    @event("MoneySpent")
    def _money_spent(self, piastres: int, reason: str) -> None:
        self.treasury_piastres -= piastres

    # --- the sheet ----------------------------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            **{stat: self.stat(stat) for stat in rules.SHIP_STATS},
            "hull": self.hull,
            "hull_rating": self.hull_rating,
            "breakdown": self.breakdown,
            "developments": list(self.developments),
            "ship_moves": list(self.ship_moves),
            "rigging": list(self.rigging),
            "conditions": list(self.conditions),
            "secrets": list(self.secrets),
            "chances": self.chances,
            "gm_chances": self.gm_chances,
            "plan": dict(self.plan) if self.plan else None,
            "treasury_piastres": self.treasury_piastres,
            "treasury": rules.in_coins(self.treasury_piastres),
            "in_port": self.in_port,
            "voyage": self.voyage,
            "must_not_go_under": self.must_not_go_under,
            # P-23: the source sets no floor; a stat below 0 is shown, and flagged.
            "below_zero": [stat for stat in rules.SHIP_STATS if self.stat(stat) < 0],
        }
