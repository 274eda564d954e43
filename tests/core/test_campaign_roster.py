"""The campaign's roster and its index (domain/campaign_roster.py), on plain dicts as the aggregate keeps them."""

import pytest

from rollbook.domain.campaign_roster import (
    ROSTER_INDEX, begin_move, find_member, index_agrees, open_move_of, rebuilt_index, refuse_new_member,
    stir, stir_everyone_for_new_visits, stirred_in_order, visited,
)
from rollbook.domain.errors import RuleViolation, UnknownName
from rollbook.domain.ids import member_id

ROSTER = {"Anna": {"kind": "character", "player": "ann"}, "Volna": {"kind": "ship", "player": None},
          "Bo": {"kind": "character", "player": "bob"}}


def test_a_taken_name_is_refused_with_the_kind_that_holds_it():
    with pytest.raises(RuleViolation, match="ship 'Volna' already exists in tortuga") as refused:
        refuse_new_member(ROSTER, "tortuga", "Volna", "character", None)
    assert refused.value.field == "name"


def test_a_name_or_player_that_only_looks_like_another_is_refused():
    with pytest.raises(RuleViolation) as refused:
        refuse_new_member(ROSTER, "tortuga", "\u0410nna", "character", None)  # a Cyrillic А
    assert refused.value.field == "name"
    with pytest.raises(RuleViolation) as refused:
        refuse_new_member(ROSTER, "tortuga", "Cy", "character", "\u0430nn")
    assert refused.value.field == "player"
    refuse_new_member(ROSTER, "tortuga", "Cy", "character", "cy")  # a new name, a new player: welcome


def test_a_member_is_found_by_name_and_kind_and_an_unknown_one_is_refused_with_those_known():
    assert find_member(ROSTER, "tortuga", "Anna", "character", "character") is ROSTER["Anna"]
    assert find_member(ROSTER, "tortuga", "Volna", None, "ship")["kind"] == "ship"
    with pytest.raises(UnknownName, match=r"no character named 'Volna' in campaign revision 2 of tortuga "
                                          r"\(known: Anna, Bo\)") as refused:
        find_member(ROSTER, "tortuga@r2", "Volna", "character", "target")
    assert refused.value.field == "target"


def test_an_index_rebuilt_from_the_roster_stirs_everyone_and_knows_no_open_move():
    index = rebuilt_index("tortuga", ROSTER, ("end:scene",))
    assert set(index) == set(ROSTER_INDEX)
    assert index["member_of"] == {member_id("tortuga", "character", "Anna").hex: ["Anna", 0],
                                  member_id("tortuga", "ship", "Volna").hex: ["Volna", 1],
                                  member_id("tortuga", "character", "Bo").hex: ["Bo", 2]}
    assert index["stirred"] == {"end:scene": {"Anna": 0, "Volna": 1, "Bo": 2}}
    assert (index["open_moves"], index["move_of"]) == ({}, {})
    assert index["moves_unknown"] == {"Anna": 0, "Volna": 1, "Bo": 2}


def test_a_new_visit_stirs_everyone_and_a_known_one_keeps_its_members():
    state = {"roster": ROSTER, "stirred": {"end:scene": {"Bo": 2}}}
    stir_everyone_for_new_visits(state, ("end:scene", "end:day"))
    assert state["stirred"] == {"end:scene": {"Bo": 2}, "end:day": {"Anna": 0, "Volna": 1, "Bo": 2}}


def test_a_command_stirs_the_members_it_wrote_for_every_rule_until_the_rule_visits_them():
    member_of = {"a1": ["Anna", 0], "b3": ["Bo", 2]}
    stirred = {"end:scene": {}, "end:day": {}}
    stir(stirred, member_of, [["b3", 4, "f"], ["elsewhere", 1, "f"]])
    assert stirred == {"end:scene": {"Bo": 2}, "end:day": {"Bo": 2}}
    stir(stirred, member_of, [["a1", 7, "f"]])
    assert stirred_in_order(stirred["end:scene"], ROSTER, "character") == ["Anna", "Bo"]
    assert stirred_in_order(stirred["end:scene"], ROSTER, "ship") == []
    visited(stirred, "end:scene")
    visited(stirred, "start:battle")  # a rule that visits nobody: nothing to forget
    assert stirred == {"end:scene": {}, "end:day": {"Anna": 0, "Bo": 2}}


def test_a_characters_next_move_closes_his_last_and_makes_it_known():
    open_moves: dict[str, str] = {}
    move_of: dict[str, str] = {}
    unknown = {"Anna": 0, "Bo": 2}
    begin_move(open_moves, move_of, unknown, "Anna", "r1")
    assert open_move_of(open_moves, unknown, "r1") == ["Anna"]
    begin_move(open_moves, move_of, unknown, "Anna", "r2")
    assert (open_moves, move_of, unknown) == ({"r2": "Anna"}, {"Anna": "r2"}, {"Bo": 2})
    assert open_move_of(open_moves, unknown, "r1") == ["Bo"]  # not Anna's any more: maybe Bo's, unknown
    assert open_move_of(open_moves, {"Cy": 3, "Bo": 2}, "r9") == ["Bo", "Cy"]


def test_a_wider_index_agrees_with_the_fold_and_a_narrower_one_does_not():
    folded = {"member_of": {"a1": ["Anna", 0]}, "stirred": {"end:scene": {"Anna": 0}},
              "open_moves": {"r1": "Anna"}, "move_of": {"Anna": "r1"}, "moves_unknown": {}}
    rebuilt = {**folded, "stirred": {"end:scene": {"Anna": 0, "Bo": 1}}, "open_moves": {}, "move_of": {},
               "moves_unknown": {"Anna": 0}}
    assert index_agrees(folded, folded)
    assert index_agrees(rebuilt, folded)
    assert not index_agrees({**folded, "stirred": {"end:scene": {}}}, folded)
    assert not index_agrees({**rebuilt, "moves_unknown": {}}, folded)
    assert not index_agrees({**folded, "member_of": {}}, folded)
    assert not index_agrees({**folded, "moves_unknown": None}, folded)
