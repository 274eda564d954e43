"""The odds of a check and of a damage roll before they are rolled (L9-L19, L99-L107)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rollbook.domain.errors import CommandRejected
from rollbook.testing.odds import ROLLS, agrees, rolled_many

from .implant_builders import act, attack, boss, fight, ganger, hero, turn

F = Fraction


def check(character: str = "Vera", trait: str = "hacking", **fields: Any) -> dict[str, Any]:
    return {"type": "trait_check", "character": character, "trait": trait, **fields}


def fractions(odds: dict[str, Any]) -> dict[str, Fraction]:
    return {name: Fraction(text) for name, text in odds["fractions"].items()}


def test_a_d6_with_the_wild_die_against_tn_4_is_3_in_4_and_a_critical_failure_1_in_36(campaign: Any) -> None:
    """L14-L17: the better of two acing d6 reaches 4 unless both show 1-3; both natural 1s: critical."""
    campaign.of("implant").given(hero())
    odds = campaign.odds(check(tn=4))
    assert fractions(odds) == {"success": F(3, 4), "failure": F(1, 4) - F(1, 36), "critical_failure": F(1, 36)}
    # No raise (source reading, I-2: result // 4 − 1 = 0) for a best die of 4..7: P(max ≤ 7) − P(max ≤ 3).
    assert odds["distribution"]["raises"]["0"] == pytest.approx(float(F(31, 36) ** 2 - F(1, 2) ** 2))
    assert sum(odds["distribution"]["raises"].values()) == pytest.approx(0.75)
    assert odds["explode_depth"] >= 8 and odds["beyond_depth"] < 1e-6


def test_an_extra_rolls_no_wild_die_and_never_fails_critically(campaign: Any) -> None:
    campaign.of("implant").given(ganger("A"))
    odds = campaign.odds(check("A", "fighting", tn=4))
    assert fractions(odds) == {"success": F(1, 2), "failure": F(1, 2), "critical_failure": F(0)}


def test_an_untrained_skill_with_a_wound_is_d4_minus_3(campaign: Any) -> None:
    campaign.of("implant").given(hero(), {"type": "take_damage", "character": "Vera", "damage": 8})
    odds = campaign.odds(check(trait="taunt", tn=4))
    assert sorted(m["source"] for m in odds["modifiers"]) == ["untrained", "wounds"]
    assert sum(m["value"] for m in odds["modifiers"]) == -3
    # A best die of 7+: the d4 aces and then shows 3+ (1/4 · 1/2), or the wild d6 aces (1/6).
    assert fractions(odds)["success"] == 1 - (1 - F(1, 8)) * (1 - F(1, 6))


@pytest.mark.parametrize(("reading", "one_raise"), [("standard", range(9, 13)), ("source", range(10, 15))])
def test_raises_follow_the_campaigns_reading(campaign: Any, reading: str, one_raise: range) -> None:
    """I-2 against TN 5: standard (result − 5) // 4 gives one raise at 9-12; the source's result // 5 − 1 at 10-14."""
    campaign.of("implant", raises=reading).given(hero())
    odds = campaign.odds(check(tn=5))
    assert (odds["tn"], odds["reading"]) == (5, reading)
    results = odds["distribution"]["result"]
    assert odds["distribution"]["raises"]["1"] == pytest.approx(sum(results.get(str(r), 0.0) for r in one_raise))


def test_damage_against_toughness_after_a_hit(campaign: Any) -> None:
    """A pistol's 2d6 (acing) against a ganger's Toughness 5: below 5 no effect, 5-9 Shaken, 10+ a wound (I-2)."""
    campaign.of("implant").given(hero(), ganger("A"), *fight("A"))
    act(campaign, turn("Vera"))
    act(campaign, attack("Vera", "A", "ranged", [3, 4]))  # the wild 4 against 4: a hit, no raise
    odds = campaign.odds({"type": "roll_damage"})
    assert odds["toughness"] == 5
    # Under 10: two plain dice but 5+5 (24 of 36), or an ace of 6+1, 6+2 with a 1-2 beside it (1/36 in all).
    assert fractions(odds) == {"no_effect": F(6, 36), "shaken": F(25, 36) - F(6, 36), "wounded": F(11, 36)}
    assert sum(odds["distribution"]["wounds"].values()) == pytest.approx(30 / 36)


def test_an_attack_out_of_turn_is_refused_not_computed(campaign: Any) -> None:
    campaign.of("implant").given(hero(), ganger("A"), *fight("A"))
    with pytest.raises(CommandRejected, match="Vera's round 1 has not started"):
        campaign.odds({"type": "attack", "attacker": "Vera", "target": "A", "kind": "ranged"})


def test_a_player_asking_for_another_players_character_is_refused(campaign: Any) -> None:
    campaign.of("implant").given(hero())
    with pytest.raises(CommandRejected, match="player:bob cannot act for 'Vera'"):
        campaign.odds(check(actor="player:bob"))


def test_the_rolled_checks_follow_the_odds(memory_campaign: Any) -> None:
    """The real check, rolled 600 times with the campaign's seeded dice: outcomes and raises as the odds say."""
    memory_campaign.of("implant").given(hero())
    odds, rolls = rolled_many(memory_campaign, check(tn=4))
    expected = {"critical_failure": odds["fractions"]["critical_failure"], "failure": odds["fractions"]["failure"],
                **{f"raises {n}": p for n, p in odds["distribution"]["raises"].items()}}
    seen = [
        "critical_failure" if r["critical_failure"] else f"raises {r['raises']}" if r["success"] else "failure"
        for r in rolls
    ]
    assert len(seen) == ROLLS
    assert agrees(seen, expected)


def test_the_rolled_damage_follows_the_odds(memory_campaign: Any) -> None:
    """The real damage roll, 400 hits with the campaign's seeded dice: the totals as the odds say (2d6, acing)."""
    memory_campaign.of("implant").given(hero(), boss("Kessler", armour=50), *fight("Kessler"))
    odds = None
    for number in range(400):
        if number:
            memory_campaign.given({"type": "next_round"})
        memory_campaign.given(turn("Vera"), attack("Vera", "Kessler", "ranged", [3, 4]))  # a hit, no raise
        odds = odds or memory_campaign.odds({"type": "roll_damage"})
        memory_campaign.given({"type": "roll_damage"})
    totals = [r["total"] for r in memory_campaign.rolls() if r["purpose"] == "damage"]
    assert len(totals) == 400 and odds is not None
    assert odds["outcomes"]["no_effect"] > 0.9999  # Toughness beyond any likely total: he stays in the fight
    assert agrees(totals, {int(d): p for d, p in odds["distribution"]["damage"].items()})
