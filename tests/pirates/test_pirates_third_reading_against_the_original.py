"""«Поднять паруса!» through the `rollbook` CLI against the original, third reading (issue 35).

Each scenario runs twice (`dice`): with the faces given, and with the campaign's own seeded dice for the
rolls it is about (its setting-up rolls are typed, so that it is the same scenario every time). The crew
is the digest's (§18): Anna (player anna; Reputation −1), Bo (player bo), their ship Chaika.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rollbook.testing.cli import CliCampaign

from .test_pirates_against_the_original import crew, luck, roll, trumps


@pytest.fixture(params=["typed", "seeded"])
def dice(request: pytest.FixtureRequest) -> str:
    return request.param


def faces(dice: str, given: list[int]) -> dict[str, Any]:
    """`dice` of a command with typed faces; nothing (the campaign's seeded dice) otherwise."""
    return {"dice": given} if dice == "typed" else {}


def rolled_as_asked(table: CliCampaign, dice: str, *rolls: str) -> None:
    """With seeded dice, `rolls` are the campaign's own (HMAC) rolls; either way the campaign verifies."""
    if dice == "seeded":
        assert {table.roll(r)["source"] for r in rolls} == {"hmac"}
    assert table.verify().exit_code == 0


def hole(ship: str = "Chaika") -> dict[str, Any]:
    return {"type": "take_hole", "ship": ship}


def round_(pirate_bet: str, opponent_bet: str, **fields: Any) -> dict[str, Any]:
    return {"type": "negotiation_round", "pirate_bet": pirate_bet, "opponent_bet": opponent_bet, **fields}


def scheme(dice: list[int], secret: str = "X1", **fields: Any) -> dict[str, Any]:
    return {"type": "scheme", "leader": "Anna", "goal": "the Governor's pardon", "secrets": [secret],
            "dice": dice, **fields}


def ship_sheet(table: CliCampaign) -> dict[str, Any]:
    return table.sheet("Chaika")


# --- 4. L138: the sinking ship comes first ---------------------------------------------------------

SINKING = "Chaika must play Don't Go Under (Не пойти ко дну) first: a hole at Hull 0 has it played immediately (L138"


def sinking(tmp_path: Path, dice: str) -> CliCampaign:
    """Anna's move still open, then Chaika holed four times to Hull 0 and once more (L138)."""
    table = crew(tmp_path)
    table.run(roll("Anna", "guile", id="open", **faces(dice, [2, 3])), *[hole()] * 5)
    assert (ship_sheet(table)["hull"], ship_sheet(table)["must_not_go_under"]) == (0, True)
    return table


@pytest.mark.parametrize(
    ("command", "field"),
    [
        (roll("Bo", "audacity", actor="player:bo"), "move"),
        (roll("Anna", "guile", move="spin_the_wheel"), "move"),  # another ship move; the GM's, too
        (scheme([3, 4], actor="player:anna"), "type"),
        ({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"}, "type"),
    ],
    ids=["roll", "another-ship-move", "scheme", "start-negotiation"],
)
def test_no_other_move_while_a_ship_must_not_go_under_l138(
    tmp_path: Path, dice: str, command: dict[str, Any], field: str
) -> None:
    """L138 «немедленно разыграйте ход корабля не пойти ко дну»: a move recorded in between was not played
    immediately; the refusal names the ship and the move owed, and writes nothing."""
    table = sinking(tmp_path, dice)
    before = len(table.log())
    error = table.refused({**{k: v for k, v in command.items() if k != "dice"}, **faces(dice, [3, 4])})
    assert error["field"] == field
    assert error["reason"].startswith(SINKING)
    assert error["reason"].endswith("roll_move with move dont_go_under")
    assert len(table.log()) == before


def test_a_tie_check_waits_for_the_sinking_ship_and_the_move_owed_clears_it_l138(tmp_path: Path, dice: str) -> None:
    """A negotiation under way when the ship is holed: its next round waits too. Luck, harm and holes are
    not moves (L45, L60, L138); Don't Go Under played (by any pirate) lets the others move again."""
    table = crew(tmp_path)
    table.run({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"},
              roll("Bo", "guile", id="open", **faces(dice, [2, 3])), *[hole()] * 5)
    error = table.refused(round_("life", "life", **faces(dice, [3, 4])))
    assert error["field"] == "type" and error["reason"].startswith(SINKING)
    table.run(luck("Bo", "roll_bonus", "open", actor="player:bo"),  # luck on a roll made before
              {"type": "take_damage", "character": "Anna", "harm": 1}, hole())
    assert ship_sheet(table)["must_not_go_under"] is True
    table.run(roll("Bo", "audacity", move="dont_go_under", id="afloat", actor="player:bo",
                   **faces(dice, [4, 4])))
    assert ship_sheet(table)["must_not_go_under"] is False
    assert [e["data"]["roll"] for e in table.log() if e["type"] == "DontGoUnderPlayed"] == ["afloat"]
    table.run(round_("life", "life", id="tie", **faces(dice, [3, 4])))
    assert table.roll("tie")["character"] == "Anna"
    rolled_as_asked(table, dice, "open", "afloat", "tie")


def test_with_several_ships_the_refusal_names_the_ship_and_leaves_the_crew_to_the_gm_l138(
    tmp_path: Path, dice: str
) -> None:
    table = crew(tmp_path)
    table.run({"type": "create_ship", "name": "Brig", "navigation": 1, "firepower": 1, "displacement": 1,
               "hull": 0}, hole("Brig"))
    error = table.refused(roll("Anna", "audacity", actor="player:anna", **faces(dice, [3, 4])))
    assert error["reason"].startswith("Brig must play Don't Go Under")
    assert error["reason"].endswith("roll_move with move dont_go_under, ship Brig; the GM names which crew's "
                                    "pirate plays it")
    # Don't Go Under for Chaika, which owes nothing, is another move too.
    assert table.refused(roll("Anna", "audacity", move="dont_go_under", ship="Chaika"))["field"] == "move"
    table.run(roll("Anna", "audacity", move="dont_go_under", ship="Brig", id="brig", **faces(dice, [3, 4])),
              roll("Anna", "audacity", id="after", **faces(dice, [3, 4])))
    assert table.sheet("Brig")["must_not_go_under"] is False


# --- 5. L196, L202: a chance on the tie's Reputation check ------------------------------------------


def planning(tmp_path: Path, opponent: str = "Governor", **fields: Any) -> CliCampaign:
    """Two Schemes for one plan: [5, 5] + 1 = 11 gives the crew 1 + 2 chances, [1, 1] + 1 = 3 the GM 1 (L194);
    then Anna negotiates with `opponent`."""
    table = crew(tmp_path)
    table.run({"type": "create_character", "name": "Cid", "player": "anna", "luck": 1,
               "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}},
              scheme([5, 5]), scheme([1, 1], secret="X2"),
              {"type": "start_negotiation", "negotiator": "Anna", "opponent": opponent, **fields})
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (3, 1)
    return table


def test_the_gms_chance_gives_the_tie_check_disadvantage_and_the_crews_advantage_l196(
    tmp_path: Path, dice: str
) -> None:
    """L196 «Мастер может использовать шанс, чтобы дать любой проверке при реализации плана помеху (бросить 3d6
    и выбрать два наименьших значения)»; L202: the tie is decided by a check, «проходит проверку репутации»."""
    table = planning(tmp_path)
    table.run(round_("purse", "purse", id="r1", disadvantage=True, **faces(dice, [2, 5, 6])))
    r1 = table.roll("r1")
    assert r1["notation"] == "3d6kl2"
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (3, 0)
    table.run(round_("glory", "glory", id="r2", advantage=True, **faces(dice, [2, 5, 6])))
    r2 = table.roll("r2")
    assert r2["notation"] == "3d6kh2"
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (2, 0)
    if dice == "typed":
        assert (r1["total"], r1["outcome"], r2["total"], r2["outcome"]) == (6, "miss", 10, "full_success")
        assert trumps(table) == {"pirates": 1, "opponent": 1}
    else:
        assert {r1["source"], r2["source"]} == {"hmac"}
        won = {"full_success": "pirates", "miss": "opponent"}
        expected = {"pirates": 0, "opponent": 0}
        for outcome in (r1["outcome"], r2["outcome"]):
            if outcome in won:
                expected[won[outcome]] += 1
        assert trumps(table) == expected
    assert table.verify().exit_code == 0


@pytest.mark.parametrize(
    ("bets", "chance"), [(("purse", "life"), "advantage"), (("purse", "life"), "disadvantage")],
    ids=["advantage", "disadvantage"],
)
def test_a_chance_off_a_tie_is_refused_as_luck_bonus_is_and_spends_nothing(
    tmp_path: Path, dice: str, bets: tuple[str, str], chance: str
) -> None:
    table = planning(tmp_path)
    before = (len(table.log()), len(table.rolls()))
    error = table.refused(round_(*bets, **{chance: True}, **faces(dice, [2, 5, 6])))
    assert (error["field"], error["reason"]) == (
        chance, f"no Reputation check in this round (the bets differ, L202): no {chance}")
    assert (len(table.log()), len(table.rolls())) == before
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (3, 1)


def test_a_player_spends_his_crews_chance_on_his_own_tie_but_never_the_gms(tmp_path: Path, dice: str) -> None:
    """A negotiation between two pirates of one player (L202): both bets are hers to post, and so is the crew's
    chance on her tie's check; the GM's chance stays the GM's (L196)."""
    table = planning(tmp_path, "Cid", opponent_kind="pirate", actor="player:anna")
    before = (len(table.log()), len(table.rolls()))
    error = table.refused(round_("life", "life", disadvantage=True, actor="player:anna", **faces(dice, [2, 5, 6])))
    assert (error["field"], error["reason"]) == ("disadvantage", (
        "only the GM may give disadvantage in negotiation_round (only the GM spends a GM chance for disadvantage, "
        "L196)"))
    assert (len(table.log()), len(table.rolls())) == before
    table.run(round_("life", "life", id="hers", advantage=True, actor="player:anna", **faces(dice, [2, 5, 6])))
    assert (table.roll("hers")["character"], table.roll("hers")["notation"]) == ("Anna", "3d6kh2")
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (2, 1)


def test_another_player_cannot_spend_a_chance_on_someone_elses_tie(tmp_path: Path, dice: str) -> None:
    table = planning(tmp_path)
    before = (len(table.log()), len(table.rolls()))
    for chance in ("advantage", "disadvantage"):
        error = table.refused(round_("life", "life", actor="player:bo", **{chance: True}, **faces(dice, [2, 5, 6])))
        assert (error["field"], error["reason"]) == ("pirate_bet", "player:bo cannot act for 'Anna', who belongs to "
                                                                   "player:anna")
    assert (len(table.log()), len(table.rolls())) == before
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (3, 1)


def test_no_chance_on_a_tie_without_a_plan_and_both_cancel_p13(tmp_path: Path, dice: str) -> None:
    """Chances exist only while the plan is carried out (L196; P-13: unspent ones end with it); a crew's and a
    GM's on one roll cancel (2d6) by default."""
    table = planning(tmp_path)
    table.run(round_("life", "life", id="both", advantage=True, disadvantage=True, **faces(dice, [2, 5])))
    assert table.roll("both")["notation"] == "2d6"
    assert (ship_sheet(table)["chances"], ship_sheet(table)["gm_chances"]) == (2, 0)
    table.run({"type": "end_plan"})
    error = table.refused(round_("purse", "purse", advantage=True, **faces(dice, [2, 5, 6])))
    assert error["field"] == "advantage" and "only while carrying out a plan (L196)" in error["reason"]


# --- 6. L78: out of the scene is out of the negotiation ---------------------------------------------


def out_of_the_scene(tmp_path: Path) -> CliCampaign:
    """Anna, without luck, must lower a Reputation of −2 (L44): fate; 3 + 5 = 8, she leaves the scene (L78)."""
    table = crew(tmp_path, anna_luck=0)
    table.run({"type": "lower_reputation", "character": "Anna", "points": 2},
              {"type": "meet_fate", "character": "Anna", "actor": "player:anna", "dice": [3, 5]},
              {"type": "choose_fate", "character": "Anna", "actor": "player:anna", "option": "ugly_scar"})
    assert table.sheet("Anna")["out_of_scene"] is True
    return table


@pytest.mark.parametrize(
    ("command", "field"),
    [
        ({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor", "actor": "player:anna"},
         "negotiator"),
        ({"type": "start_negotiation", "negotiator": "Bo", "opponent": "Anna", "opponent_kind": "pirate",
          "actor": "player:bo"}, "opponent"),
    ],
    ids=["negotiator", "opposing-pirate"],
)
def test_a_pirate_out_of_the_scene_is_refused_a_negotiation_either_side_l78(
    tmp_path: Path, dice: str, command: dict[str, Any], field: str
) -> None:
    """L78 «Ты выбываешь из сцены»; Conduct Negotiations is a move (L198-L200) each side argues in (L202)."""
    table = out_of_the_scene(tmp_path)
    before = len(table.log())
    error = table.refused(command)
    assert (error["field"], error["reason"]) == (
        field, "Anna left the scene after meeting fate (L78) and cannot negotiate until it ends")
    assert len(table.log()) == before and table.campaign_sheet()["negotiation"] is None
    # Back in play with the next scene (L78): the same negotiation, and its tie's check.
    table.run({"type": "end_scene"}, {"type": "start_scene", "enemy": "Kraken"}, command,
              round_("life", "life", id="tie", **faces(dice, [4, 4])))
    assert table.roll("tie")["character"] == ("Anna" if field == "negotiator" else "Bo")
    assert table.verify().exit_code == 0
