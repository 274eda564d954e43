"""«Имплант» played through the `rollbook` CLI against the Russian original (issue 14).

Each test cites the line of shared/seeds/implant-savage-worlds.ru.txt it checks; the dice are given.
"""

from __future__ import annotations

from pathlib import Path

from rollbook.testing.cli import CliCampaign

from .implant_builders import attack, boss, damage, fight, hero, turn

# Kessler's knife: Fighting d6 + wild d6 [5, 2] = 5 vs Vera's Parry 4, a hit; Strength d6 + knife d4
# [5, 3] = 8 vs her Toughness 4: Shaken and a wound (L105-L107).
HIT = [attack("Kessler", "Vera", "melee", [5, 2]), {**damage([5, 3]), "id": "dmg"}]
# Vigor d4 + wild d6 [3, 5] = 5 vs 4: the soak takes the wound off (L114).
SOAKED = [3, 5]


def soak(dice: list[int]) -> dict[str, object]:
    return {"type": "soak", "character": "Vera", "dice": dice}


def wounded(tmp_path: Path) -> CliCampaign:
    table = CliCampaign(tmp_path, "implant")
    table.run(hero(), boss(), *fight("Kessler"), turn("Kessler"), *HIT)
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["shaken"], vera["bennies"]) == (1, True, 3)
    return table


def test_a_soak_after_a_missed_attack_is_refused_and_spends_nothing(tmp_path: Path) -> None:
    """L114: «Снимаются только те ранения, которые персонаж должен получить от текущей атаки.
    Ранения, полученные ранее, остаются.» A miss brings no wounds to soak."""
    table = wounded(tmp_path)
    # Round 2: Kessler misses, [2, 3] = 3 vs Parry 4.
    table.run({"type": "next_round"}, turn("Kessler"), attack("Kessler", "Vera", "melee", [2, 3]))
    refused = table.refused(soak(SOAKED))
    assert "a soak answers the attack just taken" in refused["reason"] and "L114" in refused["reason"]
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["bennies"]) == (1, 3)


def test_a_damage_is_soaked_once_even_in_a_later_round(tmp_path: Path) -> None:
    """L114: the soak works on the wounds of the attack taken; a second soak cannot work them again
    (a benny may reroll the soak instead, L64)."""
    table = wounded(tmp_path)
    table.run(soak(SOAKED))
    assert (table.sheet("Vera")["wounds"], table.sheet("Vera")["bennies"]) == (0, 2)
    table.run({"type": "next_round"})
    refused = table.refused(soak([1, 2]))
    assert refused["reason"] == ("a character may soak the wounds of one attack: only once per damage (dmg) "
                                 "(L114); already used 1")
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["bennies"]) == (0, 2)


# --- L113, L118: a Dying hero who passes the day's Vigor check comes to (issue 43, item 5) ------


def dying(tmp_path: Path) -> CliCampaign:
    """Vera Dying outside any combat: wounds 2 (the maximum), unconscious, no turns to check on (L113; I-5)."""
    table = CliCampaign(tmp_path, "implant")
    table.run(hero(), boss(), {"type": "start_scene"}, {"type": "take_damage", "character": "Vera", "damage": 20})
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["dying"]) == (2, True)
    return table


def test_a_passed_daily_vigor_check_ends_dying_with_the_wounds_it_removes_l113_l118(tmp_path: Path) -> None:
    """L113 «Персонаж придет в сознание и сможет действовать только если получить лечение или пройдет проверку»,
    the check being «проверку на выносливость»; L118's daily check is one: «каждый игровой день он должен
    делать проверку на выносливость. За успех списывается одно ранение». Vigor d4 [4, 3] = 7 − 2 (two
    wounds) = 5 against 4: a success without a raise, one wound off, and she comes to."""
    table = dying(tmp_path)
    table.run({"type": "end_day", "dice": [4, 3, 2]})
    roll = table.rolls()[-1]
    assert (roll["purpose"], roll["total"], roll["success"], roll["raises"]) == ("natural_healing", 5, True, 0)
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["dying"]) == (1, False)
    table.run({"type": "trait_check", "character": "Vera", "trait": "notice", "dice": [4, 2]})  # she acts


def test_a_failed_daily_vigor_check_leaves_her_dying_l113(tmp_path: Path) -> None:
    table = dying(tmp_path)
    table.run({"type": "end_day", "dice": [2, 3]})
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["dying"]) == (2, True)
    refused = table.refused({"type": "trait_check", "character": "Vera", "trait": "notice", "dice": [4, 2]})
    assert "Vera is Dying" in refused["reason"]


def test_a_rerolled_daily_vigor_check_that_passes_ends_dying_l64_l113(tmp_path: Path) -> None:
    """A benny's better result decides what the check decides (L64): here that she comes to."""
    table = dying(tmp_path)
    table.run({"type": "end_day", "dice": [2, 3]})
    table.run({"type": "spend_benny", "character": "Vera", "purpose": "reroll", "dice": [4, 4, 1, 2]})
    vera = table.sheet("Vera")
    assert (vera["wounds"], vera["dying"], vera["bennies"]) == (1, False, 2)


def test_the_campaigns_own_dice_decide_the_day_and_verify_l118(tmp_path: Path) -> None:
    table = dying(tmp_path)
    table.run({"type": "end_day"})
    roll = table.rolls()[-1]
    vera = table.sheet("Vera")
    assert vera["dying"] is not roll["success"]
    assert vera["wounds"] == (max(0, 2 - 1 - roll["raises"]) if roll["success"] else 2)
    assert table.verify().exit_code == 0
