"""The odds of a combat turn before it is rolled: each tactic's damage against the GM's declared totals (L17-L22)."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rollbook.domain.errors import CommandRejected
from rollbook.domain.rulesets.gladiators.rules import TACTICS
from rollbook.testing.odds import ROLLS, agrees, rolled_many

from .gladiator_builders import START, enemy, gladiator, turn

F = Fraction


def asked(**fields) -> dict:
    command = turn([], **fields)
    del command["dice"]
    return command


def bonus(odds: dict, side: str) -> int:
    return sum(m["value"] for m in odds["modifiers"][side])


def test_strong_attack_against_the_declared_totals(campaign) -> None:
    """Marcus, 2 attack dice and 1 defence die, against the GM's 10 and 10, the Barbarians at health 8."""
    campaign.of("gladiators").given(gladiator(), enemy(), START)
    odds = campaign.odds(asked(tactic="strong_attack"))
    attack_bonus, defence_bonus = bonus(odds, "attack"), bonus(odds, "defence")
    hit = breached = F(0)
    for a1, a2, d in product(range(1, 7), repeat=3):  # brute force: 216 equally likely faces
        dealt = max(0, a1 + a2 + attack_bonus - 10)
        taken = 0 if 8 - dealt <= 0 else max(0, 10 - (d + defence_bonus))  # the PC's blow first (G-9)
        hit, breached = hit + F(int(dealt > 0), 216), breached + F(int(taken > 0), 216)
    assert F(odds["fractions"]["hit"]) == hit and F(odds["fractions"]["breached"]) == breached
    assert F(odds["fractions"]["hit"]) + F(odds["fractions"]["blocked"]) == 1
    assert set(odds["tactics"]) == set(TACTICS)
    assert odds["tactic"] == "strong_attack"
    best = max(TACTICS, key=lambda t: F(odds["tactics"][t]["expected_net_fraction"]))
    assert odds["best_tactic"] == best


def test_total_defence_rolls_no_attack_dice(campaign) -> None:
    campaign.of("gladiators").given(gladiator(), enemy(), START)
    odds = campaign.odds(asked(tactic="total_defence", gm_defence=30))
    assert odds["fractions"]["hit"] == "0/1"
    assert odds["tactics"]["total_defence"]["dealt"] == {"0": 1.0}


def test_motivation_spent_after_the_roll_adds_to_both_totals(campaign) -> None:
    campaign.of("gladiators").given(gladiator(), enemy(), START)
    plain = campaign.odds(asked())
    motivated = campaign.odds(asked(use_motivation=True))
    assert bonus(motivated, "attack") == bonus(plain, "attack") + 4
    assert motivated["tactics"]["strong_attack"]["expected_dealt"] > plain["tactics"]["strong_attack"]["expected_dealt"]


def test_motivation_already_used_is_refused_though_it_is_spent_after_the_dice(campaign) -> None:
    campaign.of("gladiators").given(gladiator(), enemy(health=100), START, turn([3, 3, 3], use_motivation=True))
    with pytest.raises(CommandRejected, match="already used the motivation"):
        campaign.odds(asked(use_motivation=True))


def test_a_player_asking_for_another_players_gladiator_is_refused(campaign) -> None:
    campaign.of("gladiators").given(gladiator(player="marcus"), enemy(), START)
    with pytest.raises(CommandRejected, match="player:lucius cannot act for 'Marcus'"):
        campaign.odds({**asked(), "actor": "player:lucius"})


def test_a_turn_outside_a_battle_is_refused(campaign) -> None:
    campaign.of("gladiators").given(gladiator(), enemy())
    with pytest.raises(CommandRejected, match="start_battle first"):
        campaign.odds(asked())


def test_the_rolled_turns_follow_the_odds(memory_campaign) -> None:
    """The real turn, rolled 600 times with the campaign's seeded dice: the damage dealt as the odds say."""
    memory_campaign.of("gladiators").given(gladiator(), enemy(health=10_000), START)
    odds, rolls = rolled_many(memory_campaign, asked(tactic="strong_attack", gm_attack=0, gm_defence=14))
    dealt = [max(0, r["total"] - 14) for r in rolls if r["purpose"] == "combat:attack"]
    assert len(dealt) == ROLLS
    assert agrees(dealt, {int(k): p for k, p in odds["distribution"]["dealt"].items()})
