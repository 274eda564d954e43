"""Combat (§6, §7): initiative, actions, attack and defence, effects, minions and the special cases of §7.6."""

from __future__ import annotations

from rollbook.testing import ANY, events

from .heroes_builders import BLAST, STUN, hero, in_battle, minions

def attack(attacker: str, target: str, trait: str = "Blast", **fields) -> dict:
    return {"type": "attack", "attacker": attacker, "target": target, "trait": trait, **fields}


def test_initiative_ties_go_heroes_villains_opponents_others_and_minions_last(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(minions("Goons", 6, 3), hero("Other", role="other"), hero("Foe", role="opponent"),
                              hero("Boss", role="villain"), hero("Ann"), hero("Bea"), hero("Fast", agility=6)))
    order = campaign.campaign_sheet()["initiative"]["order"]
    assert order == [["Fast"], ["Ann", "Bea"], ["Boss"], ["Foe"], ["Other"], ["Goons"]]


def test_one_action_a_page_and_one_attack_per_target(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Bob"), hero("Cid")))
    campaign.dice(*[1] * 9).given(attack("Ann", "Bob"))
    campaign.when(attack("Ann", "Cid"))
    campaign.then_rejected(match=r"a character may act .*only once per page \(page 1\)")


def test_several_actions_cost_two_dice_each_and_never_the_same_target_twice(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Bob"), hero("Cid")),
                   {"type": "declare_actions", "character": "Ann", "count": 2})
    campaign.dice(*[1] * 7).given(attack("Ann", "Bob"))
    assert campaign.rolls()[0]["pool"] == [["Blast", 6], ["2 actions", -2]]
    campaign.when(attack("Ann", "Bob"))
    campaign.then_rejected(match=r"attack the same target: only once per page")
    campaign.dice(*[1] * 7).given(attack("Ann", "Cid"))
    defence = campaign.rolls()[-1]
    assert defence["role"] == "defence" and defence["pool"] == [["agility", 3]]  # defence unaffected (L142)


def test_a_delayed_action_waits_for_its_moment_and_is_lost_without_it(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Bob")),
                   {"type": "delay_action", "character": "Ann", "moment": "Bob moves"})
    campaign.when(attack("Ann", "Bob"))
    campaign.then_rejected(match="delayed the action until 'Bob moves'")
    campaign.when({"type": "next_page"})
    campaign.then(events.DelayedActionsLost(page=1, characters=["Ann"]), events.Ticked(number=2),
                  events.InitiativeSet(page=2))
    campaign.given({"type": "delay_action", "character": "Ann", "moment": "Bob moves"},
                   {"type": "trigger_moment", "moment": "Bob moves"})
    campaign.dice(*[1] * 9).when(attack("Ann", "Bob"))
    campaign.then(events.LimitUsed(limit="action"), events.LimitUsed(limit="attack_same_target"), events.Acted(),
                  events.DiceRolled(roll=ANY), events.DiceRolled(roll=ANY), events.ExchangeOpened(exchange=ANY))


def test_special_effects_add_up_count_down_and_defeat(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Stun": STUN}), hero("Bob", stamina=6, strength=6, agility=1)))
    # 6 dice, 5 successes vs Bob's full Stamina 6 (nonlethal) with 1: net 4 → 2 pages (L195).
    campaign.dice(2, 2, 2, 2, 2, 1, 2, 1, 1, 1, 1, 1).when(attack("Ann", "Bob", "Stun"))
    campaign.then(events.LimitUsed(), events.LimitUsed(), events.Acted(), events.DiceRolled(roll=ANY),
                  events.DiceRolled(roll=ANY), events.Damaged(character="Bob", damage=4, loss=4, health=2),
                  events.EffectChanged(character="Bob", effect="stun", state=ANY),
                  # Ann and Bob, two heroes of Edge 6, act at the same moment: his attack still comes (L132).
                  events.FelledInHisGroup(character="Bob", page=1, by="Ann"), events.ExchangeOpened(exchange=ANY))
    stun = campaign.sheet("Bob")["effects"]["stun"]
    # 2 pages ≥ Health 2: defeated by the effect for the rest of the scene (L195).
    assert (stun["pages"], stun["until"], stun["defeating"]) == (2, "scene", True)
    assert campaign.sheet("Bob")["defeated"]
    campaign.given({"type": "end_scene"})
    assert campaign.sheet("Bob")["effects"] == {} and not campaign.sheet("Bob")["defeated"]


def test_an_effect_counts_down_at_the_end_of_the_targets_turn(campaign) -> None:
    """H-11: an effect applied after the target's turn in the page costs it its next turn."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", agility=1, perception=1, intellect=1, powers={"Stun": STUN}),
                              hero("Bob", agility=5, stamina=6, strength=6)))
    # Bob (Edge 8) goes before Ann (Edge 2): his turn has passed when Ann stuns him.
    campaign.given({"type": "pass", "character": "Bob"})
    campaign.dice(2, 2, 2, 1, 1, 1, *[1] * 6).given(attack("Ann", "Bob", "Stun"))
    assert campaign.sheet("Bob")["effects"]["stun"]["pages"] == 2
    campaign.given({"type": "next_page"})
    assert campaign.sheet("Bob")["effects"]["stun"]["pages"] == 2  # not yet: his turn had passed
    campaign.given({"type": "next_page"})
    assert campaign.sheet("Bob")["effects"]["stun"]["pages"] == 1
    campaign.given({"type": "next_page"})
    assert campaign.sheet("Bob")["effects"] == {}


def test_every_page_countdown_is_an_option(campaign) -> None:
    campaign.of("heroes", effect_countdown="every_page")
    campaign.given(*in_battle(hero("Ann", agility=1, perception=1, intellect=1, powers={"Stun": STUN}),
                              hero("Bob", agility=5, stamina=6, strength=6)))
    campaign.given({"type": "pass", "character": "Bob"})  # Edge 8 before Ann's 2 (L126)
    campaign.dice(2, 2, 2, 1, 1, 1, *[1] * 6).given(attack("Ann", "Bob", "Stun"), {"type": "next_page"})
    assert campaign.sheet("Bob")["effects"]["stun"]["pages"] == 1


def test_escaping_an_effect_shortens_it_by_half_the_net(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=4, stamina=6, will=6)),
                   {"type": "apply_effect", "character": "Ann", "effect": "web", "pages": 4})
    campaign.dice(6, 2, 1, 1).when({"type": "escape_effect", "character": "Ann", "effect": "web", "trait": "strength",
                                    "difficulty": 0})
    assert campaign.sheet("Ann")["effects"]["web"]["pages"] == 2
    campaign.dice(6, 6, 1, 1).when({"type": "escape_effect", "character": "Ann", "effect": "web", "trait": "strength"})
    campaign.then(events.DiceRolled(roll=ANY), events.EffectEnded(character="Ann", effect="web"),
                  events.ExchangeOpened(exchange=ANY))


def test_an_effect_on_a_defeated_foe_is_extended_to_the_next_scene(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann"), hero("Bob", stamina=1, strength=1, will=1)),
                   {"type": "apply_effect", "character": "Bob", "effect": "ice", "pages": 2})
    campaign.given({"type": "spend_resolve", "character": "Ann", "purpose": "extend_effect", "target": "Bob",
                    "effect": "ice"})
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "extend_effect", "target": "Bob",
                   "effect": "ice"})
    campaign.then_rejected(match="only once per scene")
    campaign.given({"type": "end_scene"}, {"type": "start_scene"})
    assert campaign.sheet("Bob")["effects"]["ice"]["until"] == "scene" and campaign.sheet("Bob")["defeated"]
    campaign.given({"type": "end_scene"})
    assert campaign.sheet("Bob")["effects"] == {}


def test_one_attack_defeats_one_minion(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), minions("Goons", 2, 4)))
    campaign.dice(6, 6, 6, 6, 6, 6, 1, 1).given(attack("Ann", "Goons"))
    assert (campaign.sheet("Goons")["health"], campaign.sheet("Goons")["max_health"]) == (3, 4)


def test_each_net_success_defeats_a_minion_under_the_option(campaign) -> None:
    campaign.of("heroes", minions="per_net_success")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), minions("Goons", 2, 4)))
    campaign.dice(6, 2, 1, 1, 1, 1, 1, 1).given(attack("Ann", "Goons"))
    assert campaign.sheet("Goons")["health"] == 1


def test_an_area_attack_is_one_roll_and_every_minion_defends(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), minions("Goons", 2, 3),
                              hero("Bob", agility=6, stamina=2)))
    # Attack [2,2,1,1,1,1] = 2; three minions defend with half Agility 1 (active, halved, L249) and one
    # holds with a 6; Bob defends with his full Agility 6 and skips his next page.
    campaign.given({"type": "pass", "character": "Bob"})  # Edge 9 before Ann's 6 (L126)
    campaign.dice(2, 2, 1, 1, 1, 1, 1, 6, 2, 1, 1, 1, 1, 1, 1).when(
        {"type": "area_attack", "attacker": "Ann", "targets": ["Goons", "Bob"], "trait": "Blast",
         "dodge": {"Bob": "skip"}})
    assert campaign.sheet("Goons")["health"] == 1
    assert campaign.sheet("Bob")["health"] == 3 - 2 and campaign.sheet("Bob")["lost_pages"] == [2]


def test_a_charge_adds_two_dice_and_the_charger_may_hurt_himself(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=3, stamina=2), hero("Wall", agility=1, stamina=6, strength=6)))
    # Ann: 3 + 2 dice [6,6,6,2,2] = 8; Wall passive ceil(6/2) = 3 [1,1,1]: 8 damage; Ann's own passive 1 [1]: 8 − 8 = 0.
    campaign.dice(6, 6, 6, 2, 2, 1, 1, 1, 1).when(attack("Ann", "Wall", "strength", charge=True))
    assert campaign.sheet("Wall")["health"] == 0 and campaign.sheet("Ann")["health"] == 3
    assert campaign.rolls()[0]["pool"] == [["strength", 3], ["charge", 2]]


def test_charge_backlash_is_reduced_by_the_damage_dealt(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=3, stamina=2, will=6), hero("Wall", agility=1, stamina=6,
                                                                                strength=6)))
    # 5 dice [6,6,6,6,2] = 9; Wall [6,6,6] = 6 → 3 damage; Ann's own passive [1]: 9 − 0 − 3 = 6.
    campaign.dice(6, 6, 6, 6, 2, 6, 6, 6, 1).when(attack("Ann", "Wall", "strength", charge=True))
    assert campaign.sheet("Wall")["health"] == 3 and campaign.sheet("Ann")["health"] == 0


def test_hitting_one_foe_with_another(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=6), hero("Club", agility=4, stamina=1), hero("Bob", agility=1)))
    campaign.given({"type": "pass", "character": "Club"})  # Edge 7 before Ann's 6 (L126)
    # 6 − 2 dice [6,6,1,1] = 4; Club dodges (active Agility 4) [6,6,1,1] = 4: unhurt, so Bob takes nothing (L255).
    campaign.dice(6, 6, 1, 1, 6, 6, 1, 1, 1, 1).when(
        {"type": "club_attack", "attacker": "Ann", "club": "Club", "target": "Bob", "trait": "strength"})
    assert campaign.sheet("Club")["health"] == 2 and campaign.sheet("Bob")["health"] == 3


def test_team_attacks_once_per_battle_with_exploding_sixes_for_resolve(campaign) -> None:
    campaign.of("heroes", trait_limit=6)
    campaign.given(*in_battle(hero("Ann", strength=2), hero("Bea", strength=2), hero("Ogre", agility=1, stamina=6,
                                                                                     strength=6, will=6)))
    team = {"type": "team_attack", "target": "Ogre", "members": [
        {"attacker": "Ann", "trait": "strength", "explode": True}, {"attacker": "Bea", "trait": "strength"}]}
    # Ann 2 + 2 dice, exploding: [6,1,1,1] + [6] + [2] = 5; Ogre [1,1,1]; Bea [2,1,1,1] = 1; Ogre [1,1,2].
    campaign.given({"type": "pass", "character": "Ogre"})  # a team attack comes at the page's end (L272)
    campaign.dice(6, 1, 1, 1, 6, 2, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2).when(team)
    assert campaign.sheet("Ogre")["health"] == 6 - 5
    assert [d["faces"] for d in campaign.rolls()[0]["dice"]][0] == [6, 6, 2]
    assert campaign.sheet("Ann")["resolve"] == 6 - 1
    campaign.given({"type": "next_page"}, {"type": "pass", "character": "Ogre"})
    campaign.when(team)
    campaign.then_rejected(match=r"team attack: only once per battle")


def test_all_out_attack_halves_the_attackers_defences_for_the_page(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", agility=6, perception=6, powers={"Blast": BLAST}),
                              hero("Bob", strength=4)))
    campaign.dice(*[1] * 11).given(attack("Ann", "Bob", all_out=True))
    campaign.dice(1, 1, 1, 1, 1, 1, 1).given(attack("Bob", "Ann", "strength"))
    assert campaign.rolls()[-1]["pool"] == [["half agility (L251, L249, L261)", 3]]


def test_all_out_defence_adds_two_dice_and_forbids_actions(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann"), hero("Bob", strength=4, powers={"Blast": BLAST})),
                   {"type": "all_out_defence", "character": "Ann"})
    campaign.when(attack("Ann", "Bob", "strength"))
    campaign.then_rejected(match="all-out defence")
    campaign.dice(*[1] * 11).given(attack("Bob", "Ann"))
    assert campaign.rolls()[-1]["pool"] == [["agility", 3], ["all-out defence", 2]]


def test_protecting_another_with_passive_defence_takes_the_damage(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Tank", agility=1, stamina=6, strength=6), hero("Ann"),
                              hero("Bob", powers={"Blast": BLAST})),
                   {"type": "protect", "character": "Tank", "ward": "Ann"}, {"type": "next_page"})
    campaign.dice(6, 6, 6, 1, 1, 1, 2, 1, 1).when(attack("Bob", "Ann"))
    assert campaign.sheet("Tank")["health"] == 6 - 5 and campaign.sheet("Ann")["health"] == 3
    # The action of his next page, not the page (L257, L141): he may still move in it.
    assert (campaign.sheet("Tank")["lost_pages"], campaign.sheet("Tank")["actions_given_up"]) == ([], [2])


def test_knockback_after_six_damage_costs_the_next_page_and_hurts_on_impact(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": {"rank": 8, "uses": ["attack"]}}),
                              hero("Ogre", agility=1, stamina=8, strength=8)))
    campaign.dice(6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1).given(attack("Ann", "Ogre"))
    assert campaign.sheet("Ogre")["health"] == 2
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "knockback", "into_object": True})
    campaign.then(events.ResolveSpent(purpose="knockback"),
                  events.PageLost(character="Ogre", page=2,
                                  reason="knocked back by Ann (far range): the knockback costs the next page (L266)"),
                  events.Damaged(character="Ogre", damage=3, loss=2, health=0),
                  events.ExchangeRevised(exchange=ANY, reason=ANY))
    campaign.when({"type": "spend_resolve", "character": "Ogre", "purpose": "dice"})
    campaign.then_rejected(match="settled")


def test_knockback_needs_six_damage(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Blast": BLAST}), hero("Ogre", stamina=6, strength=6)))
    campaign.dice(6, 6, 1, 1, 1, 1, 1, 1, 1).given(attack("Ann", "Ogre"))
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "knockback"})
    campaign.then_rejected(match="needs 6 or more")


def test_a_redirect_needs_active_defence_three_better_and_sends_the_attack_on(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", agility=5), hero("Bob", strength=2), hero("Cid", agility=1, stamina=2)),
                   {"type": "pass", "character": "Ann"})  # Edge 8 before Bob's 6 (L126)
    campaign.dice(1, 1, 6, 6, 1, 1, 1).given(attack("Bob", "Ann", "strength", redirect=True))
    campaign.dice(2).when({"type": "spend_resolve", "character": "Ann", "purpose": "redirect",
                              "redirect_at": "Cid"})
    assert campaign.sheet("Cid")["health"] == 3 - 0 and campaign.sheet("Ann")["lost_pages"] == [2]
    assert campaign.rolls()[-1]["character"] == "Cid"


def test_a_redirect_must_be_declared_before_the_defence(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", agility=5), hero("Bob", strength=2)), {"type": "pass", "character": "Ann"})
    campaign.dice(1, 1, 6, 6, 1, 1, 1).given(attack("Bob", "Ann", "strength"))
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "redirect"})
    campaign.then_rejected(match="declared before the defence roll")


def test_grappling_partial_then_strength_against_strength(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=5), hero("Bob", agility=2, strength=2)))
    campaign.dice(2, 2, 1, 1, 1, 1, 1).given({"type": "grapple", "attacker": "Ann", "target": "Bob"})
    assert campaign.campaign_sheet()["grapples"]["Ann>Bob"]["result"] == "partial"
    campaign.given({"type": "next_page"})
    campaign.dice(6, 2, 1, 1, 1, 1, 1).given({"type": "grapple", "attacker": "Ann", "target": "Bob"})
    assert campaign.rolls()[-1]["pool"] == [["strength", 2]]
    assert campaign.campaign_sheet()["grapples"]["Ann>Bob"]["result"] == "held"


def test_a_taunt_of_five_net_costs_the_page_and_three_dice(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", talents={"Charisma": 5}), hero("Bob", will=1, agility=6)),
                   {"type": "pass", "character": "Bob"})
    campaign.dice(6, 6, 2, 1, 1, 1).when({"type": "manoeuvre", "attacker": "Ann", "target": "Bob",
                                          "manoeuvre": "taunt", "trait": "Charisma"})
    bob = campaign.sheet("Bob")
    assert bob["effects"]["taunt"]["penalty"] == 3 and bob["effects"]["taunt"]["pages"] == 3
    assert bob["lost_pages"] == [2]  # Bob's turn had passed (Edge 9 > Ann's 6)


def test_an_ambush_surprises_or_leaves_only_active_defence(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann", talents={"Stealth": 5}), hero("Bob", perception=2), hero("Cid", perception=2),
                   minions("Goons", 2, 2), {"type": "start_story"}, {"type": "start_issue"},
                   {"type": "start_scene"}, {"type": "start_battle"})
    campaign.dice(6, 2, 2, 1, 1, 1, 1, 2, 2).when({"type": "ambush", "ambusher": "Ann", "trait": "Stealth",
                                                   "targets": ["Bob", "Cid", "Goons"]})
    assert campaign.rolls()[0]["outcome"] == "Bob: surprised, Cid: caught, Goons: surprised"
    campaign.given({"type": "next_page"})
    assert campaign.sheet("Bob")["lost_pages"] == [1] and campaign.sheet("Cid")["lost_pages"] == [1]
    campaign.when(attack("Cid", "Ann", "strength"))
    campaign.then_rejected(match="loses page 1")


def test_a_chase_check_a_page_until_cornered(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Cop", agility=4), hero("Thief", agility=3)),
                   {"type": "start_chase", "chase": "alley", "pursuer": "Cop", "quarry": "Thief", "distance": "close"})
    check = {"type": "chase_check", "chase": "alley", "pursuer_trait": "agility", "quarry_trait": "agility"}
    campaign.dice(6, 6, 1, 1, 1, 1, 1).given(check)
    assert campaign.campaign_sheet()["chases"]["alley"]["distance"] == "cornered"
    campaign.when(check)
    campaign.then_rejected(match="is over")


def test_movement_changes_range_over_two_pages_on_foot(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Jets": {"rank": 6, "uses": ["movement"]}}), hero("Bob")),
                   {"type": "set_distance", "character": "Ann", "other": "Bob", "distance": "far"})
    move = {"type": "move", "character": "Bob", "other": "Ann", "to": "close"}
    campaign.given(move)
    assert campaign.campaign_sheet()["distances"] == {"Ann|Bob": "far"}
    campaign.when(move)
    campaign.then_rejected(match="a character may declare a movement: only once per page")
    campaign.given({"type": "next_page"}, move)
    assert campaign.campaign_sheet()["distances"] == {"Ann|Bob": "close"}
    campaign.given({"type": "move", "character": "Ann", "other": "Bob", "to": "far", "power": "Jets"})
    assert campaign.campaign_sheet()["distances"] == {"Ann|Bob": "far"}


def test_take_damage_defeats_at_zero(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann")))
    campaign.when({"type": "take_damage", "character": "Ann", "amount": 9})
    campaign.then(events.Damaged(character="Ann", damage=9, loss=3, health=0, page=1))
    assert campaign.sheet("Ann")["defeated"]
    campaign.when({"type": "take_damage", "character": "Ann", "amount": 1})
    campaign.then_rejected(match="already defeated")


def test_a_battle_needs_its_first_page(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob"), {"type": "start_story"}, {"type": "start_issue"},
                   {"type": "start_scene"}, {"type": "start_battle"})
    campaign.when(attack("Ann", "Bob", "strength"))
    campaign.then_rejected(match="has not begun its first page")
    campaign.given({"type": "end_scene"})
    campaign.when({"type": "next_page"})
    campaign.then_rejected(match="start a scene first")


def test_players_act_only_for_their_own_heroes(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", player="ann"), hero("Bob", player="bob")))
    campaign.when({**attack("Bob", "Ann", "strength"), "actor": "player:ann"})
    campaign.then_rejected(match="cannot act for 'Bob'")
    campaign.when({"type": "next_page", "actor": "player:ann"})
    campaign.then_rejected(match="only the GM")


def test_several_ambushers_roll_as_a_group_by_the_help_rules(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann", talents={"Stealth": 2}), hero("Bea", talents={"Stealth": 4}), hero("Bob"),
                   {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"},
                   {"type": "start_battle"})
    campaign.dice(6, 2, 2, 2).given({"type": "help", "helper": "Bea", "character": "Ann", "trait": "Stealth"})
    campaign.dice(6, 6, 1, 1, 1, 1, 1).when({"type": "ambush", "ambusher": "Ann", "trait": "Stealth",
                                             "targets": ["Bob"]})
    ambush = campaign.rolls()[-2]
    assert ambush["pool"] == [["Stealth", 2], ["help from Bea", 2]] and ambush["outcome"] == "Bob: surprised"
