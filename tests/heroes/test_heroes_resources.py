"""Resolve, Adversity and the Defining Moment (§4): gains, spends, limits and their scopes."""

from __future__ import annotations

from rollbook.testing import ANY, events

from .heroes_builders import BLAST, hero, in_battle, in_scene


def moment(name: str, effort: str = "physical", **fields) -> dict:
    return {"type": "declare_defining_moment", "character": name, "effort": effort, **fields}


def test_a_defining_moment_is_once_per_story_and_allowed_again_in_the_next(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann")))
    campaign.when(moment("Ann"))
    campaign.then(
        events.LimitUsed(limit="defining_moment", scope="story", instance="story 1", holder="Ann"),
        events.Claimed(what="defining_moment", by="Ann"),
        events.DefiningMomentDeclared(character="Ann", story=1, scene=1, effort="physical", lasting=False),
    )
    campaign.given({"type": "end_defining_moment", "character": "Ann"},
                   {"type": "lower_ability", "character": "Ann", "ability": "agility"},
                   {"type": "end_scene"}, {"type": "start_scene"})
    campaign.when(moment("Ann"))
    campaign.then_rejected(match=r"only once per story \(story 1\) \(L19, L79\)")
    campaign.given({"type": "end_story"}, {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"})
    campaign.when(moment("Ann", "mental"))
    campaign.then(events.LimitUsed(instance="story 2"), events.Claimed(), events.DefiningMomentDeclared(story=2))
    assert campaign.sheet("Ann")["defining_moment_used"] == 2


def test_only_one_hero_per_scene_declares_a_defining_moment(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann"), hero("Bob")), moment("Ann"))
    campaign.when(moment("Bob"))
    campaign.then_rejected(match=r"only one hero per scene .* \(L79\): Ann did in scene 1")
    campaign.given({"type": "end_scene"}, {"type": "start_scene"})
    campaign.when(moment("Bob"))
    campaign.then(events.LimitUsed(holder="Bob"), events.Claimed(by="Bob"), events.DefiningMomentDeclared())


def test_only_heroes_declare_defining_moments(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Boss", role="villain")))
    campaign.when(moment("Boss"))
    campaign.then_rejected(match="H-22")


def test_a_moment_explodes_sixes_triples_resolve_dice_and_costs_an_ability(campaign) -> None:
    campaign.of("heroes", trait_limit=7)
    campaign.given(*in_scene(hero("Ann", will=6, strength=1, stamina=1)), moment("Ann", "mental"))
    assert campaign.sheet("Ann")["resolve"] == 2 and campaign.sheet("Ann")["max_health"] == 4
    campaign.dice(6, 1, 1, 1, 1, 1, 6, 1).when({"type": "roll_check", "character": "Ann", "trait": "will",
                                                  "difficulty": 5})
    roll = campaign.rolls()[-1]
    assert roll["total"] == 4 and roll["dm"] is True and [d["faces"] for d in roll["dice"]][0] == [6, 6, 1]
    assert campaign.sheet("Ann")["must_lower_ability"] == "mental"
    # Resolve on the Moment's roll after it: 3 dice each, exploding too (L77).
    campaign.dice(2, 2, 6, 1).when({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    assert campaign.rolls()[-1]["faces"] == [2, 2, 6, 1] and campaign.rolls()[0]["total"] == 8
    campaign.when({"type": "lower_ability", "character": "Ann", "ability": "strength"})
    campaign.then_rejected(match=r"mental Defining Moment the rank comes off intellect, perception, will \(L79\)")
    campaign.when({"type": "lower_ability", "character": "Ann", "ability": "will"})
    campaign.then(events.AbilityLowered(character="Ann", ability="will", rank=5, health=3))
    sheet = campaign.sheet("Ann")
    assert (sheet["abilities"]["will"], sheet["max_health"], sheet["must_lower_ability"]) == (5, 3, None)
    campaign.when({"type": "lower_ability", "character": "Ann", "ability": "will"})
    campaign.then_rejected(match="owes no Ability rank")


def test_a_lasting_moment_covers_every_action_roll_until_it_ends(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", strength=1)), moment("Ann", lasting=True))
    campaign.dice(6, 1).given({"type": "roll_check", "character": "Ann", "trait": "strength"})
    campaign.dice(6, 2).given({"type": "roll_check", "character": "Ann", "trait": "strength"})
    assert [r["faces"] for r in campaign.rolls()] == [[6, 1], [6, 2]]
    campaign.when({"type": "end_defining_moment", "character": "Ann"})
    campaign.then(events.DefiningMomentEnded(character="Ann", effort="physical"))
    campaign.dice(6).given({"type": "roll_check", "character": "Ann", "trait": "strength"})
    assert campaign.rolls()[-1]["faces"] == [6]


def test_lowering_stamina_caps_health_and_recomputes_edge(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", stamina=6, strength=6, agility=5, perception=4)), moment("Ann"),
                   {"type": "end_defining_moment", "character": "Ann"})
    campaign.given({"type": "lower_ability", "character": "Ann", "ability": "agility"})
    sheet = campaign.sheet("Ann")
    assert (sheet["edge"], sheet["max_health"], sheet["health"]) == (8, 6, 6)
    campaign.given({"type": "restore_ability", "character": "Ann", "ability": "agility", "cost": "1 GO"})
    assert campaign.sheet("Ann")["edge"] == 9


def test_resolve_is_renewed_at_every_issue(campaign) -> None:
    campaign.of("heroes", trait_limit=8)
    campaign.given(*in_scene(hero("Ann", strength=7)), {"type": "gain_resolve", "character": "Ann",
                                                         "reason": "heroic"})
    assert campaign.sheet("Ann")["resolve"] == 3
    campaign.when({"type": "start_issue"})
    campaign.then_rejected(match="still open")
    campaign.given({"type": "end_issue"})
    campaign.when({"type": "start_issue"})
    campaign.then(events.ScopeStarted(scope="chapter", label="issue", number=2),
                  events.ResolveRenewed(character="Ann", resolve=2, starting=2, reading="reset"),
                  events.AdversityRenewed(adversity=1, heroes=1))


def test_top_up_renewal_keeps_a_larger_stock(campaign) -> None:
    campaign.of("heroes", trait_limit=8, resolve_renewal="top_up")
    campaign.given(*in_scene(hero("Ann", strength=7)), {"type": "gain_resolve", "character": "Ann", "reason": "flaw"},
                   {"type": "end_issue"}, {"type": "start_issue"})
    assert campaign.sheet("Ann")["resolve"] == 3


def test_transfers_cost_one_directly_and_two_indirectly(campaign) -> None:
    campaign.of("heroes", trait_limit=5)
    campaign.given(*in_scene(hero("Ann"), hero("Bob")))
    spend = {"type": "spend_resolve", "character": "Ann", "purpose": "transfer", "to": "Bob"}
    campaign.when(spend)
    campaign.then_rejected(match="describes how he helps")
    campaign.when({**spend, "narration": "holds the door"})
    campaign.then(events.ResolveSpent(character="Ann", amount=1, resolve=3),
                  events.ResolveGained(character="Bob", amount=1, resolve=5))
    campaign.when({**spend, "indirect": True, "narration": "a flashback: the training"})
    campaign.then(events.ResolveSpent(character="Ann", amount=2, resolve=1), events.ResolveGained(resolve=6))


def test_desperation_gives_one_resolve_at_zero_then_unconsciousness(campaign) -> None:
    campaign.of("heroes", trait_limit=3)
    campaign.given(*in_battle(hero("Ann", strength=3)))
    campaign.when({"type": "gain_resolve", "character": "Ann", "reason": "desperation"})
    campaign.then(events.DesperateEffort(character="Ann", page=1, resolve=1))
    campaign.dice(6, 6, 6, 6).when({"type": "roll_check", "character": "Ann", "trait": "strength", "resolve": 1})
    campaign.then(events.ResolveSpent(resolve=0), events.PassedOut(character="Ann"), events.DiceRolled(roll=ANY),
                  events.ExchangeOpened(exchange=ANY))
    assert campaign.sheet("Ann")["unconscious"] and campaign.sheet("Ann")["defeated"]
    campaign.when({"type": "gain_resolve", "character": "Ann", "reason": "desperation"})
    campaign.then_rejected(match="already given his last strength")
    campaign.given({"type": "end_scene"})
    assert not campaign.sheet("Ann")["unconscious"]


def test_an_unspent_desperate_resolve_lapses_with_its_page(campaign) -> None:
    campaign.of("heroes", trait_limit=3)
    campaign.given(*in_battle(hero("Ann")), {"type": "gain_resolve", "character": "Ann", "reason": "desperation"})
    campaign.when({"type": "next_page"})
    assert (campaign.sheet("Ann")["resolve"], campaign.sheet("Ann")["unconscious"]) == (0, True)


def test_desperation_needs_zero_resolve(campaign) -> None:
    campaign.of("heroes", trait_limit=5)
    campaign.given(*in_battle(hero("Ann")))
    campaign.when({"type": "gain_resolve", "character": "Ann", "reason": "desperation"})
    campaign.then_rejected(match="only at 0 Resolve")


def test_a_power_stunt_imitates_a_power_at_the_same_rank_for_one_roll(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", will=5)))
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "power_stunt", "trait": "will",
                   "power": "Telekinesis"})
    campaign.then(events.ResolveSpent(purpose="power_stunt"),
                  events.PowerImitated(character="Ann", power="Telekinesis", via="will", spec=ANY))
    campaign.dice(1, 1, 1, 1, 2).given({"type": "roll_check", "character": "Ann", "trait": "Telekinesis"})
    assert campaign.sheet("Ann")["stunts"] == {}


def test_a_narrative_detail_needs_the_gm(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", player="ann")))
    detail = {"type": "spend_resolve", "character": "Ann", "purpose": "detail", "narration": "a soft awning"}
    campaign.when({**detail, "actor": "player:ann"})
    campaign.then_rejected(match="GM's approval")
    campaign.when(detail)
    campaign.then(events.ResolveSpent(purpose="detail"))


def test_adversity_is_the_heroes_at_each_issue_and_never_negative(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob"), hero("Boss", role="villain"), {"type": "start_story"},
                   {"type": "start_issue"}, {"type": "start_scene"})
    assert campaign.campaign_sheet()["adversity"] == 2
    campaign.given({"type": "spend_adversity", "purpose": "problem"},
                   {"type": "spend_adversity", "purpose": "overcome_flaw", "villain": "Boss"})
    campaign.when({"type": "spend_adversity", "purpose": "problem"})
    campaign.then_rejected(match="0 Adversity .* never goes below 0")
    campaign.when({"type": "gain_adversity", "reason": "misbehaviour", "character": "Ann"})
    campaign.then(events.AdversityGained(amount=1, pool="issue", adversity=1))


def test_the_villainous_act_is_once_per_issue(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob"), hero("Boss", role="villain"), {"type": "start_story"},
                   {"type": "start_issue"})
    act = {"type": "spend_adversity", "purpose": "villainous_act", "villain": "Boss"}
    campaign.given(act)
    campaign.when(act)
    campaign.then_rejected(match=r"only once per issue \(issue 1\) \(L120\)")
    campaign.given({"type": "end_issue"}, {"type": "start_issue"})
    campaign.when(act)
    campaign.then(events.LimitUsed(limit="villainous_act", instance="issue 2"), events.AdversitySpent(adversity=1))


def test_a_scene_pool_is_separate_and_ends_with_its_scene(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann")), {"type": "scene_adversity", "amount": 3})
    campaign.given({"type": "spend_adversity", "purpose": "problem", "pool": "scene"})
    sheet = campaign.campaign_sheet()
    assert (sheet["adversity"], sheet["scene_adversity"]) == (1, 2)
    campaign.when({"type": "scene_adversity", "amount": 3})
    campaign.then_rejected(match="only once per scene")
    campaign.given({"type": "end_scene"})
    assert campaign.campaign_sheet()["scene_adversity"] is None


def test_act_first_puts_the_buyer_before_everyone_for_the_battle(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", perception=2, agility=2), hero("Bob", perception=5, agility=5)))
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Bob"], ["Ann"]]
    campaign.given({"type": "spend_resolve", "character": "Ann", "purpose": "act_first"}, {"type": "next_page"})
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Ann"], ["Bob"]]
    campaign.given({"type": "end_battle"})
    assert campaign.sheet("Ann")["acts_first"] is False


def test_under_the_gm_variant_act_first_doubles_edge(campaign) -> None:
    campaign.of("heroes", act_first="double_edge")
    campaign.given(*in_battle(hero("Ann", perception=2, agility=2, intellect=2),
                              hero("Bob", perception=3, agility=4)))
    campaign.given({"type": "spend_resolve", "character": "Ann", "purpose": "act_first"}, {"type": "next_page"})
    assert campaign.sheet("Ann")["edge"] == 8
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Ann"], ["Bob"]]


def test_back_in_the_fight_in_the_next_page_once_per_scene(campaign) -> None:
    campaign.of("heroes", trait_limit=6)
    campaign.given(*in_battle(hero("Ann", stamina=2, strength=2, will=2), hero("Bob", powers={"Blast": BLAST})))
    campaign.dice(6, 6, 6, 6, 6, 6, 1, 1, 1).given({"type": "attack", "attacker": "Bob", "target": "Ann",
                                              "trait": "Blast"})
    assert campaign.sheet("Ann")["defeated"]
    back = {"type": "spend_resolve", "character": "Ann", "purpose": "back_in_the_fight"}
    campaign.when(back)
    campaign.then_rejected(match="in the next page")
    campaign.given({"type": "next_page"})
    campaign.when(back)
    campaign.then(events.LimitUsed(limit="back_in_the_fight"), events.ResolveSpent(),
                  events.Healed(character="Ann", amount=2, health=2))  # 3 capped at MaxHealth 2 (H-7)
    campaign.given({"type": "apply_effect", "character": "Ann", "effect": "stun", "pages": 2}, {"type": "next_page"})
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "shake_off", "effect": "stun"})
    campaign.then_rejected(match=r"only once per scene \(scene 1\) \(L205; H-6\)")
