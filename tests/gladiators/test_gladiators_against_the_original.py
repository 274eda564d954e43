"""The gladiator game played through the `rollbook` CLI against the Russian original (issue 14).

Each test cites the line of shared/seeds/gladiators-pdq.ru.txt it checks; the dice are given, except
where the campaign's own seeded dice are the point. Marcus is the digest's (§3.2): MaxHealth 25; with
Strength to attack he adds 12 to the attack dice, with Agility to defence 13 to the defence dice.
"""

from __future__ import annotations

from pathlib import Path

from rollbook.testing.cli import CliCampaign

from .gladiator_builders import END, START, enemy, gladiator, turn


def arena(tmp_path: Path, *foes: dict, **options: object) -> CliCampaign:
    table = CliCampaign(tmp_path, "gladiators", **options)
    table.run(gladiator(player="marcus"), *foes)
    return table


def health(table: CliCampaign, name: str) -> tuple[int, int, bool]:
    sheet = table.sheet(name)
    return sheet["health"], sheet["standing"], sheet["beaten"]


# --- L24: everyone's health comes back between battles -----------------------------------------


def test_between_battles_an_enemy_and_a_squad_get_their_lost_health_back_l24(tmp_path: Path) -> None:
    """L24 «все потерянные в ходе боя единицы здоровья в перерывах между боями восстанавливаются»."""
    table = arena(tmp_path, enemy("Barbarians", 8, 3), enemy("Champion", 20))
    table.run(
        START,
        # [5, 3] + 12 = 20 against 12: the squad loses 8 and the GM reports two still standing.
        turn([5, 3, 4], gm_attack=10, gm_defence=12, standing=2),
        # [6, 2] + 12 = 20 against 13: the champion loses 7 and stays on his feet.
        turn([6, 2, 4], enemy="Champion", gm_attack=10, gm_defence=13),
    )
    assert health(table, "Barbarians") == (16, 2, False)
    assert health(table, "Champion") == (13, 1, False)
    table.run(END)
    assert health(table, "Barbarians") == (24, 3, False)
    assert health(table, "Champion") == (20, 1, False)


def test_a_squad_whose_standing_the_gm_reported_stands_whole_after_the_battle_l24(tmp_path: Path) -> None:
    """Found by the invariant property on the campaign's own dice: a standing reported outside a turn
    (`report_standing`) was not restored by `end_battle`, since the squad had not been fought yet."""
    table = arena(tmp_path, enemy("Squad", 8, 3))
    table.run(START, {"type": "report_standing", "enemy": "Squad", "standing": 1})
    assert health(table, "Squad") == (24, 1, False)
    table.run(END)
    assert health(table, "Squad") == (24, 3, False)
    assert table.verify().exit_code == 0


def test_a_squad_beaten_in_one_battle_stands_whole_in_the_next_l24(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Barbarians", 4, 2))
    table.run(START, turn([6, 6, 6], "total_attack", gm_attack=0, gm_defence=0))  # 30 against 8 health
    assert health(table, "Barbarians") == (-22, 0, True)
    table.run(END, START)
    assert health(table, "Barbarians") == (8, 2, False)
    table.run(turn([1, 1, 1], gm_attack=0, gm_defence=40))  # it can be fought again
    assert table.verify().exit_code == 0


def test_the_campaigns_own_dice_restore_everyone_too(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Champion", 60))
    seeded = turn([], enemy="Champion", gm_attack=0, gm_defence=0)
    del seeded["dice"]
    table.run(START, seeded)
    lost = 60 - table.sheet("Champion")["health"]
    assert lost >= 2 + 12  # two seeded dice and the attack's modifiers, against no defence
    table.run(END)
    assert table.sheet("Champion")["health"] == 60
    assert table.verify().exit_code == 0


# --- L17: the first blow belongs to the battle's first turn ------------------------------------


def test_a_foe_first_engaged_after_the_first_turn_strikes_back_when_felled_l17(tmp_path: Path) -> None:
    """L17 «Первый удар в любом бою наносят персонажи игроков»; digest G-9 (b′): only the battle's first turn."""
    table = arena(tmp_path, enemy("Champion", 60), enemy("Brute", 5))
    table.run(START, turn([1, 1, 1], enemy="Champion", gm_attack=0, gm_defence=40))  # the battle's first turn
    # Turn 2, the first against the Brute: [6, 6, 6] + 12 = 30 fells him; his 40 against Marcus's 13 lands.
    table.run(turn([6, 6, 6], "total_attack", enemy="Brute", gm_attack=40, gm_defence=0))
    assert health(table, "Brute")[2] is True
    assert table.sheet("Marcus")["health"] == 25 - (40 - 13)


def test_in_the_battles_first_turn_a_felled_foe_strikes_no_blow_l17(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Brute", 5))
    table.run(START, turn([6, 6, 6], "total_attack", enemy="Brute", gm_attack=40, gm_defence=0))
    assert health(table, "Brute")[2] is True
    assert table.sheet("Marcus")["health"] == 25


def test_the_per_foe_reading_is_an_option_not_the_default_g9(tmp_path: Path) -> None:
    table = arena(tmp_path, enemy("Champion", 60), enemy("Brute", 5), first_strike="per_foe")
    table.run(START, turn([1, 1, 1], enemy="Champion", gm_attack=0, gm_defence=40),
              turn([6, 6, 6], "total_attack", enemy="Brute", gm_attack=40, gm_defence=0))
    assert table.sheet("Marcus")["health"] == 25
