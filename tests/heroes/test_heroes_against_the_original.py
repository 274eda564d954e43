"""We Can Be Heroes played through the `rollbook` CLI against the Russian original (issues 14 and 15).

Each test cites the line of shared/seeds/heroes-d6.ru.txt it checks; the dice are given, except
where the campaign's own seeded dice are the point.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rollbook.testing.cli import CliCampaign

from .heroes_builders import BLAST, hero

BATTLE = [{"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}, {"type": "start_battle"},
          {"type": "next_page"}]


def attack(attacker: str, target: str, trait: str = "Blast", **fields: object) -> dict[str, object]:
    return {"type": "attack", "attacker": attacker, "target": target, "trait": trait, **fields}


# --- issue 15: every roll takes its own nonce -----------------------------------------------


def test_both_sides_of_an_opposed_roll_take_their_own_nonce_and_verify_passes(tmp_path: Path) -> None:
    """An opposed check (L34) and an attack with its defence (L174-L175) roll two pools from the seed."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", player="ann", powers={"Blast": BLAST}), hero("Bob", role="villain"), *BATTLE,
              {"type": "roll_check", "id": "opp1", "character": "Ann", "trait": "strength",
               "opponent": "Bob", "opponent_trait": "strength"},
              attack("Ann", "Bob", id="hit1", actor="player:ann"))
    rolls = table.rolls()
    assert [r["id"] for r in rolls] == ["opp1", "opp1#2", "hit1", "hit1#2"]
    assert all(r["source"] == "hmac" for r in rolls)
    assert [r["nonce"] for r in rolls] == [0, 1, 2, 3]
    verified = table.verify()
    assert verified.exit_code == 0, verified.output


# --- issue 14: the roll log agrees with itself after Resolve --------------------------------

SCENE = [{"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}]


def logged(roll: dict[str, object]) -> tuple[object, ...]:
    return roll["successes"], roll["net"], roll["total"], roll["outcome"]


def test_dice_bought_after_the_roll_and_a_reroll_revise_successes_and_net_in_the_log(tmp_path: Path) -> None:
    """L108: Resolve dice after the roll, or a reroll of all of them; L34: net = successes − difficulty."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", agility=3), *SCENE,
              {"type": "roll_check", "id": "chk", "character": "Ann", "trait": "agility", "difficulty": 2,
               "dice": [1, 2, 5]})
    assert logged(table.roll("chk")) == (1, -1, 1, "opponent_narrates_with_embellishment")
    table.run({"type": "spend_resolve", "character": "Ann", "purpose": "dice", "dice": [6]})
    assert logged(table.roll("chk")) == (3, 1, 3, "hero_narrates_with_embellishment")
    # One more die keeps the outcome's band (net 1 → 2): the log follows all the same.
    table.run({"type": "spend_resolve", "character": "Ann", "purpose": "dice", "dice": [4]})
    chk = table.roll("chk")
    assert logged(chk) == (4, 2, 4, "hero_narrates_with_embellishment")
    assert chk["pool"] == [["agility", 3], ["resolve after the roll", 1], ["resolve after the roll", 1]]
    table.run({"type": "spend_resolve", "character": "Ann", "purpose": "reroll", "dice": [6, 6, 4, 1, 3]})
    assert logged(table.roll("chk")) == (5, 3, 5, "hero_narrates")


def test_the_defenders_dice_after_the_roll_revise_the_opposed_net_of_both_rolls(tmp_path: Path) -> None:
    """L34: an opposed roll's net is its successes less the other side's; L108: Resolve after the roll."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann"), hero("Bob", role="villain"), *SCENE,
              {"type": "roll_check", "id": "opp", "character": "Ann", "trait": "strength", "opponent": "Bob",
               "opponent_trait": "strength", "dice": [6, 2, 1, 2, 1, 1]})
    assert logged(table.roll("opp")) == (3, 2, 3, "hero_narrates_with_embellishment")
    assert logged(table.roll("opp#2")) == (1, -2, 1, "opponent_narrates")
    table.run({"type": "spend_resolve", "character": "Bob", "purpose": "dice", "amount": 2, "dice": [6, 6]})
    assert logged(table.roll("opp")) == (3, -2, 3, "opponent_narrates")
    assert logged(table.roll("opp#2")) == (5, 2, 5, "hero_narrates_with_embellishment")


# --- issue 14: defeat by an effect is a matter of the Health left ---------------------------


def test_an_effect_defeats_when_health_falls_to_its_pages(tmp_path: Path) -> None:
    """L195: an effect lasting as many pages as the Health *left*, or more, defeats him to the scene's end."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Bob", role="villain", stamina=6, strength=6), *BATTLE,
              {"type": "apply_effect", "character": "Bob", "effect": "stun", "pages": 3})
    bob = table.sheet("Bob")
    assert (bob["health"], bob["effects"]["stun"]["defeating"], bob["defeated"]) == (6, False, False)
    table.run({"type": "take_damage", "character": "Bob", "amount": 2, "lethal": True})
    assert table.sheet("Bob")["defeated"] is False  # 3 pages < Health 4
    table.run({"type": "take_damage", "character": "Bob", "amount": 1, "lethal": True})
    bob = table.sheet("Bob")
    assert bob["health"] == 3
    assert (bob["effects"]["stun"]["until"], bob["effects"]["stun"]["defeating"], bob["defeated"]) == (
        "scene", True, True)


def test_an_attack_that_lowers_health_below_an_effects_pages_defeats(tmp_path: Path) -> None:
    """L186 then L195: the blast takes Health 6 to 2, and the stun's 3 pages now defeat him."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", powers={"Blast": BLAST}), hero("Bob", role="villain", stamina=6, strength=6, agility=1),
              *BATTLE, {"type": "apply_effect", "character": "Bob", "effect": "stun", "pages": 3},
              # Blast 6: [6, 2, 2, 1, 1, 1] = 4 successes vs half Stamina 3: [1, 1, 1] = 0 → 4 damage.
              attack("Ann", "Bob", dice=[6, 2, 2, 1, 1, 1, 1, 1, 1]))
    bob = table.sheet("Bob")
    assert bob["health"] == 2 and bob["effects"]["stun"]["defeating"] and bob["defeated"]
    refused = table.refused(attack("Bob", "Ann", "strength", dice=[1] * 6))
    assert "defeated" in refused["reason"]


def test_a_manoeuvre_leaves_a_penalty_not_a_defeat(tmp_path: Path) -> None:
    """L224-L231: a manoeuvre gives roll penalties and costs movement, a weapon or a page; only a Power's
    special effect defeats by its pages (L195). Overpower: Strength vs Strength or active defence (L237)."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", strength=6), hero("Bob", role="villain", stamina=2, strength=2, will=1, agility=1),
              *BATTLE,
              # Strength 6: [6, 6, 2, 2, 1, 1] = 6 vs Bob's Strength 2: [1, 1] = 0 → net 6: 3 pages, −3 dice (L231).
              {"type": "manoeuvre", "attacker": "Ann", "target": "Bob", "manoeuvre": "overpower",
               "trait": "strength", "dice": [6, 6, 2, 2, 1, 1, 1, 1]})
    bob = table.sheet("Bob")
    overpower = bob["effects"]["overpower"]
    assert bob["health"] == 2 and overpower["pages"] == 3 > bob["health"]
    assert (overpower["penalty"], overpower["until"], overpower["defeating"]) == (3, "pages", False)
    assert bob["defeated"] is False
    # And Health falling below its pages later does not make it a defeat either.
    table.run({"type": "take_damage", "character": "Bob", "amount": 1, "lethal": True})
    assert table.sheet("Bob")["defeated"] is False


def test_a_rank_lost_to_a_defining_moment_that_lowers_health_to_an_effects_pages_defeats(tmp_path: Path) -> None:
    """L79: the Moment costs an Ability rank, MaxHealth (L188-L189) and Health with it; then L195 applies."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", stamina=3, strength=2, will=2), *SCENE,
              {"type": "apply_effect", "character": "Ann", "effect": "stun", "pages": 2},
              {"type": "declare_defining_moment", "character": "Ann", "effort": "physical"},
              {"type": "roll_check", "character": "Ann", "trait": "agility", "dice": [1, 1, 1]})
    assert (table.sheet("Ann")["health"], table.sheet("Ann")["defeated"]) == (3, False)
    table.run({"type": "lower_ability", "character": "Ann", "ability": "stamina"})
    ann = table.sheet("Ann")
    assert ann["health"] == 2 and ann["effects"]["stun"]["defeating"] and ann["defeated"]


# --- issue 14: messages name their rule -------------------------------------------------------


def test_a_knockback_victim_is_refused_his_next_page_naming_the_knockback(tmp_path: Path) -> None:
    """L265-L266: after 6+ damage, 1 Resolve throws the target, who «также теряет следующий ход»."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", powers={"Blast": {"rank": 8, "uses": ["attack"]}}),
              hero("Ogre", role="villain", agility=1, stamina=8, strength=8), *BATTLE,
              # Blast 8: [6, 6, 6, 1, 1, 1, 1, 1] = 6 vs half Stamina 4: [1, 1, 1, 1] = 0 → 6 damage.
              attack("Ann", "Ogre", dice=[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
              {"type": "spend_resolve", "character": "Ann", "purpose": "knockback"},
              {"type": "next_page"})
    refused = table.refused(attack("Ogre", "Ann", "strength", dice=[1] * 11))
    assert refused["reason"] == ("Ogre loses page 2 and cannot act in it: knocked back by Ann (far range): "
                                 "the knockback costs the next page (L266)")


def test_the_recovery_after_a_days_rest_is_once_per_day(tmp_path: Path) -> None:
    """L193: «Такую же проверку можно проходить каждые сутки после отдыха»."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", stamina=4, strength=4), *SCENE, {"type": "take_damage", "character": "Ann", "amount": 3},
              {"type": "next_day"}, {"type": "recover", "character": "Ann", "rest": "day", "dice": [2, 1, 1, 1]})
    refused = table.refused({"type": "recover", "character": "Ann", "rest": "day", "dice": [6, 6, 6, 6]})
    assert refused["reason"] == ("a character may make the recovery check after a day's rest: "
                                 "only once per day (day 1) (L193); already used 1")
    table.run({"type": "next_day"}, {"type": "recover", "character": "Ann", "rest": "day", "dice": [6, 2, 1, 1]})
    assert table.sheet("Ann")["health"] == 2


# --- issue 14: initiative order -----------------------------------------------------------------

#: Fast: Perception 3 + Agility 6 = Edge 9; Slow: 3 + 3 = 6; Boss, a villain, Edge 6 too (L127-L131).
FAST_AND_SLOW = [hero("Fast", player="fay", agility=6, powers={"Blast": BLAST}),
                 hero("Slow", player="sam", powers={"Blast": BLAST}), hero("Boss", role="villain")]


def test_a_slower_character_is_refused_until_the_faster_have_acted_or_passed(tmp_path: Path) -> None:
    """L126: «Каждый персонаж может действовать один раз за ход, порядок определяется Инициативой (Edge)»;
    ties go heroes before villains (L130-L131). With the campaign's own dice."""
    table = CliCampaign(tmp_path, "heroes")
    # Boss's Health 8 outlasts Slow's Strength 3 (6 successes at most), whatever the seed rolls.
    table.run(*FAST_AND_SLOW[:2], hero("Boss", role="villain", stamina=8, strength=8), *BATTLE)
    assert table.campaign_sheet()["initiative"]["order"] == [["Fast"], ["Slow"], ["Boss"]]
    refused = table.refused(attack("Slow", "Boss", "strength", actor="player:sam"))
    assert refused["field"] == "attacker"
    assert refused["reason"] == (
        "Fast (Edge 9) acts before Slow in page 1: characters act in Edge order (L126), and Slow has Edge 6; "
        "each acts, passes (`pass`) or delays his action (`delay_action`) first")
    refused = table.refused(attack("Boss", "Fast", "strength"))
    assert refused["reason"].startswith("Fast (Edge 9), Slow (Edge 6) act before Boss in page 1")
    table.run({"type": "pass", "character": "Fast", "actor": "player:fay"},
              attack("Slow", "Boss", "strength", id="slow-hits", actor="player:sam"),
              attack("Boss", "Slow", "strength", id="boss-hits"))
    assert [r["id"] for r in table.rolls()] == ["slow-hits", "slow-hits#2", "boss-hits", "boss-hits#2"]
    assert all(r["source"] == "hmac" for r in table.rolls())
    # Fast passed his turn: he acts no more this page; the next page he acts first again.
    refused = table.refused(attack("Fast", "Boss", actor="player:fay"))
    assert refused["reason"] == "Fast passed his turn in page 1 (L126)"
    table.run({"type": "next_page"}, attack("Fast", "Boss", actor="player:fay"))
    assert table.verify().exit_code == 0


def test_a_player_passes_only_for_his_own_hero(tmp_path: Path) -> None:
    table = CliCampaign(tmp_path, "heroes")
    table.run(*FAST_AND_SLOW, *BATTLE)
    refused = table.refused({"type": "pass", "character": "Fast", "actor": "player:sam"})
    assert "player:sam cannot act for 'Fast', who belongs to player:fay" in refused["reason"]
    assert table.campaign_sheet()["initiative"]["order"][0] == ["Fast"]
    refused = table.refused(attack("Slow", "Boss", actor="player:sam", dice=[1] * 9))
    assert "Fast (Edge 9) acts before Slow" in refused["reason"]


def test_a_delayed_action_lets_the_slower_act_and_comes_at_its_moment(tmp_path: Path) -> None:
    """L135: an action held until a moment of the page; it does not hold up the others."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(*FAST_AND_SLOW, *BATTLE, {"type": "delay_action", "character": "Fast", "moment": "Boss moves"},
              attack("Slow", "Boss", dice=[1] * 9), {"type": "trigger_moment", "moment": "Boss moves"},
              attack("Fast", "Boss", dice=[1] * 9))
    assert len(table.rolls()) == 4


def test_characters_of_one_edge_and_side_act_in_any_order_and_a_team_attack_comes_last(tmp_path: Path) -> None:
    """L132: the same Edge on the same side acts at once; L272: a team attack at the very end of the page."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann"), hero("Bea"), hero("Boss", role="villain"), *BATTLE)
    assert table.campaign_sheet()["initiative"]["order"] == [["Ann", "Bea"], ["Boss"]]
    team = {"type": "team_attack", "target": "Boss", "members": [
        {"attacker": "Ann", "trait": "strength"}, {"attacker": "Bea", "trait": "strength"}], "dice": [1] * 16}
    refused = table.refused(team)
    assert refused["reason"].startswith("Boss (Edge 6) acts before Ann in page 1: a team attack comes at the very "
                                        "end of the page (L272)")
    table.run({"type": "pass", "character": "Boss"}, team)
    table.run({"type": "next_page"}, attack("Bea", "Boss", "strength", dice=[1] * 6),
              attack("Ann", "Boss", "strength", dice=[1] * 6))


def test_a_table_that_plays_in_any_order_says_so_in_its_options(tmp_path: Path) -> None:
    """The rule option `initiative_order: free` lets a forum table post as it can; L126 is the default."""
    table = CliCampaign(tmp_path, "heroes", initiative_order="free")
    table.run(*FAST_AND_SLOW, *BATTLE, attack("Slow", "Boss", dice=[1] * 9))
    assert len(table.rolls()) == 2


# --- issue 35: a third reading of the original ------------------------------------------------
# Each scenario runs with the faces given and with the campaign's own seeded dice (`dice`).


@pytest.fixture(params=["typed", "seeded"])
def dice(request: pytest.FixtureRequest) -> str:
    return request.param


def faces(dice: str, given: list[int]) -> dict[str, object]:
    """`dice` of a command with typed faces; nothing (the campaign's seeded dice) otherwise."""
    return {"dice": given} if dice == "typed" else {}


def move(character: str, other: str, to: str, **fields: object) -> dict[str, object]:
    return {"type": "move", "character": character, "other": other, "to": to, **fields}


def test_movement_is_still_allowed_during_all_out_defence_l263(tmp_path: Path, dice: str) -> None:
    """L262 «не может в таком случае атаковать или совершать другие действия»; L263 «Перемещение и свободные
    действия все еще доступны во время тотальной защиты»: a move after it is accepted, as one before it is."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", player="ann"), hero("Bob", role="villain", powers={"Blast": BLAST}), *BATTLE,
              {"type": "set_distance", "character": "Ann", "other": "Bob", "distance": "far"},
              {"type": "all_out_defence", "character": "Ann", "actor": "player:ann"},
              move("Ann", "Bob", "close", actor="player:ann"))
    # On foot a range class takes 2 pages (L160): the movement has begun.
    assert [e["data"]["mover"] for e in table.log() if e["type"] == "MovementBegun"] == ["Ann"]
    refused = table.refused(attack("Ann", "Bob", "strength", actor="player:ann", dice=[1] * 6))
    assert (refused["field"], refused["reason"]) == ("attacker", (
        "Ann is in all-out defence this page: no attacks or other actions (L262); "
        "movement and free actions are still allowed (L263)"))
    refused = table.refused(move("Ann", "Bob", "close", actor="player:ann"))  # one movement a page (L143)
    assert "(L143)" in refused["reason"]
    # Bob's Blast 6 against Ann's Agility 3 with the +2 dice of all-out defence (L262).
    table.run(attack("Bob", "Ann", id="blast", **faces(dice, [6, 6, 1, 1, 1, 1, 2, 2, 2, 2, 1])))
    assert table.roll("blast#2")["pool"] == [["agility", 3], ["all-out defence", 2]]
    if dice == "typed":
        assert table.sheet("Ann")["health"] == 3  # 4 successes against 4
    else:
        assert table.roll("blast")["source"] == "hmac"
    assert table.verify().exit_code == 0


def test_characters_of_one_simultaneous_group_may_knock_each_other_out_l132(tmp_path: Path, dice: str) -> None:
    """L132 «в таком случае атаки происходят одновременно и возможны ситуации, когда персонажи вырубают друг
    друга»: Ann and Bea, two heroes of Edge 6, act at the same moment (L131 cannot break their tie); Bea,
    felled by Ann's blast, still makes her attack of the page, and its damage applies (the exception to L186)."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", player="ann", powers={"Blast": BLAST}), hero("Bea", player="bea", powers={"Blast": BLAST}),
              hero("Boss", role="villain", stamina=8, strength=8), *BATTLE)
    assert table.campaign_sheet()["initiative"]["order"] == [["Ann", "Bea"], ["Boss"]]
    # Blast 6: [6, 6, 6, 2, 1, 1] = 7 against Bea's Agility 3: [1, 1, 1] = 0 → 7 damage, Health 3 → 0.
    table.run(attack("Ann", "Bea", actor="player:ann", dice=[6, 6, 6, 2, 1, 1, 1, 1, 1]))
    assert (table.sheet("Bea")["health"], table.sheet("Bea")["defeated"]) == (0, True)
    # Bea's attack is of this same moment: the Boss, slower, waits for it (L126).
    refused = table.refused(attack("Boss", "Ann", "strength", dice=[1] * 11))
    assert refused["reason"].startswith("Bea (Edge 6) acts before Boss in page 1")
    table.run(attack("Bea", "Ann", id="back", actor="player:bea", **faces(dice, [6, 6, 6, 2, 1, 1, 1, 1, 1])))
    back, guard = table.roll("back"), table.roll("back#2")
    assert back["character"] == "Bea" and guard["character"] == "Ann"
    assert table.sheet("Ann")["health"] == max(0, 3 - max(0, back["successes"] - guard["successes"]))
    if dice == "typed":
        assert (table.sheet("Ann")["health"], table.sheet("Ann")["defeated"]) == (0, True)  # a mutual knock-out
    else:
        assert back["source"] == "hmac"
    # Her attack made, she is out of the fight like anyone at Health 0 (L186).
    refused = table.refused(attack("Bea", "Boss", actor="player:bea", dice=[1] * 14))
    assert refused["reason"] == "Bea is defeated and cannot continue the fight (L186, L195)"
    table.run({"type": "next_page"})
    assert "Bea" not in sum(table.campaign_sheet()["initiative"]["order"], [])
    assert table.verify().exit_code == 0


def test_a_protector_gives_up_the_action_of_his_next_page_not_his_movement_l257(tmp_path: Path, dice: str) -> None:
    """L257 «Вместо действия в следующем ходу»: only the action; L141 «За ход персонаж может переместиться и
    совершить одно действие» keeps the two apart, and L143 allows one movement a page, as always."""
    table = CliCampaign(tmp_path, "heroes")
    # Tank's passive Stamina 8 outlasts Bob's Strength 3 (6 successes at most), whatever the seed rolls.
    table.run(hero("Tank", player="tim", agility=1, stamina=8, strength=8, powers={"Blast": BLAST}),
              hero("Ann", player="ann"), hero("Bob", role="villain"), *BATTLE,
              {"type": "set_distance", "character": "Tank", "other": "Bob", "distance": "far"},
              {"type": "protect", "character": "Tank", "ward": "Ann", "actor": "player:tim"},
              {"type": "pass", "character": "Ann", "actor": "player:ann"},
              {"type": "pass", "character": "Tank", "actor": "player:tim"},
              attack("Bob", "Ann", "strength", id="punch", dice=[1] * 6))
    assert table.roll("punch#2")["character"] == "Ann"  # the protection is the next page's (L257, issue 43)
    table.run({"type": "next_page"}, move("Tank", "Bob", "close", actor="player:tim"))
    tank = table.sheet("Tank")
    assert (tank["lost_pages"], tank["actions_given_up"]) == ([], [2])
    refused = table.refused(attack("Tank", "Bob", actor="player:tim", dice=[1] * 9))
    assert (refused["field"], refused["reason"]) == ("attacker", (
        "Tank gave up his action of page 2: he protects Ann instead of acting (L257); he may still move (L141)"))
    assert "(L143)" in table.refused(move("Tank", "Bob", "close", actor="player:tim"))["reason"]
    # Without an action he holds nobody up (L126): Ann passes, and Bob acts.
    table.run({"type": "pass", "character": "Ann", "actor": "player:ann"},
              attack("Bob", "Ann", "strength", id="again", **faces(dice, [6, 6, 2, 1, 1, 1, 1])))
    assert table.roll("again#2")["character"] == "Tank"  # he defends for her (L257), passively (L259)
    assert table.sheet("Ann")["health"] == 3
    table.run({"type": "next_page"}, {"type": "pass", "character": "Ann", "actor": "player:ann"},
              {"type": "pass", "character": "Tank", "actor": "player:tim"},
              attack("Bob", "Ann", "strength", id="after", dice=[1] * 6))
    assert table.roll("after#2")["character"] == "Ann"  # protected in page 2 only
    if dice == "seeded":
        assert {table.roll(r)["source"] for r in ("again",)} == {"hmac"}
    assert table.verify().exit_code == 0
