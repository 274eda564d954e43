"""The crew's ship sheet (§9): Navigation, Firepower, Displacement, Hull, and what the crew keeps on it."""

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
    ) -> None:
        self.campaign = campaign
        self.name = name
        self.navigation = navigation
        self.firepower = firepower
        self.displacement = displacement
        self.hull = hull
        self.breakdown: str | None = None
        self.developments: list[str] = []
        self.conditions: list[str] = []
        self.secrets = list(secrets)
        self.chances = 0
        self.gm_chances = 0
        self.treasury_piastres = treasury_piastres
        self.in_port = in_port
        self.must_not_go_under = False

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

    def take_breakdown(self, breakdown: str) -> None:
        if self.breakdown is not None:
            raise RuleViolation(
                f"{self.name} already has a breakdown ({self.breakdown}); the crew must get rid "
                "of it before another (L144)",
                field="breakdown",
            )
        self._broke_down(breakdown=breakdown, stat=BREAKDOWNS[breakdown])

    @event("BrokeDown")
    def _broke_down(self, breakdown: str, stat: str) -> None:
        self.breakdown = breakdown
        setattr(self, stat, getattr(self, stat) - 1)

    def sheet(self) -> dict[str, Any]:
        return {
            "name": self.name,
            **{stat: getattr(self, stat) for stat in rules.SHIP_STATS},
            "hull": self.hull,
            "breakdown": self.breakdown,
            "developments": list(self.developments),
            "conditions": list(self.conditions),
            "secrets": list(self.secrets),
            "chances": self.chances,
            "gm_chances": self.gm_chances,
            "treasury_piastres": self.treasury_piastres,
            "in_port": self.in_port,
            "must_not_go_under": self.must_not_go_under,
        }


#: Each breakdown lowers one stat by 1 (L141-L143).
BREAKDOWNS = {"torn_sails": "navigation", "wrecked_deck": "displacement", "wet_powder": "firepower"}
