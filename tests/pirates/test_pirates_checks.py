"""The check (§3), luck spends and gains (§4.1), Reputation and the Code (§7), ambush tokens (§4.3)."""

from __future__ import annotations

import pytest

from rollbook.domain.rulesets.pirates import RULESET
from rollbook.testing import ANY, events, pirates

from .pirates_crew import crew, harm, luck, roll, step

# --- the check ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "total", "outcome"),
    [([4, 4], 10, "full_success"), ([6, 6], 14, "full_success"), ([3, 2], 7, "partial_success"),
     ([1, 3], 6, "miss"), ([1, 1], 4, "miss")],
)
def test_the_outcome_band_is_a_function_of_the_total(campaign, dice, total, outcome):
    crew(campaign)
    campaign.when(roll("Anna", "audacity", dice, id="r"))
    campaign.then(
        events.DiceRolled(), events.MoveBegun(character="Anna", roll="r"),
        events.MoveRolled(character="Anna", total=total, outcome=outcome),
    )


def test_digest_example_2_a_helper_after_the_roll_turns_a_miss_into_a_partial(campaign):
    crew(campaign)
    campaign.given(pirates.created("Dee", guile=-1), pirates.wounded("Dee", "serious"))
    campaign.given(roll("Dee", "guile", [5, 3], id="r"))  # 5 + 3 − 1 − 1 (serious) = 6
    assert (campaign.sheet("Dee")["move"]["total"], campaign.sheet("Dee")["move"]["outcome"]) == (6, "miss")
    campaign.when(luck("Bo", "help", "r"))
    campaign.then(
        events.LimitUsed(limit="luck_help_or_hinder", holder="Bo", instance="r"),
        events.LuckSpent(character="Bo", amount=1, purpose="help"),
        events.MoveModified(character="Dee", total=7, outcome="partial_success"),
        events.RollModified(roll="r", total=7, outcome="partial_success"),
    )


def test_digest_example_3_advantage_keeps_the_two_highest_of_three(campaign):
    crew(campaign)
    campaign.given(step("scheme", leader="Anna", goal="board the Dutchman", secrets=["X1"], dice=[5, 5]))
    assert campaign.sheet("Chaika")["chances"] == 3  # 11: one marked secret + 2
    campaign.when(roll("Anna", "foresight", [2, 5, 6], advantage=True, id="r"))
    campaign.then(
        events.ChanceSpent(ship="Chaika", side="crew", roll="r"),
        events.DiceRolled(), events.MoveBegun(), events.MoveRolled(total=12),
    )
    assert campaign.sheet("Chaika")["chances"] == 2
    assert [(r["notation"], r["total"]) for r in campaign.rolls()][-1] == ("3d6kh2", 12)


def test_digest_example_3_disadvantage_keeps_the_two_lowest_of_three(campaign):
    crew(campaign)
    campaign.given(step("scheme", leader="Anna", goal="board the Dutchman", secrets=["X1", "X2"], dice=[1, 2]))
    assert campaign.sheet("Chaika")["gm_chances"] == 2  # a miss: the GM gets a chance per marked secret
    campaign.when(roll("Anna", "foresight", [2, 5, 6], disadvantage=True, actor="player:anna"))
    campaign.then_rejected(match="only the GM spends a GM chance")
    campaign.when(roll("Anna", "foresight", [2, 5, 6], disadvantage=True, id="r"))
    campaign.then(
        events.ChanceSpent(ship="Chaika", side="gm", roll="r"),
        events.DiceRolled(), events.MoveBegun(), events.MoveRolled(total=8),
    )
    assert [(r["notation"], r["total"]) for r in campaign.rolls()][-1] == ("3d6kl2", 8)


def test_chances_are_spent_only_during_a_plan_and_while_there_are_some(campaign):
    crew(campaign)
    campaign.when(roll("Anna", "foresight", [2, 5, 6], advantage=True))
    campaign.then_rejected(match="only while carrying out a plan")
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[3, 3]))  # 7: one chance
    campaign.given(roll("Anna", "foresight", [2, 5, 6], advantage=True))
    campaign.when(roll("Anna", "foresight", [2, 5, 6], advantage=True))
    campaign.then_rejected(match="no chance left for advantage")
    campaign.when(step("end_plan"))
    campaign.then(events.PlanEnded(ship="Chaika", unspent_chances=0, unspent_gm_chances=0))


def test_opposed_chances_cancel_or_are_refused_p13(campaign):
    crew(campaign, opposed_chances="refuse")
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[5, 5]))
    campaign.when(roll("Anna", "foresight", [2, 5], advantage=True, disadvantage=True))
    campaign.then_rejected(match="refused in this campaign")


def test_opposed_chances_cancel_by_default(campaign):
    crew(campaign)
    campaign.given(
        step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[5, 5]),  # the crew: 3 chances
        step("scheme", leader="Anna", goal="g", secrets=["X2"], dice=[1, 1]),  # the same plan: the GM gets 1
    )
    assert (campaign.sheet("Chaika")["chances"], campaign.sheet("Chaika")["gm_chances"]) == (3, 1)
    campaign.when(roll("Anna", "foresight", [2, 5], advantage=True, disadvantage=True, id="r"))
    campaign.then(
        events.ChanceSpent(side="crew"), events.ChanceSpent(side="gm"),
        events.DiceRolled(), events.MoveBegun(), events.MoveRolled(total=8),
    )
    assert [(r["notation"], r["total"]) for r in campaign.rolls()][-1] == ("2d6", 8)


def test_several_helpers_add_up_each_once_per_move(campaign):
    crew(campaign)
    campaign.given(pirates.created("Cid", luck=1), roll("Anna", "guile", [2, 2], id="r"))  # 5: miss
    campaign.given(luck("Bo", "help", "r"), luck("Cid", "help", "r"))
    assert campaign.sheet("Anna")["move"]["total"] == 7
    campaign.when(luck("Bo", "help", "r"))
    campaign.then_rejected(match="help or hinder a crewmate's roll: only once per move")


def test_a_pirate_cannot_help_his_own_roll(campaign):
    crew(campaign)
    campaign.given(roll("Anna", "guile", [2, 2], id="r"))
    campaign.when(luck("Anna", "help", "r"))
    campaign.then_rejected(match="cannot help or hinder his own roll")


def test_own_bonus_after_the_roll_p6(campaign):
    crew(campaign)
    campaign.given(roll("Anna", "guile", [3, 3], id="r"))  # 7
    campaign.when(luck("Anna", "roll_bonus"))
    campaign.then(
        events.LimitUsed(limit="luck_roll_bonus"), events.LuckSpent(character="Anna", purpose="roll_bonus"),
        events.MoveModified(total=8), events.RollModified(roll="r", total=8),
    )


def test_unknown_and_special_moves_are_refused(campaign):
    crew(campaign)
    campaign.when(roll("Anna", "guile", [3, 3], move="Walk the plank"))
    campaign.then_rejected(match="move: no move named 'Walk the plank'")
    campaign.when(roll("Anna", "foresight", [3, 3], move="scheme"))
    campaign.then_rejected(match="played step by step with the `scheme` command")


def test_a_move_found_by_its_russian_name(campaign):
    crew(campaign)
    campaign.when(roll("Anna", "audacity", [3, 3], move="Сойтись якорями", id="r"))
    campaign.then(events.DiceRolled(), events.MoveBegun(), events.MoveRolled(move="cross_anchors"))
    assert campaign.rolls()[-1]["purpose"] == "move:cross_anchors"


def test_carousing_rolls_reputation_hb_l215(campaign):
    crew(campaign)
    campaign.given(step("enter_port", ship="Chaika"))  # a port move (L206)
    campaign.when(roll("Anna", "audacity", [3, 3], move="wild_carousing"))
    campaign.then_rejected(match=r"stat: Wild Carousing rolls 2d6 \+ reputation \(L215, HB\)")
    campaign.when(roll("Anna", "reputation", [3, 3], move="wild_carousing"))
    campaign.then(events.DiceRolled(), events.MoveBegun(), events.MoveRolled(total=5, outcome="miss"))


# --- G2: the Cartographer's trade -------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "outcome", "gain"), [([3, 3], "partial_success", 1), ([4, 4], "full_success", 2)])
def test_a_success_traded_for_a_miss(campaign, dice, outcome, gain):
    crew(campaign, anna_luck=0)
    campaign.given(roll("Anna", "audacity", dice, id="r"))
    campaign.when(step("trade_success_for_luck", character="Anna", roll="r", actor="player:anna"))
    campaign.then(
        events.SuccessTraded(character="Anna", roll="r", outcome=outcome, luck=gain),
        events.RollModified(roll="r", outcome="miss"),
        events.LuckGained(character="Anna", amount=gain),
    )
    assert campaign.sheet("Anna")["move"]["outcome"] == "miss"
    assert campaign.rolls()[-1]["outcome"] == "miss"


def test_the_roll_text_follows_every_later_change_and_shows_a_trade(campaign):
    """Issue 15: a +1 after the roll joins the text's sum; a success traded for luck is said in it."""
    crew(campaign, anna_luck=2)
    campaign.given(roll("Anna", "audacity", [3, 3], id="r"))  # 3 + 3 + 2 = 8, a partial success
    assert campaign.rolls()[-1]["text"] == "2d6 = [3, 3] + 2 = 8"
    campaign.given(luck("Anna", "roll_bonus", "r"))
    assert campaign.rolls()[-1]["text"] == "2d6 = [3, 3] + 2 + 1 = 9"
    campaign.given(step("trade_success_for_luck", character="Anna", roll="r"))
    traded = campaign.rolls()[-1]
    assert traded["text"].startswith("2d6 = [3, 3] + 2 + 1 = 9; partial_success traded for")
    assert traded["text"].endswith(": 9, miss") and traded["outcome"] == "miss"


def test_a_miss_cannot_be_traded_and_a_traded_move_stays_a_miss(campaign):
    crew(campaign)
    campaign.given(roll("Anna", "reputation", [1, 4], id="m"))  # digest example 4: 3, a miss
    campaign.when(step("trade_success_for_luck", character="Anna", roll="m"))
    campaign.then_rejected(match="already a miss")
    campaign.given(roll("Anna", "audacity", [3, 3], id="r"), step("trade_success_for_luck", character="Anna", roll="r"))
    campaign.when(luck("Bo", "help", "r"))
    campaign.then_rejected(match="traded roll r for luck: it is a miss for good")
    campaign.when(step("trade_success_for_luck", character="Anna", roll="r"))
    campaign.then_rejected(match="traded roll r")


def test_only_the_open_move_can_be_traded(campaign):
    crew(campaign)
    campaign.given(roll("Anna", "audacity", [3, 3], id="r1"), roll("Anna", "audacity", [3, 3], id="r2"))
    campaign.when(step("trade_success_for_luck", character="Anna", roll="r1"))
    campaign.then_rejected(match=r"roll 'r1' is not Anna's open move \(r2\)")


# --- G3: tall tales -----------------------------------------------------------------------------------


def test_a_tall_tale_needs_a_carousal(campaign):
    crew(campaign)
    campaign.when(step("tell_tall_tale", character="Anna"))
    campaign.then_rejected(match="only during a carousal")


def test_the_tall_tale_luck_is_an_option_p9(campaign):
    crew(campaign, anna_luck=0, tall_tale_luck=2)
    campaign.given(step("enter_port", ship="Chaika"), step("start_carousal", title="The Rusty Anchor"))
    campaign.when(step("tell_tall_tale", character="Anna", actor="player:anna"))
    campaign.then(
        events.LimitUsed(limit="tall_tale", instance="carousal 1", holder="crew"),
        events.LuckGained(character="Anna", amount=2),
    )


# --- Reputation and the Pirate Code ---------------------------------------------------------------------


def test_the_code_moves_reputation_by_one_clamped(campaign):
    crew(campaign)
    campaign.when(step("pirate_code", character="Bo", kept=True, precept="share the loot"))
    campaign.then(events.ReputationChanged(character="Bo", by=1, reputation=1))
    campaign.given(*[step("pirate_code", character="Bo", kept=True)] * 3)
    assert campaign.sheet("Bo")["stats"]["reputation"] == 3
    campaign.when(step("pirate_code", character="Bo", kept=True))
    campaign.then()  # clamped at +3 (L10): nothing changes
    campaign.given(step("pirate_code", character="Anna", kept=False))
    campaign.when(step("pirate_code", character="Anna", kept=False))
    campaign.then()  # at −2 a Code violation is clamped, no luck (P-8)
    assert campaign.sheet("Anna")["luck"] == 2


def test_a_code_violation_at_minus_2_costs_luck_with_the_option_p8(campaign):
    crew(campaign, anna_luck=1, code_violation_costs_luck=True)
    campaign.given(step("pirate_code", character="Anna", kept=False))
    campaign.when(step("pirate_code", character="Anna", kept=False))
    campaign.then(events.LuckLost(character="Anna", amount=1, reason="reputation_at_minus_2"))
    campaign.when(step("pirate_code", character="Anna", kept=False))
    campaign.then(events.FateCalled(character="Anna"))


def test_players_do_not_judge_the_code(campaign):
    crew(campaign)
    campaign.when(step("pirate_code", character="Anna", kept=True, actor="player:anna"))
    campaign.then_rejected(match="only the GM may pirate_code")


def test_a_move_lowering_reputation_at_minus_2_is_paid_in_luck_s2(campaign):
    crew(campaign, anna_luck=1)
    campaign.when(step("lower_reputation", character="Anna", points=3, move="stab_in_the_back"))
    campaign.then(
        events.ReputationChanged(character="Anna", by=-1, reputation=-2),
        events.LuckLost(character="Anna", amount=1),
        events.FateCalled(character="Anna", reason=ANY),
    )
    assert campaign.sheet("Anna")["luck"] == 0


def test_spend_luck_for_reputation_only_at_minus_2(campaign):
    crew(campaign, anna_luck=1)
    campaign.when(luck("Anna", "reputation"))
    campaign.then_rejected(match=r"purpose: Anna's Reputation is -1, not -2")
    campaign.given(step("lower_reputation", character="Anna"))
    campaign.when(luck("Anna", "reputation"))
    campaign.then(events.LuckLost(character="Anna", amount=1, reason="reputation_at_minus_2"))
    campaign.when(luck("Anna", "reputation"))
    campaign.then(events.FateCalled(character="Anna"))  # mandatory: at 0 luck, fate (L75)


# --- ambush tokens ---------------------------------------------------------------------------------------


def test_ambush_tokens_burn_when_the_scene_and_the_enemy_change_p10(campaign):
    crew(campaign)
    campaign.given(
        step("start_scene", enemy="Governor"),
        step("gain_ambush_token", character="Anna"),
        step("gain_ambush_token", character="Bo", enemy="Kraken"),
        step("end_scene"),
    )
    campaign.when(step("start_scene", enemy="Governor"))  # a new scene, the same enemy: they stay
    campaign.then(events.ScopeStarted(scope="scene"), events.Started(scene=2), events.EnemyFaced(enemy="Governor"))
    campaign.given(step("spend_ambush_token", character="Anna"), step("gain_ambush_token", character="Anna"))
    campaign.given(step("end_scene"))
    campaign.when(step("start_scene", enemy="Kraken"))  # scene and enemy change: every token burns
    campaign.then(
        events.ScopeStarted(scope="scene"), events.Started(scene=3),
        events.AmbushTokensBurned(character="Anna", count=1), events.AmbushTokensBurned(character="Bo", count=1),
        events.EnemyFaced(enemy="Kraken"),
    )
    assert campaign.sheet("Bo")["ambush_tokens"] == {}


def test_an_ambush_token_works_only_against_its_enemy(campaign):
    crew(campaign)
    campaign.given(step("start_scene", enemy="Governor"), step("gain_ambush_token", character="Anna"))
    campaign.when(step("spend_ambush_token", character="Anna", enemy="Kraken"))
    campaign.then_rejected(match=r"enemy: Anna has no ambush token against 'Kraken' \(held: Governor ×1\)")


def test_wounds_light_penalty_is_consumed_by_the_next_rolled_move(campaign):
    crew(campaign)
    campaign.given(harm("Anna", 2))
    assert campaign.sheet("Anna")["modifier"] == -2  # P-3 (a): both −1s on the next move
    campaign.given(roll("Anna", "audacity", [3, 3]))
    assert (campaign.sheet("Anna")["move"]["total"], campaign.sheet("Anna")["modifier"]) == (6, 0)


def test_a_rule_option_the_rules_lack_is_refused_at_creation(campaign):
    campaign.when({"type": "create_campaign", "ruleset": "pirates", "options": {"hull": "sturdy"}})
    campaign.then_rejected(match=r"options.hull: rule option hull must be one of 'single', 'rated' \(P-17\); got 'sturdy'")
    campaign.when({"type": "create_campaign", "ruleset": "pirates", "options": {"tall_tale_luck": True}})
    campaign.then_rejected(match="tall_tale_luck")
    campaign.when({"type": "create_campaign", "ruleset": "pirates", "options": {"concession": "exactly_2_0"}})
    campaign.then(events.Created(options={**RULESET.default_options, "concession": "exactly_2_0"}))


def test_society_reception_is_courtly_amusements_p22(campaign):
    crew(campaign)
    campaign.given(step("enter_port", ship="Chaika"))  # a port move (L206)
    campaign.when(roll("Anna", "reputation", [5, 5], move="Светский прием"))
    campaign.then(events.DiceRolled(), events.MoveBegun(), events.MoveRolled(move="courtly_amusements", total=9))
