"""Scheme (§10) and Conduct Negotiations (§11), step by step."""

from __future__ import annotations

import pytest

from rollbook.testing import events, pirates

from .pirates_crew import crew, luck, step


def _council(campaign, *names: str, luck_each: int = 1):
    campaign.given(*[pirates.created(name, luck=luck_each) for name in names])


# --- Scheme ------------------------------------------------------------------------------------------------


def test_digest_scheme_example(campaign):
    """3 secrets, 2 marked; Foresight +1; two participants pay 1 luck each; [3, 3] = 9 → 2 chances, 1 secret left."""
    crew(campaign)
    campaign.given(step("gain_secret", secret="X3"))
    campaign.when(step("scheme", leader="Anna", goal="the governor's silver", secrets=["X1", "X3"],
                       council=["Bo", "Anna"], dice=[3, 3]))
    campaign.then_rejected(match="council: the council names each other participant once, not the leader")
    _council(campaign, "Cid")
    campaign.when(step("scheme", leader="Anna", goal="the governor's silver", secrets=["X1", "X3"],
                       council=["Bo", "Cid"], dice=[3, 3], id="s"))
    campaign.then(
        events.LuckSpent(character="Bo", amount=1, purpose="scheme_council"),
        events.LuckSpent(character="Cid", amount=1, purpose="scheme_council"),
        events.DiceRolled(), events.MoveBegun(character="Anna", roll="s"),
        events.MoveRolled(character="Anna", move="scheme", total=9, outcome="partial_success", settled=True),
        events.SecretsRemoved(ship="Chaika", secrets=["X1", "X3"]),
        events.Schemed(ship="Chaika", goal="the governor's silver", leader="Anna", roll="s", chances=2, gm_chances=0),
    )
    assert (campaign.sheet("Chaika")["secrets"], campaign.sheet("Chaika")["chances"]) == (["X2"], 2)


def test_a_missed_scheme_gives_the_gm_chances_and_still_burns_the_secrets(campaign):
    crew(campaign)
    campaign.when(step("scheme", leader="Anna", goal="g", secrets=["X1", "X2"], dice=[1, 2]))
    campaign.then(events.DiceRolled(), events.MoveBegun(), events.MoveRolled(outcome="miss"), events.SecretsRemoved(secrets=["X1", "X2"]), events.Schemed(chances=0, gm_chances=2))
    assert campaign.sheet("Chaika")["secrets"] == []


def test_the_council_adds_at_most_3_and_the_fourth_pays_nothing_p12(campaign):
    crew(campaign)
    _council(campaign, "Cid", "Dee", "Eve")
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], council=["Bo", "Cid", "Dee", "Eve"],
                        dice=[1, 1]))
    roll = campaign.rolls()[-1]
    assert [m["source"] for m in roll["modifiers"]] == ["foresight", "council: Bo", "council: Cid", "council: Dee"]
    assert roll["total"] == 1 + 1 + 1 + 3
    assert campaign.sheet("Eve")["luck"] == 1


def test_a_council_member_without_luck_is_refused(campaign):
    crew(campaign, bo_luck=0)
    campaign.when(step("scheme", leader="Anna", goal="g", secrets=["X1"], council=["Bo"], dice=[1, 1]))
    campaign.then_rejected(match="council: Bo has no luck to spend")


def test_marked_secrets_must_be_on_the_sheet_and_at_least_one(campaign):
    crew(campaign)
    campaign.when(step("scheme", leader="Anna", goal="g", secrets=["X9"], dice=[1, 1]))
    campaign.then_rejected(match=r"secrets: 'X9' not on Chaika's sheet \(held: 'X1', 'X2'")
    campaign.when(step("scheme", leader="Anna", goal="g", secrets=[], dice=[1, 1]))
    campaign.then_rejected(match="secrets: .*at least 1 item")


def test_luck_after_the_scheme_roll_makes_its_chances_follow_until_the_plan_uses_them(campaign):
    crew(campaign)
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[2, 3], id="s"))  # 6: the GM's
    assert (campaign.sheet("Chaika")["chances"], campaign.sheet("Chaika")["gm_chances"]) == (0, 1)
    campaign.when(luck("Bo", "help", "s"))
    campaign.then(
        events.LimitUsed(limit="luck_help_or_hinder", holder="Bo", instance="s"),
        events.LuckSpent(character="Bo", purpose="help"),
        events.MoveModified(character="Anna", roll="s", total=7, outcome="partial_success"),
        events.RollModified(roll="s", total=7, outcome="partial_success"),
        events.SchemeReckoned(ship="Chaika", roll="s", outcome="partial_success", chances=1, gm_chances=0),
    )
    assert (campaign.sheet("Chaika")["chances"], campaign.sheet("Chaika")["gm_chances"]) == (1, 0)
    campaign.when(step("trade_success_for_luck", character="Anna", roll="s"))  # G2 on it too (L50)
    campaign.then(events.SuccessTraded(), events.RollModified(outcome="miss"), events.LuckGained(character="Anna"),
                  events.SchemeReckoned(outcome="miss", chances=0, gm_chances=1))
    campaign.when(step("end_plan"))
    campaign.then(
        events.MoveClosed(character="Anna", roll="s", why="Chaika's plan ended"),
        events.PlanEnded(ship="Chaika", unspent_chances=0, unspent_gm_chances=1),
    )
    campaign.when(luck("Anna", "roll_bonus", "s"))
    campaign.then_rejected(match=r"roll s \(scheme\) is closed: its move's outcome is final")


def test_another_goal_needs_the_plan_ended_first(campaign):
    crew(campaign)
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[5, 5]))
    campaign.when(step("scheme", leader="Anna", goal="h", secrets=["X2"], dice=[5, 5]))
    campaign.then_rejected(match="goal: Chaika's crew is still carrying out the plan 'g'")
    campaign.when(step("end_plan"))
    campaign.then(events.MoveClosed(character="Anna", why="Chaika's plan ended"),
                  events.PlanEnded(ship="Chaika", unspent_chances=3, unspent_gm_chances=0))


# --- Conduct Negotiations ------------------------------------------------------------------------------


def _negotiate(campaign, opponent_kind: str = "threat", **options):
    crew(campaign, **options)
    campaign.given(step("pirate_code", character="Anna", kept=True), step("pirate_code", character="Anna", kept=True))
    campaign.given(step("gain_secret", secret="The governor's debts"))
    campaign.given(step("start_negotiation", negotiator="Anna", opponent="Governor", opponent_kind=opponent_kind))


def test_digest_negotiation_example(campaign):
    _negotiate(campaign)  # Anna's Reputation +1
    campaign.when(step("negotiation_round", pirate_bet="purse", opponent_bet="life"))
    campaign.then(events.NegotiationRoundPlayed(number=1, winner="pirates", trumps=1, next_first="pirates"))
    campaign.when(step("negotiation_round", pirate_bet="glory", opponent_bet="purse", secret="The governor's debts"))
    campaign.then(
        events.SecretsRemoved(ship="Chaika", secrets=["The governor's debts"]),
        events.NegotiationRoundPlayed(number=2, winner="pirates", trumps=2),
    )
    campaign.when(step("negotiation_round", pirate_bet="life", opponent_bet="life", dice=[2, 3], id="r3"))
    campaign.then(
        events.DiceRolled(), events.MoveBegun(character="Anna"), events.MoveRolled(total=6, outcome="miss"),
        events.NegotiationRoundPlayed(number=3, roll="r3", winner="opponent", trumps=1),
    )
    # Luck may still change the tie's check (L45-L46): the negotiation ends when its roll is closed.
    campaign.when(step("close_roll", roll="r3"))
    campaign.then(
        events.MoveClosed(character="Anna", roll="r3", why="closed by gm"),
        events.NegotiationEnded(trumps={"pirates": 3, "opponent": 1}, winner="pirates", margin=2, threat_harm=2,
                                loser=None),
    )
    assert campaign.campaign_sheet()["negotiation"] is None


def test_a_losing_pirate_loses_luck_by_the_margin_and_meets_fate_if_short(campaign):
    _negotiate(campaign, "character")
    campaign.given(step("negotiation_round", pirate_bet="purse", opponent_bet="glory"))
    campaign.given(step("negotiation_round", pirate_bet="purse", opponent_bet="glory", opponent_secret="Anna's bastard"))
    campaign.when(step("negotiation_round", pirate_bet="life", opponent_bet="purse"))
    campaign.then(
        events.NegotiationRoundPlayed(number=3, winner="opponent", trumps=1),
        events.NegotiationEnded(winner="opponent", margin=4, loser="Anna", threat_harm=0),
        events.LuckLost(character="Anna", amount=2, reason="lost a negotiation by 4 trumps (L204)"),
        events.FateCalledAtOnce(character="Anna", reason="a lost negotiation would push luck below 0 (L204)"),
    )
    anna = campaign.sheet("Anna")
    assert (anna["luck"], anna["wounds"]) == (0, {"light": 0, "serious": 0, "terrible": 0})


@pytest.mark.parametrize(("concession", "allowed"), [("shutout", True), ("exactly_2_0", False)])
def test_a_side_trailing_0_to_3_may_concede_under_the_recommended_reading_p15(campaign, concession, allowed):
    _negotiate(campaign, concession=concession)
    campaign.given(
        step("negotiation_round", pirate_bet="purse", opponent_bet="life"),
        step("negotiation_round", pirate_bet="glory", opponent_bet="purse", secret="The governor's debts"),
    )
    campaign.when(step("concede_negotiation"))
    if allowed:
        campaign.then(events.NegotiationEnded(winner="pirates", margin=3, conceded_by="opponent", threat_harm=3))
    else:
        campaign.then_rejected(match="trumps 3:0")


def test_a_concession_only_after_round_2_at_2_0_and_by_the_trailing_side(campaign):
    _negotiate(campaign, "character")
    campaign.given(step("negotiation_round", pirate_bet="purse", opponent_bet="life"))
    campaign.when(step("concede_negotiation"))
    campaign.then_rejected(match=r"round 1 played, trumps 1:0")
    campaign.given(step("negotiation_round", pirate_bet="purse", opponent_bet="life"))
    campaign.when(step("concede_negotiation", actor="player:anna"))
    campaign.then_rejected(match="Governor is the GM's to concede for")
    campaign.when(step("concede_negotiation"))
    campaign.then(events.NegotiationEnded(winner="pirates", margin=2, conceded_by="opponent", loser=None, threat_harm=0))


def test_between_two_pirates_the_initiator_then_the_loser_bets_first_p14(campaign):
    crew(campaign)
    campaign.given(step("start_negotiation", negotiator="Anna", opponent="Bo", opponent_kind="pirate",
                        initiator="opponent"))
    campaign.when(step("negotiation_round", pirate_bet="glory", opponent_bet="glory", dice=[4, 4]))  # Bo rolls 8
    campaign.then(
        events.DiceRolled(), events.MoveBegun(character="Bo"), events.MoveRolled(character="Bo", total=8),
        events.NegotiationRoundPlayed(first="opponent", winner=None, next_first="opponent"),
    )
    campaign.when(step("negotiation_round", pirate_bet="life", opponent_bet="glory"))
    campaign.then(events.MoveClosed(character="Bo", why="round 2 of the negotiation was played"),
                  events.NegotiationRoundPlayed(first="opponent", winner="pirates", next_first="opponent"))
    campaign.when(step("negotiation_round", pirate_bet="purse", opponent_bet="life"))
    campaign.then(
        events.NegotiationRoundPlayed(number=3, first="opponent", winner="pirates"),
        events.NegotiationEnded(winner="pirates", margin=2, loser="Bo"),
        events.LuckLost(character="Bo", amount=2),
    )


def test_negotiation_refusals(campaign):
    crew(campaign)
    campaign.when(step("negotiation_round", pirate_bet="purse", opponent_bet="life"))
    campaign.then_rejected(match="no negotiation is going on")
    campaign.when(step("start_negotiation", negotiator="Anna", opponent="Governor", initiator="opponent"))
    campaign.then_rejected(match="initiator: against the Cartographer's characters the players bet first")
    campaign.given(step("start_negotiation", negotiator="Anna", opponent="Governor"))
    campaign.when(step("start_negotiation", negotiator="Bo", opponent="Governor"))
    campaign.then_rejected(match="Anna is still negotiating with Governor")
    campaign.when(step("negotiation_round", pirate_bet="purse", opponent_bet="life", luck_bonus=True))
    campaign.then_rejected(match="luck_bonus: no Reputation check in this round")
    campaign.when(step("negotiation_round", pirate_bet="purse", opponent_bet="life", secret="X9"))
    campaign.then_rejected(match="secret: 'X9' is not on Chaika's sheet")


# --- issue 35: a chance on the tie's check (L196), out of the scene (L78) --------------------------------


def _planned_negotiation(campaign):
    crew(campaign)
    campaign.given(step("scheme", leader="Anna", goal="g", secrets=["X1"], dice=[5, 5]),  # the crew: 3 chances
                   step("scheme", leader="Anna", goal="g", secrets=["X2"], dice=[1, 1]),  # the GM: 1
                   step("start_negotiation", negotiator="Anna", opponent="Governor"))


@pytest.mark.parametrize(
    ("chance", "side", "total", "outcome", "winner"),
    [("disadvantage", "gm", 6, "miss", "opponent"), ("advantage", "crew", 10, "full_success", "pirates")],
)
def test_a_chance_on_a_tie_keeps_two_of_three_dice_l196(campaign, chance, side, total, outcome, winner):
    """[2, 5, 6] − 1: the GM's chance keeps 2 + 5 (6, a miss), the crew's 5 + 6 (10, the round won)."""
    _planned_negotiation(campaign)
    campaign.when(step("negotiation_round", pirate_bet="life", opponent_bet="life", dice=[2, 5, 6], id="r",
                       **{chance: True}))
    campaign.then(
        events.ChanceSpent(ship="Chaika", side=side, roll="r"), events.DiceRolled(),
        events.MoveBegun(character="Anna", roll="r"), events.MoveRolled(total=total, outcome=outcome),
        events.NegotiationRoundPlayed(number=1, roll="r", winner=winner, trumps=1),
    )


def test_the_odds_of_a_tie_follow_the_chance_spent(campaign):
    """Reputation −1: 2d6 − 1 makes 10+ in 3/36; 3d6 keep the 2 highest, 43/216; the 2 lowest, 1/54."""
    _planned_negotiation(campaign)
    tie = step("negotiation_round", pirate_bet="life", opponent_bet="life")
    assert campaign.odds(tie)["fractions"]["full_success"] == "1/12"
    assert campaign.odds({**tie, "advantage": True})["fractions"]["full_success"] == "43/216"
    assert campaign.odds({**tie, "disadvantage": True})["fractions"]["full_success"] == "1/54"
    assert campaign.sheet("Chaika")["chances"] == 3  # asked, not spent


def test_a_pirate_out_of_the_scene_neither_negotiates_nor_is_negotiated_with_l78(campaign):
    crew(campaign, anna_luck=0)
    campaign.given(step("start_chapter"), step("start_scene"), step("lower_reputation", character="Anna", points=2),
                   step("meet_fate", character="Anna", dice=[3, 5]))
    campaign.when(step("start_negotiation", negotiator="Bo", opponent="Anna", opponent_kind="pirate"))
    campaign.then_rejected(match=r"opponent: Anna left the scene after meeting fate \(L78\) and cannot negotiate")
    campaign.when(step("start_negotiation", negotiator="Anna", opponent="Governor"))
    campaign.then_rejected(match=r"negotiator: Anna left the scene after meeting fate \(L78\)")
