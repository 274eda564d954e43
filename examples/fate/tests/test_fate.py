"""Fate's rules pinned down with Rollbook's testing kit (the `campaign` fixture), on every store
`--rollbook-stores` names. Each campaign is also replayed and verified after the test and must come out
identical, its 4dF rolls recomputed from the revealed seed."""

from __future__ import annotations

import pytest

from rollbook.testing import ANY, events
from rollbook_fate import rules


@pytest.fixture
def table(campaign):
    """A Fate campaign with Ada (played by ada, Good at fight) and Bo (played by bo), in scene 1."""
    return campaign.of("fate").given(
        {"type": "create_character", "name": "Ada", "player": "ada", "skills": {"fight": 3, "notice": 2}},
        {"type": "create_character", "name": "Bo", "player": "bo", "skills": {"athletics": 4}},
        {"type": "start_scene", "title": "The rope bridge"},
    )


@pytest.fixture
def conflict(table):
    return table.given({"type": "start_conflict", "title": "Bandits"})


def act(**fields):
    return {"type": "act", "character": "Ada", "actor": "player:ada", "skill": "fight", **fields}


def hit(shifts, **fields):
    return {"type": "take_hit", "character": "Ada", "actor": "player:ada", "shifts": shifts, **fields}


BLANKS = (2, 2, 2, 2)  # four drawn faces that each read 0 (a Fate die is drawn as a d3: 1 -, 2 blank, 3 +)


def test_a_character_starts_with_his_skills_and_three_fate_points(table):
    assert table.sheet("Ada") == {
        "name": "Ada", "player": "ada", "skills": {"fight": 3, "notice": 2}, "fate_points": rules.STARTING_FATE_POINTS,
        "stress": [False, False, False], "consequences": {"mild": False, "moderate": False, "severe": False},
        "taken_out": False,
    }


def test_a_new_characters_skill_above_great_is_refused(table):
    table.when({"type": "create_character", "name": "Cy", "skills": {"fight": 5}})
    table.then_rejected(match=r"fight is Superb \(\+5\): .* Mediocre \(\+0\) to Great \(\+4\) \(F1\)")


@pytest.mark.parametrize(("faces", "total", "outcome"), [
    ((1, 1, 1, 2), 0, "failure"),  # -3 + Good 3 = 0 against Fair 2
    ((1, 2, 2, 2), 2, "tie"),
    ((3, 2, 2, 2), 4, "success"),
    ((3, 3, 2, 2), 5, "success_with_style"),  # three shifts over the difficulty
])
def test_an_action_is_4df_plus_the_skill_against_the_difficulty(table, faces, total, outcome):
    table.dice(*faces).when(act())
    table.then(events.DiceRolled(roll={**ANY_ROLL, "faces": list(faces), "sides": [3, 3, 3, 3], "total": total,
                                       "outcome": outcome, "shifts": total - rules.DIFFICULTY_DEFAULT}))


def test_a_skill_he_lacks_is_mediocre(table):
    table.dice(*BLANKS).when(act(skill="stealth", difficulty=0))
    table.then(events.DiceRolled(roll={**ANY_ROLL, "purpose": "act:stealth", "total": 0, "outcome": "tie",
                                       "modifiers": [{"source": "stealth", "value": 0}]}))


def test_the_campaigns_own_dice_decide_an_action(table):
    table.when(act(difficulty=3))
    roll = table.rolls()[-1]
    assert roll["source"] == "hmac" and roll["notation"] == "4dF"
    assert all(1 <= face <= 3 for face in roll["faces"]) and roll["sides"] == [3, 3, 3, 3]
    assert [die["faces"][0] for die in roll["dice"]] == [face - 2 for face in roll["faces"]]
    assert roll["total"] == sum(face - 2 for face in roll["faces"]) + 3
    assert roll["outcome"] == rules.outcome(roll["total"] - 3)
    assert table.verifies() == []


def test_an_invoked_aspect_adds_two_and_spends_a_fate_point(conflict):
    conflict.dice(*BLANKS).when(act(invoke=True))
    conflict.then(
        events.LimitUsed(limit="invoke", scope="conflict", instance="conflict 1", holder="Ada"),
        events.FatePointSpent(character="Ada"),
        events.DiceRolled(roll={**ANY_ROLL, "total": 5, "modifiers": [{"source": "fight", "value": 3},
                                                                      {"source": "invoked aspect", "value": 2}]}),
    )
    assert conflict.sheet("Ada")["fate_points"] == rules.STARTING_FATE_POINTS - 1


def test_an_aspect_is_invoked_once_per_conflict(conflict):
    conflict.dice(*BLANKS).given(act(invoke=True))
    conflict.when(act(invoke=True)).then_rejected(match=r"invoking an aspect: only once per conflict .*F4")
    conflict.dice(*BLANKS).given({"type": "end_conflict"}, {"type": "start_conflict"})
    conflict.when(act(invoke=True))
    conflict.then(events.LimitUsed(instance="conflict 2"), events.FatePointSpent(), events.DiceRolled(roll=ANY))


def test_an_aspect_is_invoked_only_in_a_conflict(table):
    table.when(act(invoke=True)).then_rejected(match=r"invoking an aspect counts per conflict \(F4\), and no conflict is open")


def test_with_no_fate_point_left_there_is_nothing_to_invoke(conflict):
    for _ in range(rules.STARTING_FATE_POINTS):
        conflict.dice(*BLANKS).given(act(invoke=True), {"type": "end_conflict"}, {"type": "start_conflict"})
    conflict.when(act(invoke=True)).then_rejected(match=r"Ada has no fate point left to invoke an aspect \(F4\)")


def test_a_hit_checks_the_smallest_empty_box_that_absorbs_it(conflict):
    conflict.when(hit(2)).then(events.StressChecked(character="Ada", worth=2, shifts=2))
    conflict.when(hit(1)).then(events.StressChecked(worth=1))
    conflict.when(hit(2)).then(events.StressChecked(worth=3))
    assert conflict.sheet("Ada")["stress"] == [True, True, True]


def test_a_consequence_absorbs_a_hit_instead_once(conflict):
    conflict.when(hit(4, consequence="moderate")).then(events.ConsequenceTaken(severity="moderate", shifts=4))
    conflict.when(hit(1, consequence="moderate")).then_rejected(match=r"Ada already has a moderate consequence \(F7\)")


def test_a_hit_nothing_absorbs_takes_him_out_and_he_acts_no_more_in_the_conflict(conflict):
    conflict.when(hit(4)).then(events.TakenOut(character="Ada", shifts=4))
    conflict.when(act()).then_rejected(match=r"Ada is taken out of this conflict \(F7\)")


def test_the_conflicts_end_empties_the_stress_and_brings_back_who_was_taken_out(conflict):
    conflict.given(hit(3), hit(4), {"type": "take_hit", "character": "Bo", "shifts": 1})
    conflict.when({"type": "end_conflict"})
    conflict.then(events.RecoveredFromConflict(character="Ada"), events.RecoveredFromConflict(character="Bo"),
                  events.ScopeEnded(scope="conflict", label="conflict", number=1))
    assert conflict.sheet("Ada")["stress"] == [False, False, False] and not conflict.sheet("Ada")["taken_out"]


def test_the_scenes_end_ends_its_conflict_and_clears_mild_consequences_only(conflict):
    conflict.given(hit(2, consequence="mild"), hit(4, consequence="moderate"))
    conflict.when({"type": "end_scene"})
    conflict.then(events.ScopeEnded(scope="conflict"), events.ConsequenceCleared(character="Ada", severity="mild"),
                  events.Ended(scene=1), events.ScopeEnded(scope="scene"))
    assert conflict.sheet("Ada")["consequences"] == {"mild": False, "moderate": True, "severe": False}


def test_a_hit_is_taken_in_a_conflict(table):
    table.when(hit(1)).then_rejected(match=r"a hit is taken in a conflict \(F6\), and no conflict is open")


@pytest.mark.parametrize("command", [act(character="Bo"), hit(1, character="Bo")], ids=["act", "take_hit"])
def test_a_player_cannot_act_or_take_a_hit_for_another_players_character(conflict, command):
    conflict.when(command).then_rejected(match="player:ada cannot act for 'Bo'")


def test_the_odds_of_an_action_enumerate_4df(table):
    shown = table.odds(act(difficulty=4))  # Good (+3) against Great (+4): the dice must show +1 to tie
    assert shown["fractions"] == {"failure": "50/81", "tie": "16/81", "success": "14/81", "success_with_style": "1/81"}
    assert shown["dice"] == "4dF" and shown["distribution"]["total"]["-1"] == pytest.approx(1 / 81)


def test_fate_has_scenes_and_conflicts_and_no_chapters_or_battles(table):
    table.when({"type": "start_battle"}).then_rejected(match="start_battle")
    table.when({"type": "start_chapter"}).then_rejected(match="start_chapter")


def test_its_sheet_reads_in_its_own_sections_and_its_listing_shows_fate_points_and_stress(conflict):
    from rollbook.projections.sheets import key_figures, sections

    conflict.given(hit(2))
    sheet = conflict.sheet("Ada")
    assert sections("fate", "character", sheet) == [
        ("Skills", [("fight", "Good (+3)"), ("notice", "Fair (+2)")]),
        ("Fate points", [("fate points", "3")]),
        ("Stress and consequences", [("stress", "[ ]1 [x]2 [ ]3"), ("mild", "no"), ("moderate", "no"),
                                     ("severe", "no"), ("taken out", "no")]),
        ("Who", [("player", "ada")]),
    ]
    assert key_figures("fate", "character", sheet) == {"fate_points": 3, "stress": 1, "taken_out": False}


@pytest.mark.parametrize("typed", [["+", "0", "-", "+"], ["+", "", "\u2212", " + "], [3, 2, 1, 3], ["+", 2, "-", 3]])
def test_faces_typed_from_a_forum_s_4df_roller_are_its_symbols_or_its_draws(table, typed):
    table.when(act(dice=typed))
    table.then(events.DiceRolled(roll={**ANY_ROLL, "faces": [3, 2, 1, 3], "total": 4, "outcome": "success"}))
    logged = [event["command"] for event in table.events(bookkeeping=True) if event.get("command", {}).get("type") == "act"]
    assert logged[-1]["dice"] == [3, 2, 1, 3]  # recorded as drawn, however typed


@pytest.mark.parametrize(("typed", "said"), [
    (["+", "x", "0", "0"], r"dice\.1: .*'x' is no Fate die's face: type \+, 0 or -"), ([4, 2, 2, 2], r"dice\.0.*less than or equal to 3"),
    (["+", "0", "0", "0", "+"], r"dice.*at most 4"),
])
def test_a_face_that_is_no_fate_die_is_refused_naming_it(table, typed, said):
    table.when(act(dice=typed)).then_rejected(match=said)


ANY_ROLL = {"id": ANY, "actor": ANY, "character": "Ada", "purpose": "act:fight", "notation": "4dF", "faces": ANY,
            "sides": ANY, "dice": ANY, "modifiers": ANY, "total": ANY, "outcome": ANY, "text": ANY, "source": ANY,
            "difficulty": ANY, "shifts": ANY}
