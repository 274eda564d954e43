"""The campaign, the sheet and the check (§2, §3, §5, §8): the digest's worked examples as kit tests."""

from __future__ import annotations

import pytest

from rollbook.testing import ANY, events

from .heroes_builders import BLAST, hero, in_battle, in_scene


def test_trait_limit_may_be_given_on_its_own_and_is_recorded_among_the_options(campaign) -> None:
    campaign.given({"type": "create_campaign", "ruleset": "heroes", "trait_limit": 8})
    assert campaign.campaign_sheet()["options"]["trait_limit"] == 8
    assert campaign.campaign_sheet()["trait_limit"] == 8


@pytest.mark.parametrize(
    ("command", "match"),
    [
        ({"trait_limit": 8, "options": {"trait_limit": 9}}, "differ"),
        ({"options": {"trait_limit": 0}}, "trait_limit must be a whole number"),
        ({"options": {"outcome_table": "dramatic"}}, "outcome_table must be one of 'narrator', 'traditional'"),
        ({"options": {"ship": True}}, "unknown rule options"),
    ],
)
def test_bad_campaign_options_are_refused(campaign, command, match) -> None:
    campaign.when({"type": "create_campaign", "ruleset": "heroes", **command})
    campaign.then_rejected(match=match)


def test_a_trait_limit_for_another_ruleset_is_refused(campaign) -> None:
    campaign.when({"type": "create_campaign", "ruleset": "pirates", "trait_limit": 8})
    campaign.then_rejected(match=r"the pirates rules have no Trait Limit \(an option of the heroes rules\)")


def test_derived_values_of_the_digest(campaign) -> None:
    """§2 examples: Limit 10, best rank 6 → Resolve 8; Edge 4 + 5 = 9; Health ceil((5 + 4) / 2) = 5."""
    campaign.of("heroes", trait_limit=10)
    campaign.when(hero("Nova", strength=4, agility=5, stamina=5, intellect=3, perception=4, will=3,
                       talents={"Acrobatics": 10}, powers={"Flight": {"rank": 9, "uses": ["movement"]}}))
    sheet = campaign.sheet("Nova")
    assert (sheet["edge"], sheet["max_health"], sheet["health"], sheet["resolve"]) == (9, 5, 5, 10)
    campaign.when(hero("Vega", powers={"Blast": {"rank": 9, "uses": ["attack"]}}))
    assert campaign.sheet("Vega")["resolve"] == 2  # Limit 10, best interacting rank 9 (L86-L96)


def test_a_rank_above_the_trait_limit_is_refused(campaign) -> None:
    campaign.of("heroes", trait_limit=8)
    campaign.when(hero("Titan", strength=9))
    campaign.then_rejected(match=r"abilities.strength: rank 9 is above the GM's Trait Limit of 8 \(L27\)")
    campaign.when(hero("Titan", powers={"Blast": 9}))
    campaign.then_rejected(match="powers.Blast")


def test_a_minion_group_needs_a_danger_rank(campaign) -> None:
    campaign.of("heroes")
    campaign.when({"type": "create_character", "name": "Goons", "role": "minion", "count": 3})
    campaign.then_rejected(match="danger rank")


@pytest.mark.parametrize(
    ("trait", "rank", "difficulty", "faces", "net", "outcome"),
    [
        ("strength", 4, 2, [2, 6, 3, 5], 1, "hero_narrates_with_embellishment"),  # §3.2 example 1
        ("intellect", 5, 1, [4, 4, 6, 2, 1], 4, "hero_narrates"),  # example 2
        ("agility", 3, 3, [1, 3, 5], -3, "opponent_narrates"),  # example 3
        ("agility", 3, 2, [1, 2, 5], -1, "opponent_narrates_with_embellishment"),
    ],
)
def test_the_check_and_its_outcome(campaign, trait, rank, difficulty, faces, net, outcome) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann", **{trait: rank}))
    campaign.dice(*faces).when({"type": "roll_check", "character": "Ann", "trait": trait, "difficulty": difficulty})
    campaign.then(events.DiceRolled(roll=ANY), events.ExchangeOpened(exchange=ANY))
    roll = campaign.rolls()[-1]
    assert (roll["total"], roll["net"], roll["outcome"]) == (net + difficulty, net, outcome)


def test_the_traditional_table_is_a_campaign_option(campaign) -> None:
    campaign.of("heroes", outcome_table="traditional")
    campaign.given(hero("Ann", agility=3))
    campaign.dice(1, 3, 5).when({"type": "roll_check", "character": "Ann", "trait": "agility", "difficulty": 3})
    assert campaign.rolls()[-1]["outcome"] == "complete_failure"


def test_resolve_after_the_roll_adds_a_die_and_revises_the_outcome(campaign) -> None:
    """§3.2 example 6: Agility 3 vs Hard [1, 2, 5] → net −1; +1 die [6] → net 1."""
    campaign.of("heroes", trait_limit=4)
    campaign.given(hero("Ann", agility=3, strength=2, stamina=2, intellect=2, perception=2, will=2))
    assert campaign.sheet("Ann")["resolve"] == 2
    campaign.dice(1, 2, 5).when({"type": "roll_check", "character": "Ann", "trait": "agility", "difficulty": 2})
    campaign.dice(6).when({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    campaign.then(
        events.ResolveSpent(character="Ann", amount=1, purpose="dice", resolve=1),
        events.DiceRolled(roll=ANY),
        events.RollModified(roll="t3", total=3, outcome="hero_narrates_with_embellishment"),
        events.ExchangeRevised(exchange=ANY, reason=ANY),
    )
    assert campaign.sheet("Ann")["resolve"] == 1


def test_a_reroll_rerolls_every_die_including_bought_ones(campaign) -> None:
    campaign.of("heroes", trait_limit=6)
    campaign.given(hero("Ann", agility=3, rank=2))
    campaign.dice(1, 1, 1).when({"type": "roll_check", "character": "Ann", "trait": "agility", "difficulty": 1})
    campaign.dice(1).given({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    campaign.dice(6, 6, 1, 1).when({"type": "spend_resolve", "character": "Ann", "purpose": "reroll"})
    assert campaign.rolls()[-1]["faces"] == [6, 6, 1, 1]
    assert campaign.rolls()[0]["total"] == 4


def test_resolve_never_goes_below_zero(campaign) -> None:
    campaign.of("heroes", trait_limit=3)
    campaign.given(hero("Ann"))
    campaign.dice(1, 1, 1).given({"type": "roll_check", "character": "Ann", "trait": "will"})
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "reroll"})
    campaign.then_rejected(match=r"has 0 Resolve and cannot spend 1 .*never goes below 0")


def test_resolve_goes_to_ones_own_open_roll_only(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob"))
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    campaign.then_rejected(match="no roll open")
    campaign.dice(1, 1, 1).given({"type": "roll_check", "character": "Bob", "trait": "will"})
    campaign.when({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    campaign.then_rejected(match="Ann has no roll among the open rolls")


def test_help_counts_the_best_helper_only(campaign) -> None:
    """§3.2 example 5: [2, 4, 6, 6] at difficulty 2 → net 4 → +2 dice; a worse helper adds nothing."""
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob", strength=4), hero("Cid"))
    campaign.dice(2, 4, 6, 6).given({"type": "help", "helper": "Bob", "character": "Ann", "trait": "strength"})
    campaign.dice(2, 2, 1).given({"type": "help", "helper": "Cid", "character": "Ann", "trait": "strength"})
    assert campaign.campaign_sheet()["help"] == {"Ann": {"Bob": 2}}  # Cid: net 0, no bonus
    campaign.dice(1, 1, 1, 2, 2).when({"type": "roll_check", "character": "Ann", "trait": "will"})
    roll = campaign.rolls()[-1]
    assert ["help from Bob", 2] in roll["pool"] and roll["total"] == 2
    assert campaign.campaign_sheet()["help"] == {}


def test_group_checks_share_successes_above_three(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann", will=5), hero("Bob"))
    campaign.dice(6, 6, 6, 2, 2, 1, 1, 1).given({
        "type": "group_check", "difficulty": 1,
        "members": [{"character": "Ann", "trait": "will"}, {"character": "Bob", "trait": "will"}]})
    campaign.when({"type": "share_successes", "from_character": "Ann", "to_character": "Bob", "amount": 5})
    campaign.then_rejected(match="has 4 successes above 3")
    campaign.when({"type": "share_successes", "from_character": "Ann", "to_character": "Bob", "amount": 3})
    bob = [r for r in campaign.rolls() if r["character"] == "Bob"][-1]
    assert bob["outcome"] == "hero_narrates_with_embellishment"  # net −1 + 3 = 2


def test_a_contest_gives_two_dice_to_the_last_winner_and_the_final_check_decides(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann"), hero("Bob"), {"type": "start_contest", "contest": "arm", "sides": ["Ann", "Bob"],
                                              "checks": 2})
    roll = {"type": "contest_roll", "contest": "arm", "traits": {"Ann": "strength", "Bob": "strength"}}
    campaign.dice(6, 6, 6, 1, 1, 1).given(roll)
    assert campaign.campaign_sheet()["contests"]["arm"]["bonus_to"] == "Ann"
    campaign.dice(1, 1, 1, 1, 1, 2, 2, 2).when(roll)  # Ann rolls 5 dice
    contest = campaign.campaign_sheet()["contests"]["arm"]
    assert contest["winner"] == "Bob" and [r["winner"] for r in contest["results"]] == ["Ann", "Bob"]
    campaign.when(roll)
    campaign.then_rejected(match="is over")


def test_races_halve_agility_on_foot_against_movement_powers(campaign) -> None:
    campaign.of("heroes")
    campaign.given(hero("Ann", agility=5), hero("Zip", powers={"Speed": {"rank": 4, "uses": ["movement"]}}))
    campaign.dice(2, 2, 2, 1, 1, 1, 1).when({"type": "race", "racers": [
        {"character": "Ann", "trait": "agility"}, {"character": "Zip", "trait": "Speed"}]})
    ann, zip_ = campaign.rolls()
    assert ann["pool"] == [["half agility on foot (L163)", 3]] and ann["outcome"] == "first"
    assert zip_["outcome"] == "behind"


def test_recovery_after_a_battle_once_and_capped_at_max_health(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", stamina=4, strength=4)), {"type": "take_damage", "character": "Ann",
                                                                      "amount": 3}, {"type": "end_battle"})
    campaign.dice(6, 6, 6, 6).when({"type": "recover", "character": "Ann"})
    assert campaign.sheet("Ann")["health"] == 4
    campaign.when({"type": "recover", "character": "Ann"})
    campaign.then_rejected(match="only once per battle")


def test_a_day_of_full_rest_makes_recovery_average(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", stamina=4, strength=4)), {"type": "take_damage", "character": "Ann",
                                                                     "amount": 3})
    campaign.when({"type": "recover", "character": "Ann", "rest": "full_day"})
    campaign.then_rejected(match="no day has passed")
    campaign.given({"type": "next_day"})
    campaign.dice(2, 1, 1, 1).when({"type": "recover", "character": "Ann", "rest": "full_day"})
    assert campaign.sheet("Ann")["health"] == 1  # net 1 − 1 = 0: nothing
    assert campaign.rolls()[-1]["net"] == 0


def test_an_opposed_lethal_attack_of_the_digest(campaign) -> None:
    """§3.2 example 4: Energy Blast 6 [6,6,2,1,3,4] = 6 vs passive ceil(5/2) = 3 [2,5,6] = 3 → damage 3."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", powers={"Energy Blast": BLAST}), hero("Bob", agility=2, stamina=5,
                                                                                 strength=5)))
    campaign.dice(6, 6, 2, 1, 3, 4, 2, 5, 6).when(
        {"type": "attack", "attacker": "Ann", "target": "Bob", "trait": "Energy Blast"})
    defence = campaign.rolls()[-1]
    assert defence["pool"] == [["half stamina vs a lethal attack (L178)", 3]]
    assert campaign.sheet("Bob")["health"] == 5 - 3
