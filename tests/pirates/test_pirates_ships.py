"""Ships (§9): holes, breakdowns, repairs at sea and in port, development, secrets, money (§4.7)."""

from __future__ import annotations

import pytest

from rollbook.testing import events, pirates

from .pirates_crew import crew, luck, roll, step

CHEST = 50


def _in_port(campaign, chests: int, **options):
    crew(campaign, **options)
    campaign.given(step("gain_money", to="Chaika", chests=chests), step("enter_port", ship="Chaika"))


# --- holes and breakdowns ------------------------------------------------------------------------------


def test_a_hole_at_hull_0_triggers_dont_go_under(campaign):
    crew(campaign)
    campaign.given(pirates.ship("Dinghy", hull=1))
    campaign.when(step("take_hole", ship="Dinghy"))
    campaign.then(events.Holed(ship="Dinghy", hull=0))
    campaign.when(step("take_hole", ship="Dinghy"))
    campaign.then(events.Sinking(ship="Dinghy"))
    assert (campaign.sheet("Dinghy")["hull"], campaign.sheet("Dinghy")["must_not_go_under"]) == (0, True)
    campaign.when(roll("Anna", "audacity", [4, 4], move="dont_go_under"))
    campaign.then_rejected(match="name the ship: the campaign has 2 ships")
    campaign.when(roll("Anna", "audacity", [4, 4], move="dont_go_under", ship="Dinghy", id="d"))
    campaign.then(events.DiceRolled(), events.MoveBegun(), events.MoveRolled(), events.DontGoUnderPlayed(roll="d"))


def test_the_sinking_ship_comes_first_only_luck_harm_and_holes_go_on_l138(campaign):
    """L138 «немедленно разыграйте»: while Chaika owes Don't Go Under, no pirate makes another move."""
    crew(campaign)
    campaign.given(roll("Bo", "guile", [2, 2], id="open"), *[step("take_hole", ship="Chaika")] * 5)
    campaign.when(roll("Anna", "audacity", [4, 4]))
    campaign.then_rejected(match=r"move: Chaika must play Don't Go Under \(Не пойти ко дну\) first: .*\(L138")
    campaign.when(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[4, 4]))
    campaign.then_rejected(match=r"type: Chaika must play Don't Go Under")
    campaign.when(luck("Anna", "help", "open"))
    campaign.then(events.LimitUsed(), events.LuckSpent(character="Anna", purpose="help"), events.MoveModified(),
                  events.RollModified())
    campaign.when(step("take_hole", ship="Chaika"))
    campaign.then(events.Sinking(ship="Chaika"))
    campaign.when(roll("Bo", "audacity", [4, 4], move="dont_go_under", id="d"))
    campaign.then(events.LimitsReleased(instance="open"), events.DiceRolled(), events.MoveBegun(), events.MoveRolled(),
                  events.DontGoUnderPlayed(ship="Chaika", roll="d"))
    campaign.when(roll("Anna", "audacity", [4, 4]))
    campaign.then(events.DiceRolled(), events.MoveBegun(character="Anna"), events.MoveRolled())


def test_a_breakdown_needs_a_battle(campaign):
    crew(campaign)
    campaign.when(step("take_breakdown", ship="Chaika", breakdown="wet_powder"))
    campaign.then_rejected(match="counts per battle .*, and no battle is open")


@pytest.mark.parametrize(
    ("breakdown", "stat"), [("torn_sails", "navigation"), ("wrecked_deck", "displacement"), ("wet_powder", "firepower")]
)
def test_each_breakdown_lowers_its_stat_and_port_repair_restores_it(campaign, breakdown, stat):
    crew(campaign)
    before = campaign.sheet("Chaika")[stat]
    campaign.given(step("start_battle"), step("take_breakdown", ship="Chaika", breakdown=breakdown), step("end_battle"))
    assert campaign.sheet("Chaika")[stat] == before - 1
    campaign.given(step("gain_money", to="Bo", chests=1), step("enter_port", ship="Chaika"))
    campaign.when(step("repair_ship", ship="Chaika", what="breakdown", paid_by="Bo"))
    campaign.then(
        events.MoneySpent(character="Bo", piastres=CHEST),
        events.BreakdownRemoved(ship="Chaika", breakdown=breakdown, stat=stat, value=before),
    )
    assert campaign.sheet("Chaika")["breakdown"] is None


def test_a_stat_developed_while_broken_overflows_into_hull_when_repaired(campaign):
    _in_port(campaign, 7)
    campaign.given(pirates.ship("Brig", navigation=3, hull=4, in_port=True, treasury_piastres=7 * CHEST))
    campaign.given(step("start_battle"), step("take_breakdown", ship="Brig", breakdown="torn_sails"), step("end_battle"))
    campaign.given(*[step("meet_condition", ship="Brig", condition=c) for c in ("survived_sea_battle", "spilled_blood")])
    campaign.given(step("upgrade_ship", ship="Brig", option="new_masts"))  # 2 -> 3, Hull 4 -> 5
    assert (campaign.sheet("Brig")["navigation"], campaign.sheet("Brig")["hull"]) == (3, 5)
    campaign.when(step("repair_ship", ship="Brig", what="breakdown"))
    campaign.then(events.MoneySpent(ship="Brig"), events.BreakdownRemoved(stat="navigation", value=3, hull=6))


def test_sea_repair_patches_only_one_hole_between_port_visits_p21(campaign):
    crew(campaign)
    campaign.given(step("take_hole", ship="Chaika"), step("take_hole", ship="Chaika"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then(events.LimitUsed(limit="sea_repair_hole", instance="Chaika at sea 1"), events.HullRepaired(hull=3, at="sea"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then_rejected(match="at sea only one hole may be patched: only once per stay at sea")
    campaign.when(step("repair_ship", ship="Chaika", what="breakdown"))
    campaign.then_rejected(match="no breakdown to remove")
    campaign.when(step("repair_ship", ship="Chaika", what="hull", paid_by="Chaika"))
    campaign.then_rejected(match="paid_by: a hole patched at sea")


def test_port_repair_costs_a_chest_per_hull_point_up_to_6_p17(campaign):
    _in_port(campaign, 3)
    campaign.given(step("repair_ship", ship="Chaika", what="hull"), step("repair_ship", ship="Chaika", what="hull"))
    assert (campaign.sheet("Chaika")["hull"], campaign.sheet("Chaika")["treasury"]["chests"]) == (6, 1)
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then_rejected(match="Hull is 6, already at its most")


def test_a_rated_hull_caps_repairs_with_the_option_p17b(campaign):
    _in_port(campaign, 3, hull="rated")
    campaign.given(step("take_hole", ship="Chaika"))
    campaign.given(step("repair_ship", ship="Chaika", what="hull"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then_rejected(match="Hull is 4, already at its most")


def test_port_repair_without_money_is_refused(campaign):
    crew(campaign)
    campaign.given(step("take_hole", ship="Chaika"), step("enter_port", ship="Chaika"))
    campaign.when(step("repair_ship", ship="Chaika", what="hull"))
    campaign.then_rejected(match="paid_by: Chaika's treasury holds 0 piastres")


def test_port_and_sea_are_states(campaign):
    crew(campaign)
    campaign.when(step("put_to_sea", ship="Chaika"))
    campaign.then_rejected(match="Chaika is already at sea")
    campaign.given(step("enter_port", ship="Chaika"))
    campaign.when(step("enter_port", ship="Chaika"))
    campaign.then_rejected(match="already in port")
    campaign.when(step("put_to_sea", ship="Chaika"))
    campaign.then(events.PutToSea(ship="Chaika", voyage=2))


# --- development ----------------------------------------------------------------------------------------


def _ready(campaign, chests: int = 6, **options):
    _in_port(campaign, chests, **options)
    campaign.given(*[step("meet_condition", ship="Chaika", condition=c) for c in ("survived_sea_battle", "spilled_blood")])


def test_digest_development_example(campaign):
    _ready(campaign)
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then(
        events.MoneySpent(ship="Chaika", piastres=6 * CHEST),
        events.LimitUsed(limit="development_option", instance="new_guns", holder="Chaika"),
        events.Developed(option="new_guns", stat="firepower", value=2, hull=5, conditions_used=[
            "survived_sea_battle", "spilled_blood"]),
    )
    sheet = campaign.sheet("Chaika")
    assert (sheet["firepower"], sheet["hull"], sheet["treasury_piastres"], sheet["conditions"]) == (2, 5, 0, [])


def test_development_needs_port_two_conditions_and_six_chests(campaign):
    _in_port(campaign, 5)
    campaign.given(step("meet_condition", ship="Chaika", condition="moored_new_shore"))
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then_rejected(match="met 1 of the 2 conditions")
    campaign.when(step("meet_condition", ship="Chaika", condition="moored_new_shore"))
    campaign.then_rejected(match="already met moored_new_shore")
    campaign.given(step("meet_condition", ship="Chaika", condition="spilled_blood"))
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then_rejected(match="treasury holds 250 piastres .*, not 300")
    campaign.given(step("gain_money", to="Chaika", doubloons=10), step("put_to_sea", ship="Chaika"))
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_guns"))
    campaign.then_rejected(match="at sea: a ship is developed only in port")


def test_a_development_at_stat_3_goes_to_hull_p18_and_hull_stops_at_6(campaign):
    _ready(campaign, 6)
    campaign.given(pirates.ship("Brig", firepower=3, hull=5, in_port=True, treasury_piastres=6 * CHEST))
    campaign.given(*[step("meet_condition", ship="Brig", condition=c) for c in ("survived_sea_battle", "spilled_blood")])
    campaign.when(step("upgrade_ship", ship="Brig", option="new_guns"))
    campaign.then(events.MoneySpent(), events.LimitUsed(), events.Developed(stat="firepower", value=3, hull=6))


def test_ship_moves_and_rigging_are_picked_from_the_book(campaign):
    _ready(campaign, 12, development_conditions="ever")
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_rigging"))
    campaign.then_rejected(match="new_rigging needs a `pick`")
    campaign.when(step("upgrade_ship", ship="Chaika", option="new_rigging", pick="Black Flag"))
    campaign.then_rejected(match="no rigging named 'Black Flag'")
    campaign.given(step("upgrade_ship", ship="Chaika", option="new_rigging", pick="Strong Sails"))
    campaign.given(step("upgrade_ship", ship="Chaika", option="new_ship_move", pick="black_flag"))
    sheet = campaign.sheet("Chaika")
    assert (sheet["rigging"], sheet["ship_moves"], sheet["hull"]) == (["strong_sails"], ["black_flag"], 6)
    assert sheet["conditions"] == ["survived_sea_battle", "spilled_blood"]  # the P-19 option keeps them


def test_bonuses_past_3_overflow_into_hull_l113(campaign):
    crew(campaign)
    campaign.when(step("create_ship", name="Frigate", navigation=3, firepower=2, displacement=1, hull=4,
                       bonuses={"navigation": 1, "firepower": 2}))
    campaign.then(events.MemberJoined(), events.Created(ship="Frigate", navigation=3, firepower=3, hull=6))


# --- secrets -----------------------------------------------------------------------------------------------


def test_at_most_three_secrets_strike_one_of_four_p11(campaign):
    crew(campaign)
    campaign.given(step("gain_secret", secret="X3"))
    campaign.when(step("gain_secret", secret="X4"))
    campaign.then_rejected(match="cannot know more than 3 secrets")
    campaign.when(step("gain_secret", secret="X4", strike="X1"))
    campaign.then(events.SecretGained(ship="Chaika", secret="X4", struck="X1"))
    campaign.when(step("gain_secret", secret="X5", strike="X5"))
    campaign.then(events.SecretGained(secret="X5", struck="X5"))
    assert campaign.sheet("Chaika")["secrets"] == ["X2", "X3", "X4"]
    campaign.when(step("gain_secret", secret="X2", strike="X3"))
    campaign.then_rejected(match="already knows 'X2'")


# --- money -------------------------------------------------------------------------------------------------


def test_money_in_three_units_stored_as_piastres(campaign):
    crew(campaign)
    campaign.when(step("gain_money", to="Anna", chests=2, doubloons=3, piastres=4, reason="loot"))
    campaign.then(events.MoneyGained(character="Anna", piastres=119, reason="loot"))
    assert campaign.sheet("Anna")["purse"] == {"chests": 2, "doubloons": 3, "piastres": 4}
    campaign.when({"type": "transfer_money", "from": "Anna", "to": "Chaika", "chests": 2})
    campaign.then(events.MoneySpent(character="Anna", piastres=100), events.MoneyGained(ship="Chaika", piastres=100))
    campaign.when({"type": "spend_money", "from": "Anna", "piastres": 20})
    campaign.then_rejected(match="from: Anna's purse holds 19 piastres")
    campaign.when({"type": "spend_money", "from": "Kraken", "piastres": 1})
    campaign.then_rejected(match="from: no pirate or ship named 'Kraken'")
    campaign.when({"type": "spend_money", "from": "Anna"})
    campaign.then_rejected(match="more than 0 in all")
    campaign.when({"type": "gain_money", "to": "Anna", "chests": 1, "actor": "player:anna"})
    campaign.then_rejected(match="only the GM may gain_money")
    campaign.when({"type": "spend_money", "from": "Anna", "piastres": 1, "actor": "player:bo"})
    campaign.then_rejected(match="player:bo cannot act for 'Anna'")
    recorded = [e for e in campaign.events(bookkeeping=True) if e["type"] == "CommandApplied"][-1]["command"]
    assert (recorded["type"], recorded["from"], recorded["to"]) == ("transfer_money", "Anna", "Chaika")
