"""Issue 43, items 6-9, played through the `rollbook` CLI against the Russian original.

Each test cites the line of shared/seeds/gladiators-pdq.ru.txt it checks. Marcus is the digest's (§3.2):
Fencing the main skill (+6), offensive style (+3), Wrestling and Riding Expert (+4), the class skill
Shield (+4 to defence). Livia has Archery Expert and Riding and Swimming Specialist (+2).
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.testing.cli import CliCampaign

from .gladiator_builders import END, START, enemy, gladiator, turn

LIVIA = gladiator(
    "Livia", player="livia", attributes={"Endurance": "great"}, main_skill="Spear", style="defensive",
    skills={"Archery": "expert", "Riding": "specialist", "Swimming": "specialist"},
    class_skill={"name": "Formation drill", "applies_to": "attack"}, motivation=5,
)


def arena(tmp_path: Path, *foes: dict) -> CliCampaign:
    table = CliCampaign(tmp_path, "gladiators")
    table.run(gladiator(player="marcus"), LIVIA, *foes)
    return table


def plain(dice: list[int], tactic: str = "strong_attack", **fields: object) -> dict:
    """A turn with no attribute the GM rules related: only the skill's own modifiers and the class skill."""
    return turn(dice, tactic, **{"attack_related": [], "defence_related": [], **fields})


def sides(table: CliCampaign, command_id: str) -> tuple[int, int]:
    return table.roll(command_id)["total"], table.roll(f"{command_id}#2")["total"]


# --- item 6: a turn fought with another skill than the main one (L4, L5, L7) --------------------


def test_a_turn_fought_with_riding_takes_riding_not_the_masters_six_nor_the_style_l4_l5_l7(tmp_path: Path) -> None:
    """L7 «умелый всадник запросто может отправлять врагов в минуса одними конскими ногами – без всякого
    оружия»; L4's +6 is for the main skill's own actions, L5's +3 for moves with it. Livia rides: attack
    [5, 4] + Riding 2 + her class skill 4 (attack) = 15 against 10: the Barbarians (8) lose 5, 3 left."""
    table = arena(tmp_path, enemy("Barbarians", 8))
    table.run(START, {**plain([5, 4, 3], character="Livia", skill="Riding", gm_attack=0), "id": "ride"})
    attack, defence = sides(table, "ride")
    assert (attack, defence) == (5 + 4 + 2 + 4, 3 + 2)  # Riding on both sides; no +6, no defensive style +3
    assert table.sheet("Barbarians")["health"] == 8 - 5


def test_the_issues_example_a_specialist_rider_without_a_class_skill_on_attack_l7(tmp_path: Path) -> None:
    """The issue's numbers: attack 5 + 4 + Riding 2 = 11 against 10: 7 left to the foe (health 8)."""
    table = CliCampaign(tmp_path, "gladiators")
    table.run({**LIVIA, "class_skill": {"name": "Shield", "applies_to": "defence"}}, enemy("Barbarians", 8), START)
    table.run({**plain([5, 4, 1], character="Livia", skill="Riding"), "id": "ride"})
    assert table.roll("ride")["total"] == 11
    assert table.sheet("Barbarians")["health"] == 7


def test_an_expert_skill_gives_four_on_both_sides_and_the_class_skill_stays_l7_l10(tmp_path: Path) -> None:
    """Marcus wrestles: attack [5, 4] + Wrestling 4 = 13; defence [3] + Wrestling 4 + Shield 4 = 11."""
    table = arena(tmp_path, enemy("Barbarians", 30))
    table.run(START, {**plain([5, 4, 3], skill="Wrestling"), "id": "wrestle"})
    assert sides(table, "wrestle") == (13, 11)
    modifiers = [m["source"] for m in table.roll("wrestle")["modifiers"]]
    assert modifiers == ["Wrestling (expert)"]


def test_the_main_skill_is_the_default_and_may_be_named_l4_l5(tmp_path: Path) -> None:
    """Left out or named, Fencing gives +6 and the offensive style +3 to attack: [5, 4] + 9 = 18."""
    table = arena(tmp_path, enemy("Barbarians", 30))
    table.run(START, {**plain([5, 4, 3]), "id": "default"}, {**plain([5, 4, 3], skill="Fencing"), "id": "named"})
    assert sides(table, "default") == sides(table, "named") == (18, 3 + 6 + 4)


def test_a_skill_the_gladiator_does_not_have_is_refused_naming_his_l7(tmp_path: Path) -> None:
    """Archery is Livia's: Marcus cannot fight a turn with it; nothing is written."""
    table = arena(tmp_path, enemy("Barbarians", 8))
    table.run(START)
    before = len(table.rolls())
    refused = table.refused({**plain([5, 4, 3], skill="Archery"), "actor": "player:marcus"})
    assert refused["field"] == "skill"
    assert refused["reason"] == (
        "'Archery' is not a skill of Marcus (main skill Fencing; additional: Wrestling, Riding; ordinary: none; "
        "class skill Shield) (L4, L7, L8, L10)"
    )
    assert len(table.rolls()) == before and table.sheet("Barbarians")["health"] == 8


def test_a_player_naming_another_players_gladiator_with_her_skill_is_refused(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Barbarians", 8))
    table.run(START)
    refused = table.refused({**plain([5, 4, 3], character="Livia", skill="Archery"), "actor": "player:marcus"})
    assert "player:marcus cannot act for 'Livia'" in refused["reason"]
    assert table.sheet("Barbarians")["health"] == 8


def test_the_turns_skill_named_again_as_related_counts_once_g13(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Barbarians", 8))
    table.run(START)
    refused = table.refused(plain([5, 4, 3], skill="Riding", attack_related=["Riding"]))
    assert refused["field"] == "attack_related" and "counts once" in refused["reason"]


def test_a_turn_with_another_skill_on_the_campaigns_own_dice_verifies(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Barbarians", 100))
    seeded = {**plain([], skill="Wrestling", gm_attack=0, gm_defence=0), "id": "seeded"}
    del seeded["dice"]
    table.run(START, seeded)
    attack, defence = sides(table, "seeded")
    assert 2 + 4 <= attack <= 12 + 4 and 1 + 8 <= defence <= 6 + 8
    assert table.sheet("Barbarians")["health"] == 100 - attack
    assert table.verify().exit_code == 0


def test_the_odds_follow_the_skill_chosen(tmp_path: Path) -> None:
    """`rollbook odds combat_turn`: Riding's +4 instead of Fencing's +6 and the style's +3 on the attack.
    Against a defence of 14, two dice + 4 hit on 11 or 12 (3/36), two dice + 9 on 6 or more (26/36)."""
    table = arena(tmp_path, enemy("Barbarians", 100))
    table.run(START)

    def odds(*fields: str) -> dict:
        result = CliRunner().invoke(app, [
            "-q", "odds", "combat_turn", "character=Marcus", "enemy=Barbarians", "tactic=strong_attack",
            "gm_attack=0", "gm_defence=14", *fields, "--campaign", table.campaign, "--store", table.store, "--json",
        ])
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    riding, fencing = odds("skill=Riding"), odds()
    assert [(m["source"], m["value"]) for m in riding["modifiers"]["attack"]] == [("Riding (expert)", 4)]
    assert [m["source"] for m in fencing["modifiers"]["attack"]] == ["main skill Fencing", "offensive style"]
    assert (riding["fractions"]["hit"], fencing["fractions"]["hit"]) == ("1/12", "13/18")


# --- item 9: ordinary skills (L8, L15) ----------------------------------------------------------


def test_ordinary_skills_show_on_the_sheet_add_no_health_and_fight_at_plus_nothing_l8_l15(tmp_path: Path) -> None:
    """L8 «при желании можно прописать персонажу и прочие навыки: то, в чём герой не лучше и не хуже прочих»;
    L15 counts only the raised ones. A turn fought with Swimming: attack [5, 4] + 0; defence [3] + Shield 4."""
    table = CliCampaign(tmp_path, "gladiators")
    table.run(gladiator(ordinary_skills=["Swimming", "Cooking"]), enemy("Barbarians", 30), START)
    marcus = table.sheet("Marcus")
    assert marcus["ordinary_skills"] == ["Swimming", "Cooking"] and marcus["max_health"] == 25
    table.run({**plain([5, 4, 3], skill="Swimming"), "id": "swim"})
    assert sides(table, "swim") == (9, 7)
    assert table.verify().exit_code == 0


def test_an_ordinary_skill_already_raised_on_the_sheet_is_refused_l8(tmp_path: Path) -> None:
    table = CliCampaign(tmp_path, "gladiators")
    refused = table.refused(gladiator(ordinary_skills=["Riding"]))
    assert refused["field"] == "ordinary_skills" and "Riding is already on the sheet" in refused["reason"]
    assert table.refused(gladiator(ordinary_skills=["Cooking", "Cooking"]))["reason"] == "Cooking listed twice"


def test_a_gladiator_without_ordinary_skills_has_an_empty_list(tmp_path: Path) -> None:
    table = CliCampaign(tmp_path, "gladiators")
    table.run(gladiator())
    assert table.sheet("Marcus")["ordinary_skills"] == []


# --- item 7: one slaughter, one award (L26, L30) ------------------------------------------------


def test_a_squads_slaughter_is_awarded_once_l26_l30(tmp_path: Path) -> None:
    """L26 «За каждое такое действие персонаж получает разовый модификатор»; L30 «за эффектную расправу над
    отрядом противника модификатор +1 даётся не за отряд, а за каждого бойца»: +3 for three, once."""
    table = arena(tmp_path, enemy("Barbarians", 4, 3))
    table.run(START, turn([6, 6, 6], "total_attack", gm_attack=0, gm_defence=0))  # 30 against 12
    award = {"type": "award_roleplay", "character": "Marcus", "amount": 3, "enemy": "Barbarians"}
    table.run(award)
    refused = table.refused(award)
    assert refused["field"] == "enemy" and "awarded already" in refused["reason"] and "L26" in refused["reason"]
    assert table.refused({**award, "character": "Livia"})["field"] == "enemy"
    assert table.sheet("Marcus")["roleplay_tokens"] == 3 and table.sheet("Livia")["roleplay_tokens"] == 0
    # A free award for something else is the GM's to give (L26).
    table.run({"type": "award_roleplay", "character": "Marcus", "amount": 1, "reason": "saluted the emperor"})
    assert table.sheet("Marcus")["roleplay_tokens"] == 4


def test_the_same_squad_slaughtered_in_a_later_battle_earns_its_award_again_l24_l30(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Barbarians", 4, 3))
    award = {"type": "award_roleplay", "character": "Marcus", "amount": 3, "enemy": "Barbarians"}
    table.run(START, turn([6, 6, 6], "total_attack", gm_attack=0, gm_defence=0), award, END)
    table.run(START, turn([6, 6, 6], "total_attack", gm_attack=0, gm_defence=0), award)
    assert table.sheet("Marcus")["roleplay_tokens"] == 6
    assert table.verify().exit_code == 0


# --- item 8: a squad of unequal fighters (L23) --------------------------------------------------


def test_a_squad_of_unequal_fighters_has_their_summed_health_l23(tmp_path: Path) -> None:
    """L23 «отряд … рассматривается как единый противник, число единиц здоровья которого равно сумме единиц
    здоровья всех членов отряда»: 8, 8 and 12 make 28, three standing."""
    table = arena(tmp_path, {"type": "create_enemy", "name": "Gauls", "member_health": [8, 8, 12]})
    gauls = table.sheet("Gauls")
    assert (gauls["health"], gauls["max_health"], gauls["standing"], gauls["members"], gauls["squad"]) == (
        28, 28, 3, 3, True)
    assert gauls["member_health"] == [8, 8, 12]


def test_the_standing_count_follows_which_fighters_can_have_fallen_l23(tmp_path: Path) -> None:
    """After 10 lost (18 left): one of the 8s can be down, not two (16 > 10); and the 12 alone cannot hold 18."""
    table = arena(tmp_path, {"type": "create_enemy", "name": "Gauls", "member_health": [8, 8, 12]})
    table.run(START, plain([6, 6, 3], enemy="Gauls", skill="Fencing", gm_attack=0, gm_defence=11))  # 21 - 11 = 10
    assert table.sheet("Gauls")["health"] == 18
    refused = table.refused({"type": "report_standing", "enemy": "Gauls", "standing": 1})
    assert refused["reason"].startswith("Gauls has lost 10 health: 2 of its fighters (8, 8, 12) cannot be down")
    table.run({"type": "report_standing", "enemy": "Gauls", "standing": 2})
    # 14 more lost (4 left): the 12 and an 8 down takes 20 <= 24, and one 8 holds the 4 left.
    table.run(plain([6, 6, 6], "total_attack", enemy="Gauls", gm_attack=0, gm_defence=13, standing=1))
    gauls = table.sheet("Gauls")
    assert (gauls["health"], gauls["standing"]) == (4, 1)
    table.run(END)
    assert (table.sheet("Gauls")["health"], table.sheet("Gauls")["standing"]) == (28, 3)
    assert table.verify().exit_code == 0


def test_a_standing_count_the_health_left_cannot_be_held_by_is_refused_in_the_turn_l23(tmp_path: Path) -> None:
    table = arena(tmp_path, {"type": "create_enemy", "name": "Gauls", "member_health": [8, 8, 12]})
    table.run(START)
    refused = table.refused(plain([1, 1, 1], enemy="Gauls", gm_attack=0, gm_defence=8, standing=1))  # 11 - 8: 3 lost
    assert refused["field"] == "standing"
    assert refused["reason"].startswith("Gauls has lost 3 health: 2 of its fighters (8, 8, 12) cannot be down")
    assert table.sheet("Gauls")["health"] == 28


def test_a_squad_is_given_health_and_members_or_member_health_not_both(tmp_path: Path) -> None:
    table = arena(tmp_path)
    both = table.refused({"type": "create_enemy", "name": "Gauls", "health": 8, "member_health": [8, 12]})
    assert both["field"] == "member_health" and "not both nor neither" in both["reason"]
    assert table.refused({"type": "create_enemy", "name": "Gauls"})["field"] == "health"
    counted = table.refused({"type": "create_enemy", "name": "Gauls", "members": 3, "member_health": [8, 12]})
    assert counted["field"] == "members"
    assert table.refused({"type": "create_enemy", "name": "Gauls", "member_health": [8, 0]})["field"].startswith(
        "member_health")
