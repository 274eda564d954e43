"""Combat (§6): rounds, main actions, every attack option, withdrawal, aim, taunt, disarm."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.testing import events

from .implant_builders import act, attack, boss, damage, fight, ganger, hero, last_roll, turn

SMG = {"smg": {"kind": "ranged", "damage": "2d6", "rate_of_fire": 3}}


@pytest.fixture
def alley(campaign: Any) -> Any:
    """Vera against the gangers A and B and Kessler, round 1 running."""
    return campaign.of("implant").given(
        hero(weapons=SMG), ganger("A"), ganger("B"), boss("Kessler"), *fight("A", "B", "Kessler"),
    )


def modifiers(roll: dict[str, Any]) -> list[tuple[str, int]]:
    return [(m["source"], m["value"]) for m in roll["modifiers"]]


def test_attacks_happen_in_combat_rounds(campaign: Any) -> None:
    campaign.of("implant").given(hero(), ganger("A"))
    campaign.when(attack("Vera", "A", "ranged", [4, 2]))
    campaign.then_rejected(match="no combat is running")


def test_a_character_acts_in_his_own_round(alley: Any) -> None:
    alley.when(attack("Vera", "A", "ranged", [4, 2]))
    alley.then_rejected(match="Vera's round 1 has not started: start_turn first")
    act(alley, turn("Vera"))
    alley.when(turn("Vera"))
    alley.then_rejected(match="a character's round starts: only once per round")


def test_rate_of_fire_gives_more_shots_at_minus_two_recoil_each(alley: Any) -> None:
    """L88, I-11: every attack after the first at −2, not cumulative; no more than the rate of fire."""
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "A", "ranged", [1, 2]))
    assert modifiers(last_roll(alley)) == []
    act(alley, attack("Vera", "B", "ranged", [1, 2]))
    assert modifiers(last_roll(alley)) == [("recoil", -2)]
    act(alley, attack("Vera", "B", "ranged", [1, 2]))
    assert modifiers(last_roll(alley)) == [("recoil", -2)]
    alley.when(attack("Vera", "B", "ranged", [1, 2]))
    alley.then_rejected(match="rate of fire 3.*L88")


def test_two_additional_melee_attacks_at_minus_two_and_minus_four(alley: Any) -> None:
    """L80, I-17: the first attack without penalty, then −2, then −4; no fourth."""
    act(alley, turn("B"))
    for penalty in ([], [("additional attack", -2)], [("additional attack", -4)]):
        act(alley, attack("B", "Vera", "melee", [1]))
        assert modifiers(last_roll(alley)) == penalty
    alley.when(attack("B", "Vera", "melee", [1]))
    alley.then_rejected(match="additional melee attacks: only 2 times per round")


def test_one_main_action_per_round(alley: Any) -> None:
    act(alley, turn("Kessler"))
    act(alley, attack("Kessler", "Vera", "melee", [1, 2]))
    alley.when(attack("Kessler", "Vera", "ranged", [1, 2]))
    alley.then_rejected(match="already took his main action in round 1 \\(melee attack.*L72")
    act(alley, {"type": "next_round"})
    act(alley, turn("Kessler"))
    act(alley, attack("Kessler", "Vera", "ranged", [1, 2], weapon="pistol"))


def test_desperate_attack_adds_to_hit_and_takes_from_damage(alley: Any) -> None:
    """L81: +4 to Fighting, −4 to damage; 5 − 4 = 1 below Toughness changes nothing (invariant 9)."""
    act(alley, turn("Kessler"))
    act(alley, attack("Kessler", "Vera", "melee", [1, 2], options={"desperate": 4}))
    assert (modifiers(last_roll(alley)), last_roll(alley)["total"]) == ([("desperate attack", 4)], 6)
    vera = alley.sheet("Vera")
    alley.when(damage([3, 2]))
    alley.then(events.DiceRolled(), events.DamageDealt())
    assert last_roll(alley)["total"] == 1 and modifiers(last_roll(alley)) == [("desperate attack", -4)]
    assert alley.sheet("Vera") == vera


@pytest.mark.parametrize(
    ("kind", "options", "field"),
    [("ranged", {"desperate": 2}, "desperate"), ("ranged", {"wild": True}, "wild"), ("melee", {"range": -2}, "range"),
     ("melee", {"cover": -4}, "cover"), ("melee", {"tn": 6}, "tn")],
)
def test_options_of_the_other_kind_of_attack_are_refused(
    alley: Any, kind: str, options: dict[str, Any], field: str
) -> None:
    act(alley, turn("Vera"))
    alley.when(attack("Vera", "A", kind, [4, 2], options=options))
    alley.then_rejected(match=f"options.{field}")


def test_wild_attack_makes_the_attacker_vulnerable_until_his_next_round(alley: Any) -> None:
    """L82, I-19: +2 to hit; every check against him +2 until his next round starts."""
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "A", "melee", [1, 2], options={"wild": True}))
    assert modifiers(last_roll(alley)) == [("wild attack", 2)] and alley.sheet("Vera")["vulnerable"]
    act(alley, turn("A"))
    act(alley, attack("A", "Vera", "melee", [1]))
    assert modifiers(last_roll(alley)) == [("Vera vulnerable", 2)]
    act(alley, {"type": "next_round"})
    assert alley.sheet("Vera")["vulnerable"]
    act(alley, turn("Vera"))
    assert not alley.sheet("Vera")["vulnerable"]


def test_aim_gives_plus_two_to_shooting_next_round(alley: Any) -> None:
    """L89: aiming is the main action; the bonus comes in the next round."""
    act(alley, turn("Vera"))
    act(alley, {"type": "aim", "character": "Vera"})
    alley.when(attack("Vera", "A", "ranged", [1, 2]))
    alley.then_rejected(match="one main action per round")
    act(alley, {"type": "next_round"})
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "A", "ranged", [1, 2]))
    assert modifiers(last_roll(alley)) == [("aim", 2)] and last_roll(alley)["success"]


def test_off_hand_nonlethal_and_called_shot_to_the_head(alley: Any) -> None:
    """L92-L94: −2, −1, −4 to hit; the head adds +4 to damage."""
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "Kessler", "ranged", [4, 4, 4, 1, 2],
                      options={"off_hand": True, "nonlethal": True, "called_shot": "head"}))
    roll = last_roll(alley)
    assert modifiers(roll) == [("off hand", -2), ("nonlethal", -1), ("called shot (head)", -4)]
    assert (roll["total"], roll["success"]) == (6, True)
    act(alley, damage([1, 1]))
    assert modifiers(last_roll(alley)) == [("called shot (head)", 4)] and last_roll(alley)["total"] == 6


def test_a_nonlethal_blow_knocks_an_extra_out_for_d6_hours(alley: Any) -> None:
    """L93: the target does not die but is unconscious for d6 hours."""
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "A", "ranged", [4, 2, 1], options={"nonlethal": True}))
    act(alley, damage([5, 5, 3]))
    assert [r["purpose"] for r in alley.rolls()[-2:]] == ["damage", "unconscious_hours"]
    a = alley.sheet("A")
    assert (a["out"], a["unconscious_hours"]) == (True, 3)
    act(alley, {"type": "end_battle"})
    act(alley, {"type": "pass_time", "hours": 2})
    assert alley.sheet("A")["unconscious_hours"] == 1
    act(alley, {"type": "pass_time", "hours": 1})
    assert alley.sheet("A")["unconscious_hours"] is None


def test_a_nonlethal_blow_knocks_the_hero_out_instead_of_dying(alley: Any) -> None:
    act(alley, {"type": "take_damage", "character": "Vera", "damage": 30, "nonlethal": True, "dice": [4]})
    vera = alley.sheet("Vera")
    assert (vera["wounds"], vera["dying"], vera["unconscious_hours"]) == (2, False, 4)
    alley.when(turn("Vera"))
    alley.then_rejected(match="unconscious for 4 more hours")


def test_a_called_shot_at_the_weapon_disarms_on_a_failed_strength_check(alley: Any) -> None:
    """L94-L95, I-29: the shot must hit (−4); then the target's Strength check, TN 4."""
    act(alley, turn("Vera"))
    alley.when(attack("Vera", "Kessler", "ranged", [4, 4, 1, 2], options={"called_shot": "weapon"}))
    alley.then_rejected(match="options.target_weapon: name the weapon of Kessler")
    act(alley, attack("Vera", "Kessler", "ranged", [4, 4, 1, 2, 2, 3],
                      options={"called_shot": "weapon", "target_weapon": "pistol"}))
    strength = last_roll(alley)
    assert (strength["character"], strength["purpose"], strength["total"], strength["success"]) == (
        "Kessler", "disarm", 3, False
    )
    assert alley.sheet("Kessler")["disarmed"] == ["pistol"]
    alley.when(damage([3, 3]))
    alley.then_rejected(match="no hit waits for its damage roll")
    act(alley, turn("Kessler"))
    alley.when(attack("Kessler", "Vera", "ranged", [4, 2], weapon="pistol"))
    alley.then_rejected(match="disarmed of the pistol")
    act(alley, {"type": "rearm", "character": "Kessler", "weapon": "pistol"})
    assert alley.sheet("Kessler")["disarmed"] == []


def test_taunt_distracts_until_the_end_of_the_targets_next_round(alley: Any) -> None:
    """L96, I-13: −2 to the target's skill checks; it ends when his round after next starts."""
    act(alley, turn("Kessler"))
    act(alley, {"type": "taunt", "character": "Kessler", "target": "Vera", "dice": [4, 1]})
    assert alley.sheet("Vera")["distracted"]
    act(alley, turn("Vera"))
    assert alley.sheet("Vera")["distracted"]
    act(alley, attack("Vera", "A", "ranged", [1, 2]))
    assert modifiers(last_roll(alley)) == [("distracted", -2)]
    act(alley, {"type": "next_round"})
    act(alley, turn("Vera"))
    assert not alley.sheet("Vera")["distracted"]


def test_withdrawing_gives_each_adjacent_opponent_able_to_fight_a_free_attack(alley: Any) -> None:
    """L79: a Shaken opponent cannot fight; each free attack once; out of turn, no main action."""
    act(alley, {"type": "take_damage", "character": "B", "damage": 5})
    assert alley.sheet("B")["shaken"]
    act(alley, turn("Vera"))
    act(alley, {"type": "withdraw", "character": "Vera", "opponents": ["A", "B"]})
    assert alley.campaign_sheet()["combat"]["withdrawal"] == {"character": "Vera", "round": 1, "opponents": ["A"]}
    alley.when(attack("B", "Vera", "melee", [6, 1], options={"free_attack": True}))
    alley.then_rejected(match="B is Shaken")
    act(alley, attack("A", "Vera", "melee", [2], options={"free_attack": True}))
    alley.when(attack("A", "Vera", "melee", [2], options={"free_attack": True}))
    alley.then_rejected(match="free attack on a character withdrawing from melee: only once")
    alley.when(attack("Kessler", "Vera", "melee", [2, 1], options={"free_attack": True}))
    alley.then_rejected(match="Kessler is not an adjacent opponent")


def test_no_free_attack_without_a_withdrawal(alley: Any) -> None:
    alley.when(attack("A", "Vera", "melee", [2], options={"free_attack": True}))
    alley.then_rejected(match="Vera is not withdrawing")


def test_a_hit_waits_for_its_damage(alley: Any) -> None:
    act(alley, turn("Vera"))
    act(alley, attack("Vera", "A", "ranged", [4, 1, 2]))
    for command in ({"type": "next_round"}, turn("A"), attack("Vera", "B", "ranged", [4, 1, 2])):
        alley.when(command)
        alley.then_rejected(match="waits for roll_damage")
    alley.when({**damage([3, 3]), "actor": "player:bob"})
    alley.then_rejected(match="cannot act for 'Vera'")


def test_gm_bennies_one_per_enemy_and_one_per_enemy_joining(campaign: Any) -> None:
    """L63, invariant 12; the GM's bennies outlast the combat."""
    campaign.of("implant").given(hero(), ganger("A"), ganger("B"), ganger("C"))
    campaign.when({"type": "start_battle", "enemies": ["A", "B"]})
    campaign.then(
        events.ScopeStarted(scope="battle", number=1),
        events.GmBenniesGained(count=2, enemies=["A", "B"]),
        events.Ticked(scope="move", label="round", number=1),
    )
    act(campaign, {"type": "join_battle", "enemies": ["C"]})
    assert campaign.campaign_sheet()["gm_bennies"] == 3
    campaign.when({"type": "join_battle", "enemies": ["C"]})
    campaign.then_rejected(match="already in this combat")
    campaign.when({"type": "join_battle", "enemies": ["Vera"]})
    campaign.then_rejected(match="the player's character, not an enemy")
    act(campaign, {"type": "end_battle"})
    assert campaign.campaign_sheet()["gm_bennies"] == 3
    assert campaign.campaign_sheet()["clock"]["battle"] == {"number": 1, "open": False}
