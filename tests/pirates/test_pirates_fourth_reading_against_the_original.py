"""«Поднять паруса!» through the `rollbook` CLI against the original, fourth reading (issue 43, items 1-2).

Each scenario runs twice (`dice`): with the faces given, and with the campaign's own seeded dice for the
rolls it is about, then `verify`. The crew is the digest's (§18): Anna (player anna), Bo (player bo),
their ship Chaika.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rollbook.testing.cli import CliCampaign

from .test_pirates_against_the_original import crew, roll
from .test_pirates_third_reading_against_the_original import dice, faces, rolled_as_asked, round_  # noqa: F401 (a fixture)

# --- 1. L157-L179: an additional ship move is the ship's once chosen --------------------------------


def developed(tmp_path: Path) -> CliCampaign:
    """Chaika in port with 6 chests and two conditions met chooses Black Flag, and nothing else (L151-L168)."""
    table = crew(tmp_path, in_port=True)
    table.run({"type": "gain_money", "to": "Chaika", "chests": 6},
              {"type": "meet_condition", "ship": "Chaika", "condition": "survived_sea_battle"},
              {"type": "meet_condition", "ship": "Chaika", "condition": "spilled_blood"},
              {"type": "upgrade_ship", "ship": "Chaika", "option": "new_ship_move", "pick": "black_flag"},
              {"type": "put_to_sea", "ship": "Chaika"})
    assert (table.sheet("Chaika")["ship_moves"], table.sheet("Chaika")["rigging"]) == (["black_flag"], [])
    return table


@pytest.mark.parametrize("move", ["ghost_ship", "Корабль-призрак", "strong_sails"], ids=["en", "ru", "rigging"])
def test_a_ship_rolls_no_additional_move_or_rigging_it_never_chose_l157_l179(
    tmp_path: Path, dice: str, move: str
) -> None:
    """L161-L162 «выбрать новый ход корабля; выбрать ещё 1 ход корабля», L163-L164 the rigging, L170-L190 the
    lists: a ship has the additional moves and rigging its development chose; the refusal names the ship and
    what it has, and writes nothing."""
    table = developed(tmp_path)
    before = len(table.log())
    error = table.refused(roll("Anna", "audacity", move=move, actor="player:anna", **faces(dice, [3, 4])))
    assert (error["field"], error["reason"]) == ("move", (
        "Chaika has not chosen " + {"strong_sails": "Strong Sails (Прочные паруса)"}.get(move, "Ghost Ship "
        "(Корабль-призрак)") + ": a ship's additional moves and rigging are the ones its development chose or the "
        "GM gave it (L157-L164, L170-L190); Chaika has black_flag"))
    assert len(table.log()) == before
    # Its own choice, and every basic ship move (L115-L133), are rolled as before.
    table.run(roll("Anna", "audacity", move="Black Flag", id="flag", actor="player:anna", **faces(dice, [3, 4])),
              roll("Bo", "guile", move="spin_the_wheel", id="wheel", actor="player:bo", **faces(dice, [2, 5])))
    assert [table.roll(r)["purpose"] for r in ("flag", "wheel")] == ["move:black_flag", "move:spin_the_wheel"]
    rolled_as_asked(table, dice, "flag", "wheel")


def test_a_ship_with_nothing_chosen_says_so_and_another_ships_choice_is_not_hers(tmp_path: Path) -> None:
    table = crew(tmp_path)
    error = table.refused(roll("Anna", "audacity", move="black_flag", dice=[3, 4]))
    assert error["reason"].endswith("Chaika has no additional ship move or rigging")
    # The GM records a ship type's move (pp. 107-108, not in the source) as the ship's choice when it comes.
    table.run({"type": "create_ship", "name": "Brig", "navigation": 1, "firepower": 1, "displacement": 1,
               "hull": 3, "ship_moves": ["Black Flag"], "rigging": ["signal_lanterns"]})
    assert (table.sheet("Brig")["ship_moves"], table.sheet("Brig")["rigging"]) == (["black_flag"], ["signal_lanterns"])
    table.run(roll("Anna", "audacity", move="black_flag", ship="Brig", dice=[3, 4]),
              roll("Anna", "audacity", move="signal_lanterns", ship="Brig", dice=[3, 4]))
    assert table.refused(roll("Anna", "audacity", move="black_flag", ship="Chaika", dice=[3, 4]))["reason"].startswith(
        "Chaika has not chosen Black Flag")


@pytest.mark.parametrize(
    ("fields", "field", "reason"),
    [
        ({"ship_moves": ["black_flag"], "actor": "player:anna"}, "ship_moves", "only the GM"),
        ({"ship_moves": ["strong_sails"]}, "ship_moves", "no additional ship move named 'strong_sails'"),
        ({"rigging": ["Signal Lanterns", "signal_lanterns"]}, "rigging", "rigging names signal_lanterns twice"),
    ],
    ids=["player", "rigging-as-move", "twice"],
)
def test_a_ships_moves_at_creation_are_the_gms_from_the_book(
    tmp_path: Path, fields: dict[str, Any], field: str, reason: str
) -> None:
    table = crew(tmp_path)
    before = len(table.log())
    error = table.refused({"type": "create_ship", "name": "Brig", "navigation": 1, "firepower": 1,
                           "displacement": 1, "hull": 3, **fields})
    assert error["field"] == field and reason in error["reason"], error
    assert len(table.log()) == before


# --- 2. L204: the fate a lost negotiation owes comes right after it --------------------------------

FATE_FIRST = ("{who} must meet fate first: a lost negotiation sends him to it right after the negotiation "
              "(L204 «сразу после переговоров»), before anything else he does; meet_fate")


def lost(tmp_path: Path, dice: str, opponent: str = "Governor", **fields: Any) -> CliCampaign:
    """Anna (luck 2) loses 0:4 (a secret of hers used once, L204): 2 luck gone and fate owed."""
    table = crew(tmp_path)
    table.run(roll("Anna", "guile", id="before", **faces(dice, [2, 3])),
              {"type": "start_negotiation", "negotiator": "Anna", "opponent": opponent, **fields},
              round_("purse", "glory"), round_("purse", "glory", opponent_secret="Anna's bastard"),
              round_("purse", "glory"))
    assert table.sheet("Anna")["luck"] == 0 and len(table.sheet("Anna")["fate_pending"]) == 1
    return table


@pytest.mark.parametrize(
    "command",
    [
        roll("Anna", "audacity", actor="player:anna"),
        roll("Anna", "audacity"),  # the GM's, too
        {"type": "scheme", "leader": "Anna", "goal": "g", "secrets": ["X1"], "actor": "player:anna"},
        {"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"},
        {"type": "start_negotiation", "negotiator": "Bo", "opponent": "Anna", "opponent_kind": "pirate"},
    ],
    ids=["roll", "roll-by-gm", "scheme", "negotiate", "negotiated-with"],
)
def test_a_pirate_meets_the_fate_a_lost_negotiation_owes_before_his_next_move_l204(
    tmp_path: Path, dice: str, command: dict[str, Any]
) -> None:
    """L204 «то сразу после переговоров этот пират встречается с судьбой»; refused as Don't Go Under comes
    first (L138), writing nothing."""
    table = lost(tmp_path, dice)
    before = len(table.log())
    error = table.refused({**command, **faces(dice, [3, 4])})
    assert error["reason"] == FATE_FIRST.format(who="Anna"), error
    assert len(table.log()) == before
    # Bo owes nothing and plays on; Anna meets fate (10+: she escapes, L78), then plays again.
    table.run(roll("Bo", "guile", id="bo", actor="player:bo", **faces(dice, [3, 3])),
              {"type": "meet_fate", "character": "Anna", "actor": "player:anna", "dice": [5, 6]},
              roll("Anna", "audacity", id="after", actor="player:anna", **faces(dice, [3, 4])))
    assert table.sheet("Anna")["fate_pending"] == []
    rolled_as_asked(table, dice, "before", "bo", "after")


def test_a_pirate_who_loses_to_a_pirate_owes_his_fate_first_and_the_winner_does_not_l204(
    tmp_path: Path, dice: str
) -> None:
    table = crew(tmp_path)
    table.run({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Bo", "opponent_kind": "pirate"},
              round_("glory", "purse"), round_("glory", "purse", secret="X1"), round_("glory", "purse"))
    assert table.sheet("Bo")["luck"] == 0 and len(table.sheet("Bo")["fate_pending"]) == 1
    error = table.refused(roll("Bo", "guile", actor="player:bo", **faces(dice, [3, 4])))
    assert error["reason"] == FATE_FIRST.format(who="Bo")
    table.run(roll("Anna", "guile", id="winner", actor="player:anna", **faces(dice, [3, 4])))
    assert table.verify().exit_code == 0


def test_a_fate_owed_under_l44_or_l75_has_no_at_once_and_is_left_as_it_was(tmp_path: Path, dice: str) -> None:
    """L44/L75 say when a pirate meets fate, not «сразу»: his moves go on until the GM has him meet it."""
    table = crew(tmp_path, anna_luck=0)
    table.run({"type": "lower_reputation", "character": "Anna", "points": 2})
    assert len(table.sheet("Anna")["fate_pending"]) == 1
    table.run(roll("Anna", "guile", id="still", actor="player:anna", **faces(dice, [3, 4])))
    assert table.verify().exit_code == 0
