"""Each limit of the pirate game (§15): refused past its scope with a clear message, reset at its boundary."""

from __future__ import annotations

from rollbook.domain.rulesets.pirates import RULESET
from rollbook.testing import events, pirates

from .pirates_crew import crew, harm, luck, roll, step


def test_every_declared_limit_has_a_test_here():
    tested = {"luck_roll_bonus", "luck_help_or_hinder", "breakdown_instead_of_hole", "tall_tale", "sea_repair_hole",
              "development_option", "fate_option"}
    assert {limit.name for limit in RULESET.limits} == tested


def test_own_bonus_once_per_move_reset_by_the_next_move(campaign):
    crew(campaign, anna_luck=3)
    campaign.given(roll("Anna", "guile", [3, 3], luck_bonus=True, id="r1"))
    campaign.when(luck("Anna", "roll_bonus"))
    campaign.then_rejected(match=r"a pirate may spend luck for \+1 to his own roll: only once per move \(r1\) \(L45\)")
    campaign.given(roll("Anna", "guile", [3, 3], id="r2"))
    campaign.when(luck("Anna", "roll_bonus"))
    campaign.then(
        events.LimitUsed(limit="luck_roll_bonus", instance="r2"), events.LuckSpent(), events.MoveModified(),
        events.RollModified(),
    )


def test_help_once_per_helper_per_move_reset_by_the_next_move(campaign):
    crew(campaign, bo_luck=3)
    campaign.given(roll("Anna", "guile", [3, 3], id="r1"), luck("Bo", "hinder", "r1"))
    campaign.when(luck("Bo", "help", "r1"))
    campaign.then_rejected(match=r"help or hinder a crewmate's roll: only once per move \(r1\) \(L46; P-7\)")
    campaign.given(roll("Anna", "guile", [3, 3], id="r2"))
    campaign.when(luck("Bo", "help", "r2"))
    campaign.then(events.LimitUsed(limit="luck_help_or_hinder", instance="r2", holder="Bo"), events.LuckSpent(),
                  events.MoveModified(), events.RollModified())


def test_breakdown_once_per_battle_reset_by_the_next_battle(campaign):
    crew(campaign)
    campaign.given(pirates.ship("Brig"), step("start_battle"), step("take_breakdown", ship="Chaika", breakdown="wet_powder"))
    campaign.given(step("take_breakdown", ship="Brig", breakdown="wet_powder"))  # per ship
    campaign.given(step("gain_money", to="Chaika", chests=1), step("enter_port", ship="Chaika"),
                   step("repair_ship", ship="Chaika", what="breakdown"))
    campaign.when(step("take_breakdown", ship="Chaika", breakdown="torn_sails"))
    campaign.then_rejected(match=r"a ship may take a breakdown instead of a hole: only once per battle \(battle 1\) \(L140\)")
    campaign.given(step("end_battle"), step("start_battle"))
    campaign.when(step("take_breakdown", ship="Chaika", breakdown="torn_sails"))
    campaign.then(events.LimitUsed(instance="battle 2", holder="Chaika"), events.BrokeDown(breakdown="torn_sails"))


def test_one_active_breakdown_until_removed_in_port(campaign):
    crew(campaign)
    campaign.given(step("start_battle"), step("take_breakdown", ship="Chaika", breakdown="wet_powder"),
                   step("end_battle"), step("start_battle"))
    campaign.when(step("take_breakdown", ship="Chaika", breakdown="torn_sails"))
    campaign.then_rejected(match=r"breakdown: Chaika already has a breakdown \(wet_powder\).*\(L144\)")


def test_tall_tale_one_pirate_per_carousal_reset_by_the_next_carousal(campaign):
    crew(campaign)
    campaign.given(step("enter_port", ship="Chaika"), step("start_carousal"), step("tell_tall_tale", character="Anna"))
    campaign.when(step("tell_tall_tale", character="Bo"))
    campaign.then_rejected(match=r"only one pirate regains luck for a tall tale: only once per carousal 1 \(L52 \(HB\)\)")
    campaign.given(step("end_carousal"), step("start_carousal"))
    campaign.when(step("tell_tall_tale", character="Bo"))
    campaign.then(events.LimitUsed(instance="carousal 2", holder="crew"), events.LuckGained(character="Bo", amount=1))


def test_sea_repair_one_hole_per_stay_at_sea_reset_in_port(campaign):
    crew(campaign)
    campaign.given(*[step("take_hole", ship="Chaika")] * 3, step("repair_ship", ship="Chaika", what="hull"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then_rejected(match=r"at sea only one hole may be patched: only once per stay at sea \(Chaika at sea 1\)")
    campaign.given(step("enter_port", ship="Chaika"), step("put_to_sea", ship="Chaika"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then(events.LimitUsed(instance="Chaika at sea 2"), events.HullRepaired(hull=3, at="sea"))


def test_each_development_once_per_ship_for_good(campaign):
    crew(campaign, development_conditions="ever")
    campaign.given(pirates.ship("Brig", in_port=True, treasury_piastres=600))
    campaign.given(step("gain_money", to="Chaika", chests=12), step("enter_port", ship="Chaika"))
    for ship in ("Chaika", "Brig"):
        campaign.given(*[step("meet_condition", ship=ship, condition=c) for c in ("survived_sea_battle", "spilled_blood")])
    campaign.given(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then_rejected(match=r"each development can be chosen only once: only once per ship \(Chaika\) \(L166\)")
    campaign.given(step("put_to_sea", ship="Chaika"), step("enter_port", ship="Chaika"))
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then_rejected(match="only once per ship")
    campaign.when(step("upgrade_ship", ship="Brig", option="new_guns"))  # another ship has its own
    campaign.then(events.MoneySpent(ship="Brig"), events.LimitUsed(holder="Brig"), events.Developed(option="new_guns"))


def test_a_fate_is_struck_per_player_for_the_whole_campaign(campaign):
    crew(campaign)
    campaign.given(step("start_chapter"), *[pirates.wounded(n, "terrible") for n in ("Anna", "Bo")])
    campaign.given(step("end_chapter"), step("meet_fate", character="Anna", dice=[4, 4]),
                   step("meet_fate", character="Bo", dice=[4, 4]),
                   step("choose_fate", character="Anna", option="ugly_scar"))
    campaign.given(step("start_chapter"), step("end_chapter"), step("meet_fate", character="Anna", dice=[4, 4]))
    campaign.when(step("choose_fate", character="Anna", option="ugly_scar"))
    campaign.then_rejected(match="ugly_scar is struck for player:anna until the end of the campaign")
    campaign.when(step("choose_fate", character="Bo", option="ugly_scar"))  # another player
    campaign.then(events.LimitUsed(holder="player:bo", instance="ugly_scar"), events.FateChosen(), events.FateOptionStruck())


def test_no_limit_when_luck_is_mandatory(campaign):
    """S6 has no per-move limit: every point of harm on full slots costs its luck (L70-L71)."""
    crew(campaign, anna_luck=3)
    campaign.given(*[pirates.wounded("Anna", "terrible")] * 3)
    campaign.when(harm("Anna", 3))
    campaign.then(*[events.LuckLost(character="Anna", amount=1)] * 3)
