"""Luck after a Scheme roll finds its plan on the one ship whose plan holds the roll (the roster index,
issue 22), not on every ship ever created: L45-L46 (luck after the check, «Принять решение можно после
проверки»), L194 (the plan's chances follow the result). The campaign keeps, for each Scheme roll still
its leader's open move, the ship its command wrote; an older snapshot, which kept none, looks at them all."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.domain.campaign import Campaign
from rollbook.testing import pirates
from tests.loads import counted_loads

from .pirates_crew import luck, step

FLEET = ("Chaika", "Volna", "Burya", "Shtorm")


@pytest.fixture
def loads(campaign: Any) -> list[str]:
    """The ships a command loads from the store (those not already at its table)."""
    return counted_loads(campaign, "pirates", FLEET, kind="ship")


def fleet(campaign: Any) -> Any:
    """§18's Anna (player anna) and Bo (player bo), and four ships with a secret each."""
    return campaign.given(
        pirates.created("Anna", player="anna", luck=2, audacity=2, guile=1, foresight=1, reputation=-1),
        pirates.created("Bo", player="bo", luck=2, audacity=1, guile=1),
        *(pirates.ship(name, secrets=["Y1"]) for name in FLEET),
    )


def chances(campaign: Any, ship: str) -> tuple[int, int]:
    sheet = campaign.sheet(ship)
    return sheet["chances"], sheet["gm_chances"]


def test_luck_on_a_scheme_roll_loads_only_the_ship_of_its_plan(campaign: Any, loads: list[str]) -> None:
    fleet(campaign)
    campaign.given(step("scheme", id="s", ship="Burya", leader="Anna", goal="g", secrets=["Y1"],
                        council=["Bo"], dice=[4, 3]))  # 4 + 3 + 1 (Foresight) + 1 (Bo) = 9: 1 chance
    assert chances(campaign, "Burya") == (1, 0)
    loads.clear()
    campaign.when(luck("Anna", "roll_bonus", "s", actor="player:anna"))  # 10: 1 + 2 (L194)
    assert campaign.error is None, campaign.error
    assert loads == ["Burya"]
    assert chances(campaign, "Burya") == (3, 0)


def test_a_player_helps_another_players_scheme_with_the_campaigns_own_dice(campaign: Any, loads: list[str]) -> None:
    """Bo's player spends Bo's luck on Anna's Scheme roll (L45: help a crewmate); the dice are the
    campaign's seeded ones: whatever the roll, the chances follow its new outcome on Volna alone."""
    fleet(campaign)
    campaign.given(step("scheme", id="s", ship="Volna", leader="Anna", goal="g", secrets=["Y1"]))
    total = campaign.rolls()[-1]["total"]
    loads.clear()
    campaign.when(luck("Bo", "help", "s", actor="player:bo"))
    assert campaign.error is None, campaign.error
    assert loads == ["Volna"]
    after = total + 1
    expected = (3, 0) if after >= 10 else (1, 0) if after >= 7 else (0, 1)  # one marked secret (L194)
    assert chances(campaign, "Volna") == expected


def test_a_campaign_restored_from_an_older_snapshot_looks_at_every_ship_and_agrees(campaign: Any) -> None:
    fleet(campaign.of("pirates"))
    campaign.given(step("scheme", id="s", ship="Burya", leader="Anna", goal="g", secrets=["Y1"], dice=[4, 3]))
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    assert folded["scheme_ships"] == {"s": "Burya"}
    kept = {k: v for k, v in folded.items() if k != "scheme_ships"}  # version 3 kept none
    assert type(aggregate).snapshot_agrees(kept, folded)
    assert not type(aggregate).snapshot_agrees({**folded, "scheme_ships": {"s": "Volna"}}, folded)
    assert not Campaign.snapshot_agrees(kept, folded)  # the ruleset's own part is the pirates' to compare
