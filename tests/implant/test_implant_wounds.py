"""Damage, Shaken, wounds, Dying, soak (§5.2-§5.3), healing (§5.4) and every use of a benny (§4.1)."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.testing import events

from .implant_builders import act, attack, boss, damage, ganger, hero, last_roll, turn


def take(character: str, amount: int, **fields: Any) -> dict[str, Any]:
    return {"type": "take_damage", "character": character, "damage": amount, **fields}


def benny(character: str, purpose: str, **fields: Any) -> dict[str, Any]:
    return {"type": "spend_benny", "character": character, "purpose": purpose, **fields}


def state(campaign: Any, name: str) -> tuple[int, bool, bool]:
    sheet = campaign.sheet(name)
    return sheet["wounds"], sheet["shaken"], sheet["dying"]


@pytest.fixture
def vera(campaign: Any) -> Any:
    """Vera in a scene (three bennies) with Kessler, an important NPC of the GM."""
    return campaign.of("implant").given(hero(), boss("Kessler"), ganger("A"), {"type": "start_scene"})


# --- damage (§5.2) ------------------------------------------------------------------------


def test_damage_below_toughness_changes_nothing(vera: Any) -> None:
    """L105, invariant 9: no event on the target at all."""
    vera.when(take("Vera", 3))
    vera.then(events.DamageDealt())
    assert state(vera, "Vera") == (0, False, False)


def test_a_success_shakes_and_a_second_success_wounds(vera: Any) -> None:
    """L106, I-6: a hit reaching Toughness on a Shaken target is a wound; he stays Shaken."""
    act(vera, take("Vera", 4))
    assert state(vera, "Vera") == (0, True, False)
    act(vera, take("Vera", 7))
    assert state(vera, "Vera") == (1, True, False)


@pytest.mark.parametrize(("reading", "wounds"), [("standard", 1), ("raises_plus_one", 2)])
def test_a_raise_on_a_shaken_target(campaign: Any, reading: str, wounds: int) -> None:
    """I-28: a raise on a Shaken target is r wounds (standard) or r + 1."""
    campaign.of("implant", shaken_hit=reading).given(hero(), take("Vera", 4))
    act(campaign, take("Vera", 8))
    assert state(campaign, "Vera") == (wounds, True, False)


def test_wounds_beyond_the_maximum_make_the_hero_dying(vera: Any) -> None:
    """L113, I-5: the count stays at 2 and he is Dying (unconscious)."""
    act(vera, take("Vera", 8))
    vera.when(take("Vera", 12))
    vera.then(events.Damaged(character="Vera", raises=2, new_wounds=2, wounds=2, dying=True), events.DamageDealt())
    vera.when({"type": "trait_check", "character": "Vera", "trait": "notice", "dice": [6, 6]})
    vera.then_rejected(match="Vera is Dying")


def test_the_dying_make_a_vigor_check_each_turn(vera: Any) -> None:
    """L113, I-14: success ends Dying; then, still Shaken, the Spirit check."""
    vera.given(take("Vera", 20), {"type": "start_battle", "enemies": ["Kessler"]})
    assert state(vera, "Vera") == (2, True, True)
    act(vera, turn("Vera", [2, 3]))
    assert [r["purpose"] for r in vera.rolls()] == ["dying"] and state(vera, "Vera") == (2, True, True)
    vera.when({**attack("Vera", "Kessler", "ranged", [4, 2])})
    vera.then_rejected(match="Vera is Dying")
    act(vera, {"type": "next_round"})
    act(vera, turn("Vera", [4, 4, 1, 2, 1, 3]))
    assert [(r["purpose"], r["total"], r["success"]) for r in vera.rolls()[-2:]] == [
        ("dying", 7, True), ("recovery", 1, False),
    ]
    assert state(vera, "Vera") == (2, True, False)


def test_an_extra_is_out_at_the_first_wound(vera: Any) -> None:
    """L112, invariant 15."""
    vera.when(take("A", 10))
    vera.then(events.Damaged(character="A", new_wounds=1, wounds=1, out=True), events.DamageDealt())
    vera.when(take("A", 10))
    vera.then_rejected(match="already out")


def test_an_attack_raise_adds_an_exploding_d6_to_damage(vera: Any) -> None:
    """L102, I-3: +1d6 per raise, and it explodes too."""
    vera.given({"type": "start_battle", "enemies": ["Kessler"]}, turn("Vera"))
    act(vera, attack("Vera", "Kessler", "ranged", [4, 4, 4, 1, 2]))
    assert last_roll(vera)["raises"] == 2
    act(vera, damage([1, 1, 6, 2, 3]))
    roll = last_roll(vera)
    assert roll["notation"] == "2d6!+2d6!" and roll["total"] == 13
    assert [d["faces"] for d in roll["dice"]] == [[1], [1], [6, 3], [2]]


# --- soak (§5.3) --------------------------------------------------------------------------


def test_the_soak_example_of_section_5_3(vera: Any) -> None:
    """Vera (2 bennies) takes 9: Shaken + 1 wound; soak Vigor [4, 2] = 6, wild [3]: 1 wound off, still Shaken."""
    act(vera, benny("Vera", "energy"))
    act(vera, take("Vera", 9))
    assert state(vera, "Vera") == (1, True, False) and vera.sheet("Vera")["bennies"] == 2
    vera.when({"type": "soak", "character": "Vera", "dice": [4, 2, 3]})
    vera.then(
        events.LimitUsed(limit="soak"), events.BennySpent(character="Vera", purpose="soak"), events.DiceRolled(),
        events.CheckMade(character="Vera"), events.Soaked(character="Vera", removed=1, wounds=0),
        events.DamageSoaked(),
    )
    assert state(vera, "Vera") == (0, True, False) and vera.sheet("Vera")["bennies"] == 1
    assert (last_roll(vera)["total"], last_roll(vera)["raises"]) == (6, 0)


def test_a_soak_removes_only_this_attacks_wounds(vera: Any) -> None:
    """L114, invariant 13: the earlier wound stays; Dying goes when the count is back within 2."""
    act(vera, take("Vera", 8))
    act(vera, take("Vera", 12))
    assert state(vera, "Vera") == (2, True, True)
    act(vera, benny("Vera", "soak", dice=[4, 1, 2]))
    assert modifiers_of(last_roll(vera)) == [("wounds", -1)]
    assert state(vera, "Vera") == (2, True, False)


def test_a_big_soak_cannot_remove_older_wounds(vera: Any) -> None:
    act(vera, take("Vera", 8))
    act(vera, take("Vera", 8))
    act(vera, {"type": "soak", "character": "Vera", "dice": [4, 4, 4, 4, 2, 1]})
    assert last_roll(vera)["raises"] >= 2 and state(vera, "Vera") == (1, True, False)


def modifiers_of(roll: dict[str, Any]) -> list[tuple[str, int]]:
    return [(m["source"], m["value"]) for m in roll["modifiers"]]


def test_soak_refusals(vera: Any) -> None:
    act(vera, take("Vera", 4))
    vera.when({"type": "soak", "character": "Vera", "dice": [4, 2, 3]})
    vera.then_rejected(match="no wounds to soak; a soak never removes Shaken")
    act(vera, take("Vera", 8))
    act(vera, {"type": "soak", "character": "Vera", "dice": [1, 2]})
    vera.when({"type": "soak", "character": "Vera", "dice": [4, 2, 3]})
    vera.then_rejected(match="soak the wounds of one attack: only once")
    act(vera, take("A", 3))
    vera.when({"type": "soak", "character": "Vera", "dice": [4, 2, 3]})
    vera.then_rejected(match="not taking damage now")


def test_the_gm_soaks_for_his_characters_with_his_own_bennies(vera: Any) -> None:
    """I-25: one GM benny per enemy, spent for his characters."""
    vera.given({"type": "start_battle", "enemies": ["Kessler"]}, take("Kessler", 10))
    act(vera, {"type": "soak", "character": "Kessler", "dice": [6, 2, 1]})
    assert vera.campaign_sheet()["gm_bennies"] == 0 and vera.sheet("Kessler")["wounds"] == 0
    vera.given(take("Kessler", 10))
    vera.when({"type": "soak", "character": "Kessler", "dice": [6, 2, 1]})
    vera.then_rejected(match="the GM has no bennies left")


def test_gm_bennies_can_be_kept_from_his_characters(campaign: Any) -> None:
    campaign.of("implant", gm_bennies_spendable=False).given(
        boss("Kessler"), {"type": "start_battle", "enemies": ["Kessler"]}, take("Kessler", 10),
    )
    campaign.when({"type": "soak", "character": "Kessler", "dice": [6, 2, 1]})
    campaign.then_rejected(match="gm_bennies_spendable")


# --- bennies (§4.1) -----------------------------------------------------------------------


def test_bennies_are_set_to_three_at_every_scene_start(vera: Any) -> None:
    """L63, I-8: renewed to three, extra bennies are lost; invariant 11."""
    act(vera, {"type": "award_benny", "character": "Vera", "count": 2})
    assert vera.sheet("Vera")["bennies"] == 5
    act(vera, {"type": "end_scene"})
    vera.when({"type": "start_scene"})
    vera.then(
        events.ScopeStarted(scope="scene"), events.Started(scene=2), events.BenniesRenewed(character="Vera", bennies=3)
    )


def test_a_benny_restores_five_energy_cells(vera: Any) -> None:
    act(vera, benny("Vera", "energy"))
    assert (vera.sheet("Vera")["energy_cells"], vera.sheet("Vera")["bennies"]) == (5, 2)


def test_influencing_the_story_says_how(vera: Any) -> None:
    vera.when(benny("Vera", "story"))
    vera.then_rejected(match="note")
    vera.when(benny("Vera", "story", note="the fixer owes her"))
    vera.then(events.BennySpent(character="Vera", purpose="story"), events.StoryInfluenced(note="the fixer owes her"))


def test_no_benny_no_spend(vera: Any) -> None:
    vera.given(benny("Vera", "energy"), benny("Vera", "energy"), benny("Vera", "energy"))
    vera.when(benny("Vera", "energy"))
    vera.then_rejected(match="no bennies left")
    assert vera.sheet("Vera")["energy_cells"] == 15


def test_unshake_with_a_benny_only_when_shaken(vera: Any) -> None:
    vera.when(benny("Vera", "unshake"))
    vera.then_rejected(match="not Shaken")
    act(vera, take("Vera", 4))
    vera.when(benny("Vera", "unshake"))
    vera.then(events.BennySpent(purpose="unshake"), events.Unshaken(character="Vera", by="benny"))


def test_a_reroll_of_a_miss_can_turn_it_into_a_hit_with_raises(vera: Any) -> None:
    vera.given(
        {"type": "start_battle", "enemies": ["Kessler"]}, turn("Vera"), attack("Vera", "Kessler", "ranged", [1, 2])
    )
    act(vera, benny("Vera", "reroll", dice=[4, 4, 2, 3]))
    assert vera.campaign_sheet()["combat"]["attack"]["hit"] is True
    assert vera.campaign_sheet()["combat"]["attack"]["raises"] == 1
    act(vera, damage([1, 1, 1]))
    assert last_roll(vera)["notation"] == "2d6!+1d6!"
    vera.when(benny("Vera", "reroll", dice=[4, 4, 2, 3]))
    vera.then_rejected(match="settled")


def test_a_damage_reroll_replaces_the_damage(vera: Any) -> None:
    """L67, I-15: the new roll replaces the old, even when lower; the target is restated."""
    vera.given(
        {"type": "start_battle", "enemies": ["Kessler"]}, turn("Vera"), attack("Vera", "Kessler", "ranged", [4, 1, 2])
    )
    act(vera, damage([6, 6, 1, 4]))
    assert last_roll(vera)["total"] == 17 and state(vera, "Kessler") == (2, True, False)
    vera.when(benny("Vera", "damage_reroll", dice=[1, 2]))
    vera.then(
        events.BennySpent(purpose="damage_reroll"), events.DiceRolled(),
        events.Damaged(character="Kessler", damage=3, wounds=0, shaken=False, replaces="t9"), events.DamageDealt(),
    )
    act(vera, benny("Vera", "damage_reroll", dice=[4, 5]))
    assert state(vera, "Kessler") == (0, True, False) and vera.sheet("Vera")["bennies"] == 1


def test_no_damage_reroll_after_the_soak(vera: Any) -> None:
    vera.given(
        {"type": "start_battle", "enemies": ["Kessler"]}, turn("Vera"), attack("Vera", "Kessler", "ranged", [4, 1, 2]),
        damage([6, 6, 1, 4]), {"type": "soak", "character": "Kessler", "dice": [1, 2]},
    )
    vera.when(benny("Vera", "damage_reroll", dice=[4, 5]))
    vera.then_rejected(match="already soaked")
    vera.given(take("Kessler", 3))
    vera.when(benny("Vera", "damage_reroll", dice=[4, 5]))
    vera.then_rejected(match="no damage roll to reroll")


# --- healing (§5.4) -----------------------------------------------------------------------


def test_healing_removes_a_wound_per_success_and_raise_and_ends_dying(vera: Any) -> None:
    """L117: untrained d4 − 2: 14 − 2 = 12 vs 4 → 2 raises → three wounds off (two there), Dying gone."""
    act(vera, take("Vera", 20))
    assert state(vera, "Vera") == (2, True, True)
    vera.when({"type": "heal", "healer": "Kessler", "patient": "Vera", "dice": [4, 4, 4, 2, 1]})
    vera.then(
        events.DiceRolled(), events.CheckMade(character="Kessler"),
        events.Treated(character="Vera", healer="Kessler", change=-2, wounds=0, dying=False, minutes=10),
    )
    assert (last_roll(vera)["total"], last_roll(vera)["raises"]) == (12, 2)
    assert state(vera, "Vera") == (0, True, False)


def test_the_dying_cannot_heal_and_the_unwounded_need_no_healing(vera: Any) -> None:
    vera.when({"type": "heal", "healer": "Vera", "patient": "Vera", "dice": [4, 2]})
    vera.then_rejected(match="patient: Vera has no wounds to treat")
    act(vera, take("Vera", 20))
    vera.when({"type": "heal", "healer": "Vera", "patient": "Vera", "dice": [4, 2]})
    vera.then_rejected(match="healer: Vera is Dying")


def test_a_healing_critical_failure_adds_a_wound(vera: Any) -> None:
    """L117, invariant 14: at two wounds the hero is Dying instead."""
    act(vera, take("Vera", 12))
    act(vera, {"type": "heal", "healer": "Vera", "patient": "Vera", "dice": [1, 1]})
    assert state(vera, "Vera") == (2, True, True)


def test_healing_in_combat_is_the_main_action(vera: Any) -> None:
    vera.given(take("Vera", 8), {"type": "start_battle", "enemies": ["Kessler"]}, turn("Vera"))
    act(vera, {"type": "heal", "healer": "Vera", "patient": "Vera", "dice": [1, 2]})
    vera.when(attack("Vera", "Kessler", "ranged", [4, 2]))
    vera.then_rejected(match="already took his main action in round 1 \\(heal")


def test_natural_healing_at_the_end_of_a_day_without_treatment(vera: Any) -> None:
    """L118, I-27: one Vigor check per untreated wounded character, in roster order."""
    vera.given(take("Vera", 8), take("Kessler", 10), take("A", 10))
    act(vera, {"type": "heal", "healer": "Vera", "patient": "Kessler", "dice": [1, 2]})
    vera.when({"type": "end_day", "dice": [4, 1, 2]})
    vera.then(
        events.DiceRolled(), events.CheckMade(character="Vera"),
        events.NaturallyHealed(character="Vera", day=1, change=-1, wounds=0), events.DayEnded(day=1),
    )
    assert last_roll(vera)["purpose"] == "natural_healing"
    assert vera.campaign_sheet()["game_day"] == 2
    act(vera, {"type": "end_day"})
    assert vera.sheet("Kessler")["wounds"] in (0, 1, 2)


def test_a_natural_healing_critical_failure_adds_a_wound(vera: Any) -> None:
    vera.given(take("Vera", 8))
    act(vera, {"type": "end_day", "dice": [1, 1]})
    assert vera.sheet("Vera")["wounds"] == 2


def test_no_day_ends_in_the_middle_of_a_combat(vera: Any) -> None:
    vera.given({"type": "start_battle", "enemies": []})
    vera.when({"type": "end_day"})
    vera.then_rejected(match="end_battle first")
