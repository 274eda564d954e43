"""Harm and wounds (§5), treatment, the chapter's end, and Meet Fate (§6)."""

from __future__ import annotations

import itertools

import pytest

from rollbook.testing import ANY, events, pirates

from .pirates_crew import crew, harm, roll, step

FULL = sorted({tuple(sorted(c)) for c in itertools.product(("light", "serious", "terrible"), repeat=3)})


def _slots(*levels: str) -> list:
    return [pirates.wounded("Anna", level) for level in levels]


@pytest.mark.parametrize("levels", FULL, ids=["".join(level[0].upper() for level in c) for c in FULL])
def test_the_transition_table_for_every_full_combination_p2(campaign, levels):
    crew(campaign, anna_luck=1)
    campaign.given(*_slots(*levels))
    campaign.when(harm("Anna"))
    if set(levels) == {"light"}:
        campaign.then(events.Wounded(character="Anna", slot=0, level="serious", change="upgraded"))
    elif set(levels) == {"serious"}:
        campaign.then(events.Wounded(character="Anna", slot=0, level="terrible", change="upgraded"))
    else:  # any other full combination: 1 luck must be spent (L70-L71)
        campaign.then(events.LuckLost(character="Anna", amount=1, reason="no_free_wound_slot"))
        campaign.when(harm("Anna"))
        campaign.then(events.FateCalled(character="Anna", reason=ANY))
        assert campaign.sheet("Anna")["luck"] == 0


def test_upgrade_the_lowest_wound_with_the_option_p2b(campaign):
    crew(campaign, anna_luck=0, full_wound_slots="upgrade_lowest")
    campaign.given(*_slots("serious", "light", "terrible"))
    campaign.when(harm("Anna"))
    campaign.then(events.Wounded(character="Anna", slot=1, level="serious", change="upgraded"))
    campaign.when(harm("Anna", 2))
    campaign.then(
        events.Wounded(slot=0, level="terrible"), events.Wounded(slot=1, level="terrible"),
    )
    campaign.when(harm("Anna"))
    campaign.then(events.FateCalled(character="Anna"))


def test_a_move_may_put_a_wound_of_its_level_into_a_free_slot(campaign):
    crew(campaign)
    campaign.when(harm("Anna", level="terrible"))
    campaign.then(events.Wounded(slot=0, level="terrible", change="filled"))
    assert (campaign.sheet("Anna")["pending_light"], campaign.sheet("Anna")["modifier"]) == (0, -2)


def test_absorbing_with_luck_point_by_point(campaign):
    crew(campaign, anna_luck=2)
    campaign.when(harm("Anna", 3, absorb_with_luck=True))
    campaign.then(
        events.LuckSpent(amount=1, purpose="avoid_wound"), events.LuckSpent(amount=1, purpose="avoid_wound"),
        events.Wounded(slot=0, level="light", change="filled"),
    )


def test_the_wound_modifier_worst_case_is_minus_3_plus_pending_p4(campaign):
    crew(campaign)
    campaign.given(*_slots("serious", "terrible", "terrible"))
    assert campaign.sheet("Anna")["modifier"] == -3


# --- treatment and the chapter's end ----------------------------------------------------------------------


def test_treatment_heals_the_wounds_the_gm_names_p25(campaign):
    crew(campaign)
    campaign.given(*_slots("serious", "serious", "light"))
    campaign.when(step("treat_wound", character="Anna", level="serious", count=2))
    campaign.then(events.WoundTreated(slot=0, level="serious", healed=True), events.WoundTreated(slot=1, healed=True))
    campaign.when(step("treat_wound", character="Anna", level="terrible"))
    campaign.then_rejected(match="count: Anna has 0 terrible wound")
    campaign.when(step("treat_wound", character="Anna", level="light", actor="player:anna"))
    campaign.then_rejected(match="only the GM may treat_wound")


def test_chapter_end_heals_light_wounds_and_calls_fate_once_for_untreated_terrible_ones_p24(campaign):
    crew(campaign)
    campaign.given(*_slots("terrible", "terrible", "light"), step("start_chapter"))
    campaign.when(step("end_chapter"))
    campaign.then(
        events.LightWoundsHealed(character="Anna", count=1),
        events.FateCalled(character="Anna", reason="a terrible wound untreated at the end of the chapter (L68, L75)"),
        events.ScopeEnded(scope="chapter"),
    )
    assert campaign.sheet("Anna")["wounds"] == {"light": 0, "serious": 0, "terrible": 2}


def test_a_terrible_wound_treated_but_not_yet_healed_calls_no_fate(campaign):
    crew(campaign)
    campaign.given(*_slots("terrible"), step("start_chapter"))
    campaign.given(step("treat_wound", character="Anna", level="terrible", heal=False))
    assert campaign.sheet("Anna")["treated"] == ["terrible"]
    campaign.when(step("end_chapter"))
    campaign.then(events.ScopeEnded(scope="chapter"))
    campaign.when(step("treat_wound", character="Anna", level="terrible", heal=False))
    campaign.then_rejected(match="1 of them already treated")
    campaign.when(step("treat_wound", character="Anna", level="terrible"))
    campaign.then(events.WoundTreated(slot=0, level="terrible", healed=True))


# --- Meet Fate ---------------------------------------------------------------------------------------------


def _doomed(campaign, *, luck: int = 0):
    crew(campaign, anna_luck=luck)
    campaign.given(step("start_chapter"), step("start_scene", enemy="Kraken"))
    campaign.given(*_slots("terrible", "terrible", "terrible"), harm("Anna"))  # no luck: fate is called
    assert campaign.sheet("Anna")["fate_pending"] == ["harm with every wound slot full and no luck (L71, L75)"]


def test_no_fate_without_a_reason(campaign):
    crew(campaign)
    campaign.when(step("meet_fate", character="Anna", dice=[6, 6]))
    campaign.then_rejected(match="Anna has no reason to meet fate")


@pytest.mark.parametrize(
    ("dice", "result", "chooser"),
    [([6, 6], "escaped_lucky", None), ([5, 5], "escaped", None), ([3, 5], "player_chooses", "player"),
     ([1, 4], "gm_chooses", "gm")],
)
def test_the_fate_roll_is_plain_2d6(campaign, dice, result, chooser):
    _doomed(campaign)
    campaign.when(step("meet_fate", character="Anna", dice=dice, id="f"))
    expected = [events.DiceRolled(), events.FateMet(character="Anna", roll="f", total=sum(dice), result=result,
                                                    chooser=chooser, left_scene=chooser is not None)]
    if result == "escaped_lucky":
        expected.append(events.LuckGained(character="Anna", amount=1))
    campaign.then(*expected)
    assert campaign.rolls()[-1]["modifiers"] == []  # no stat, no luck, no wounds (L77)
    assert campaign.sheet("Anna")["fate_pending"] == []


def test_the_player_chooses_on_7_to_9_and_leaves_the_scene(campaign):
    _doomed(campaign)
    campaign.given(step("meet_fate", character="Anna", dice=[3, 5]))
    campaign.when(roll("Anna", "audacity", [3, 3]))
    campaign.then_rejected(match="left the scene after meeting fate")
    campaign.when(step("choose_fate", character="Anna", option="ugly_scar", actor="player:bo"))
    campaign.then_rejected(match="player:bo cannot act for 'Anna'")
    campaign.when(step("choose_fate", character="Anna", option="ugly_scar", actor="player:anna"))
    campaign.then(
        events.LimitUsed(limit="fate_option", instance="ugly_scar", holder="player:anna"),
        events.FateChosen(character="Anna", option="ugly_scar", by="player:anna"),
        events.FateOptionStruck(character="Anna", option="ugly_scar"),
    )
    campaign.when(step("end_scene"))
    campaign.then(events.ReturnedToPlay(character="Anna"), events.Ended(scene=1), events.ScopeEnded(scope="scene"))


def test_the_gm_chooses_on_6_or_less(campaign):
    _doomed(campaign)
    campaign.given(step("meet_fate", character="Anna", dice=[1, 4]))
    campaign.when(step("choose_fate", character="Anna", option="hard_task", actor="player:anna"))
    campaign.then_rejected(match="the GM chooses")
    campaign.when(step("choose_fate", character="Anna", option="hard_task"))
    campaign.then(events.LimitUsed(), events.FateChosen(option="hard_task", by="gm"), events.FateOptionStruck())


def test_a_struck_fate_stays_struck_for_the_player_and_his_next_pirate_l87(campaign):
    _doomed(campaign)
    campaign.given(step("meet_fate", character="Anna", dice=[3, 5]),
                   step("choose_fate", character="Anna", option="die_after_last_action"))
    assert campaign.sheet("Anna")["dead"] is True
    campaign.given(pirates.created("Anya", player="anna"))
    assert campaign.sheet("Anya")["fate_struck"] == ["die_after_last_action"]
    assert campaign.sheet("Bo")["fate_struck"] == []


def test_a_struck_option_is_refused_and_all_six_struck_means_the_gm_narrates(campaign):
    _doomed(campaign, luck=0)
    options = ["artificial_body_part", "ugly_scar", "slave_of_dark_powers", "hard_task", "wake_who_knows_where",
               "die_after_last_action"]
    for index, option in enumerate(options):
        campaign.given(step("meet_fate", character="Anna", dice=[3, 5]))
        if index:
            campaign.when(step("choose_fate", character="Anna", option=options[index - 1]))
            campaign.then_rejected(match=f"{options[index - 1]} is struck for player:anna")
        campaign.given(step("choose_fate", character="Anna", option=option))
        if option != "die_after_last_action":
            campaign.given(harm("Anna"))
    # Anna is dead (L85); the player's next pirate starts with all six struck (L87).
    campaign.given(pirates.created("Anne", player="anna"), pirates.wounded("Anne", "terrible", 3), harm("Anne"))
    assert len(campaign.sheet("Anne")["fate_struck"]) == 6
    campaign.when(step("meet_fate", character="Anne", dice=[3, 5]))
    campaign.then(events.DiceRolled(), events.FateMet(chooser=None), events.FateChosen(option="narrated_by_gm", by="gm"))


def test_a_pending_choice_blocks_the_next_fate_roll(campaign):
    _doomed(campaign)
    campaign.given(harm("Anna"), step("meet_fate", character="Anna", dice=[3, 5]))
    campaign.when(step("meet_fate", character="Anna", dice=[3, 5]))
    campaign.then_rejected(match="still awaits the player's choice")
