"""«Поднять паруса!» played through the `rollbook` CLI against the Russian original (issue 14).

Each test cites the line of shared/seeds/pirates-pbta.ru.txt it checks; the dice are given, except
where the campaign's own seeded dice are the point. The crew is the digest's (§18): Anna (player
anna; Audacity +2, Guile +1, Foresight +1, Reputation −1), Bo (player bo), and their ship Chaika.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rollbook.testing.cli import CliCampaign


def crew(folder: Path, *, in_port: bool = False, anna_luck: int = 2, **options: Any) -> CliCampaign:
    folder.mkdir(exist_ok=True)
    table = CliCampaign(folder, "pirates", **options)
    table.run(
        {"type": "create_character", "name": "Anna", "player": "anna", "luck": anna_luck,
         "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}},
        {"type": "create_character", "name": "Bo", "player": "bo", "luck": 2,
         "stats": {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}},
        {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4,
         "secrets": ["X1", "X2"], "in_port": in_port},
        {"type": "start_chapter"}, {"type": "start_scene", "enemy": "Kraken"},
    )
    return table


def roll(character: str, stat: str, dice: list[int] | None = None, **fields: Any) -> dict[str, Any]:
    command = {"type": "roll_move", "character": character, "stat": stat, **fields}
    if dice is not None:
        command["dice"] = dice
    return command


# --- L85: a dead pirate makes no more moves -------------------------------------------------------


def dead_anna(tmp_path: Path) -> CliCampaign:
    """Anna, with no luck, must lower a Reputation of −2 (L44): fate (L75); 3 + 5 = 8, she picks death (L78, L85)."""
    table = crew(tmp_path, anna_luck=0)
    table.run(
        {"type": "lower_reputation", "character": "Anna", "points": 2},
        {"type": "meet_fate", "character": "Anna", "actor": "player:anna", "dice": [3, 5]},
        {"type": "choose_fate", "character": "Anna", "actor": "player:anna", "option": "die_after_last_action"},
    )
    assert table.sheet("Anna")["dead"] is True
    return table


@pytest.mark.parametrize(
    "command",
    [
        roll("Anna", "audacity", [3, 4], actor="player:anna"),
        roll("Anna", "audacity", [3, 4]),  # the GM cannot move her either
        {"type": "spend_luck", "character": "Anna", "purpose": "help", "roll": "bo-1", "actor": "player:anna"},
        {"type": "tell_tall_tale", "character": "Anna", "actor": "player:anna"},
        {"type": "scheme", "leader": "Anna", "goal": "g", "secrets": ["X1"], "dice": [3, 4]},
        {"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"},
    ],
    ids=["roll", "roll-by-gm", "help", "tall-tale", "scheme", "negotiate"],
)
def test_a_dead_pirate_makes_no_more_moves_l85(tmp_path: Path, command: dict[str, Any]) -> None:
    """L85 «ты погибаешь, успев совершить последнее действие»: after it, nothing more."""
    table = dead_anna(tmp_path)
    table.run(roll("Bo", "guile", [3, 3], id="bo-1"), {"type": "enter_port", "ship": "Chaika"},
              {"type": "start_carousal"})
    error = table.refused(command)
    assert "Anna is dead, having made a last action (L85), and cannot" in error["reason"]


def test_a_dead_pirate_is_not_back_in_play_when_the_scene_ends_l85(tmp_path: Path) -> None:
    table = dead_anna(tmp_path)
    assert table.sheet("Anna")["out_of_scene"] is True
    table.run({"type": "end_scene"}, {"type": "start_scene", "enemy": "Kraken"})
    assert table.sheet("Anna")["out_of_scene"] is True
    assert "(L85)" in table.refused(roll("Anna", "audacity"))["reason"]  # not even with the seeded dice
    table.run(roll("Bo", "audacity"))  # the living play on, with the campaign's own dice
    assert table.verify().exit_code == 0


def test_a_pirate_who_came_to_his_senses_somewhere_plays_on_after_the_scene_l84(tmp_path: Path) -> None:
    table = crew(tmp_path, anna_luck=0)
    table.run(
        {"type": "lower_reputation", "character": "Anna", "points": 2},
        {"type": "meet_fate", "character": "Anna", "dice": [3, 5]},
        {"type": "choose_fate", "character": "Anna", "option": "wake_who_knows_where"},
        {"type": "end_scene"}, roll("Anna", "audacity", [3, 4], id="after"),
    )
    assert table.roll("after")["total"] == 3 + 4 + 2


# --- L210: an automatic move is not rolled --------------------------------------------------------


def test_sale_of_loot_is_an_automatic_move_and_is_not_rolled_l210(tmp_path: Path) -> None:
    """L210 «Продажа добычи (авто-ход)»: the GM applies it; there is no check."""
    table = crew(tmp_path, in_port=True)
    for move in ("sale_of_loot", "Продажа добычи"):
        error = table.refused(roll("Anna", "reputation", [3, 4], move=move, actor="player:anna"))
        assert error["field"] == "move"
        assert "Sale of Loot (Продажа добычи) is an automatic move, not rolled (L210)" in error["reason"]
        assert "`gain_money`" in error["reason"]
    table.run({"type": "gain_money", "to": "Chaika", "chests": 2, "reason": "Sale of Loot (L210)"})
    assert table.sheet("Chaika")["treasury_piastres"] == 100
    assert table.rolls() == []


# --- L206: port moves need a port ----------------------------------------------------------------


@pytest.mark.parametrize(("move", "stat"), [("stock_up", "foresight"), ("Закупиться", "guile"),
                                            ("wild_carousing", "reputation"), ("courtly_amusements", "reputation")])
def test_port_moves_are_refused_at_sea_l206(tmp_path: Path, move: str, stat: str) -> None:
    """L206 «Ходы в порту»: Stock Up (L208) and the carousing moves (L212) are made in port."""
    table = crew(tmp_path)
    error = table.refused(roll("Anna", stat, [3, 4], move=move, actor="player:anna"))
    assert error["field"] == "move"
    assert "Chaika is at sea" in error["reason"] and "port move (L206)" in error["reason"]
    table.run({"type": "enter_port", "ship": "Chaika"}, roll("Anna", stat, [3, 4], move=move, id="in-port"))
    assert table.roll("in-port")["total"] == 7 + {"foresight": 1, "guile": 1, "reputation": -1}[stat]
    table.run({"type": "put_to_sea", "ship": "Chaika"})
    assert "Chaika is at sea" in table.refused(roll("Anna", stat, move=move))["reason"]  # seeded dice too


def test_a_port_move_with_several_ships_names_the_crews_ship(tmp_path: Path) -> None:
    table = crew(tmp_path)
    table.run({"type": "create_ship", "name": "Brig", "navigation": 1, "firepower": 1, "displacement": 1,
               "hull": 3, "in_port": True})
    assert "name the ship" in table.refused(roll("Anna", "foresight", [3, 4], move="stock_up"))["reason"]
    assert "Chaika is at sea" in table.refused(
        roll("Anna", "foresight", [3, 4], move="stock_up", ship="Chaika"))["reason"]
    table.run(roll("Anna", "foresight", [3, 4], move="stock_up", ship="Brig"))


def test_a_carousal_is_held_in_port_by_default_and_anywhere_by_option_l52(tmp_path: Path) -> None:
    """L52 «если во время попойки пират рассказывает байку» names no place; the digest (§1, §12) holds it in port."""
    table = crew(tmp_path / "in-port")
    error = table.refused({"type": "start_carousal", "title": "On deck"})
    assert error["field"] == "ship" and "a carousal is held in port" in error["reason"]
    table.run({"type": "enter_port", "ship": "Chaika"}, {"type": "start_carousal"},
              {"type": "tell_tall_tale", "character": "Anna", "actor": "player:anna"})
    assert table.sheet("Anna")["luck"] == 3

    anywhere = crew(tmp_path / "anywhere", carousal="anywhere")
    anywhere.run({"type": "start_carousal", "title": "On deck"},
                 {"type": "tell_tall_tale", "character": "Anna", "actor": "player:anna"})
    assert anywhere.sheet("Anna")["luck"] == 3
    # The carousing moves stay port moves (L206) whatever the option.
    assert "port move (L206)" in anywhere.refused(roll("Anna", "reputation", [3, 4], move="wild_carousing"))["reason"]


# --- L45-L46: luck after a roll its move settles at once -------------------------------------------


def luck(character: str, purpose: str, roll_id: str, **fields: Any) -> dict[str, Any]:
    return {"type": "spend_luck", "character": character, "purpose": purpose, "roll": roll_id, **fields}


def chances(table: CliCampaign) -> tuple[int, int]:
    ship = table.sheet("Chaika")
    return ship["chances"], ship["gm_chances"]


def test_luck_after_the_scheme_check_changes_the_chances_l45_l46(tmp_path: Path) -> None:
    """L45 «+1 к результату проверки», L46 «Принять решение можно после проверки»; L194: chances by the result."""
    table = crew(tmp_path)
    # §18 step 9 without the wound: [4, 3] + 1 (Foresight) + 1 (Bo's council) = 9, partial: 2 chances.
    table.run({"type": "scheme", "id": "s", "leader": "Anna", "goal": "the Dutchman", "secrets": ["X1", "X2"],
               "council": ["Bo"], "dice": [4, 3]})
    assert chances(table) == (2, 0)
    table.run(luck("Anna", "roll_bonus", "s", actor="player:anna"))  # 10: full success, 2 + 2
    assert (table.roll("s")["total"], table.roll("s")["outcome"]) == (10, "full_success")
    assert chances(table) == (4, 0)
    table.run(luck("Bo", "hinder", "s", actor="player:bo"))  # 9 again (L46: hinder too)
    assert chances(table) == (2, 0)
    # A chance of the plan spent (L196): the Scheme's outcome is final from now on.
    table.run(roll("Bo", "guile", [1, 5, 6], advantage=True, actor="player:bo"))
    assert chances(table) == (1, 0)
    error = table.refused(luck("Anna", "roll_bonus", "s", actor="player:anna"))
    assert error["field"] == "roll" and "roll s (scheme) is closed" in error["reason"]
    assert "a chance of Chaika's plan was spent" in error["reason"]


def test_help_after_a_missed_scheme_takes_the_gms_chances_back_l46(tmp_path: Path) -> None:
    table = crew(tmp_path)
    table.run({"type": "scheme", "id": "s", "leader": "Anna", "goal": "g", "secrets": ["X1"], "dice": [2, 3]})  # 6
    assert chances(table) == (0, 1)
    table.run(luck("Bo", "help", "s", actor="player:bo"))  # 7: partial, the crew's chance
    assert chances(table) == (1, 0)
    assert table.sheet("Chaika")["plan"]["schemes"]["s"] == {"leader": "Anna", "marked": 1, "chances": 1,
                                                             "gm_chances": 0}


def negotiation(tmp_path: Path, **fields: Any) -> CliCampaign:
    table = crew(tmp_path)
    table.run({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor", **fields})
    return table


def trumps(table: CliCampaign) -> dict[str, int] | None:
    n = table.campaign_sheet()["negotiation"]
    return None if n is None else n["trumps"]


def test_luck_after_the_tie_check_changes_who_takes_the_round_l202(tmp_path: Path) -> None:
    """L202 «Если стороны сделали одинаковую ставку … проходит проверку репутации»: an ordinary check (L45-L46)."""
    table = negotiation(tmp_path)
    # Same bets: Anna's Reputation check, [3, 4] − 1 = 6, a miss: the opponent takes the trump.
    table.run({"type": "negotiation_round", "id": "r1", "pirate_bet": "life", "opponent_bet": "life", "dice": [3, 4]})
    assert trumps(table) == {"pirates": 0, "opponent": 1}
    table.run(luck("Bo", "help", "r1", actor="player:bo"))  # 7: nobody takes it
    assert trumps(table) == {"pirates": 0, "opponent": 0}
    table.run(luck("Anna", "roll_bonus", "r1", actor="player:anna"))  # 8: still nobody's
    assert trumps(table) == {"pirates": 0, "opponent": 0}
    rounds = table.campaign_sheet()["negotiation"]["rounds"]
    assert (rounds[0]["winner"], rounds[0]["trumps"]) == (None, 0)
    # The next round makes the first final.
    table.run({"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "life"})
    assert trumps(table) == {"pirates": 1, "opponent": 0}
    assert "is closed" in table.refused(luck("Bo", "help", "r1", actor="player:bo"))["reason"]


def test_a_third_rounds_tie_ends_the_negotiation_when_its_roll_closes_l202_l204(tmp_path: Path) -> None:
    table = negotiation(tmp_path, opponent_kind="threat")
    table.run({"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "life"},  # 1 : 0
              {"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "glory"},  # 1 : 1
              # [5, 5] − 1 = 9: nobody's round; the negotiation waits for the roll to close.
              {"type": "negotiation_round", "id": "r3", "pirate_bet": "glory", "opponent_bet": "glory",
               "dice": [5, 5]})
    assert trumps(table) == {"pirates": 1, "opponent": 1}
    error = table.refused({"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "life"})
    assert "close_roll r3 ends it" in error["reason"]
    table.run(luck("Bo", "help", "r3", actor="player:bo"))  # 10: the pirates take the round
    assert trumps(table) == {"pirates": 2, "opponent": 1}
    error = table.refused({"type": "close_roll", "roll": "r3", "actor": "player:bo"})  # Anna's roll, not Bo's
    assert "player:bo" in error["reason"]
    table.run({"type": "close_roll", "roll": "r3", "actor": "player:anna"})
    assert trumps(table) is None
    ended = [e["data"] for e in table.log() if e["type"] == "NegotiationEnded"]
    assert [(e["winner"], e["margin"], e["threat_harm"]) for e in ended] == [("pirates", 1, 1)]
    assert "is closed" in table.refused(luck("Anna", "roll_bonus", "r3", actor="player:anna"))["reason"]


def test_close_roll_with_the_campaigns_own_dice_and_its_refusals(tmp_path: Path) -> None:
    table = negotiation(tmp_path)
    table.run({"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "life"},
              {"type": "negotiation_round", "pirate_bet": "life", "opponent_bet": "purse"},
              {"type": "negotiation_round", "id": "r3", "pirate_bet": "life", "opponent_bet": "life"})
    assert table.roll("r3")["source"] == "hmac"
    assert table.campaign_sheet()["negotiation"] is not None
    table.run({"type": "close_roll", "roll": "r3"})
    assert table.campaign_sheet()["negotiation"] is None
    assert "already closed" in table.refused({"type": "close_roll", "roll": "r3"})["reason"]
    table.run(roll("Bo", "guile", [3, 3], id="plain"))
    assert "an ordinary check" in table.refused({"type": "close_roll", "roll": "plain"})["reason"]
    assert "not the open move of any pirate" in table.refused({"type": "close_roll", "roll": "nope"})["reason"]
    assert table.verify().exit_code == 0
