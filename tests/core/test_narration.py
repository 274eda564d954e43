"""Every ruleset tells its own commands in one line, from the events they stored; `summarize`
is what the server returns as `summary`."""

import json
from pathlib import Path

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.projections.narration import Happening, summarize
from rollbook.projections.narration.stored import summary_of
from rollbook.store import Store

EXAMPLES = Path(__file__).parents[2] / "examples"


def told(example: str) -> list[str]:
    """The line of every command of an example file, as `rollbook run` prints them."""
    return told_of((EXAMPLES / example).read_bytes())


def told_of(commands: bytes) -> list[str]:
    store = Store.open("memory://")
    service = Rollbook(store)
    lines: list[str] = []

    def say(_: int, command, outcome) -> None:
        ruleset = service.ruleset_of(command.campaign)
        lines.append(summary_of(store.app, ruleset, service.key_for(command.campaign), outcome.command_id))

    report = run_file(service, commands, on_command=say)
    assert report.error is None
    return lines


def test_heroes_pools_are_told_by_their_trait_and_successes() -> None:
    lines = told("heroes.jsonl")
    assert lines[9] == "page 1; initiative on page 1: Doctor Null, Spark & Tempest, Null Drones"
    assert lines[10] == (
        "Doctor Null — attack with Null Ray: 6d6 [6, 4, 2, 1, 3, 5] = 4 successes, 3 damage; "
        "Spark — defence with agility: 5d6 [2, 1, 3, 5, 5] = 1 success, 3 through; "
        "Spark takes 3 damage from Doctor Null's Null Ray: health 2")


def test_implant_checks_show_the_wild_die_dropped_and_damage_against_toughness() -> None:
    lines = told("implant.jsonl")
    assert "Vera — ranged attack (shooting): d4! + wild d6! [4!2, (3)] = 6, success" in lines
    assert ("Vera — damage: 2d6! [6!2, 3] = 11, 1 raise; "
            "Ganger takes 11 damage vs Toughness 5: 1 wound (1 in all), shaken, out") in lines
    assert "Vera — soak (vigor): d4! + wild d6! [4!3, (2)] = 7, success; Vera spends a benny (soak); " \
           "Vera soaks 1 wound, 2 left" in lines


def test_gladiators_turns_are_told_against_the_enemys_numbers() -> None:
    first_turn = told("gladiators.jsonl")[5]
    assert first_turn.startswith(
        "Marcus — attack against Gauls (strong attack): 2d6 [5, 4] +6 main skill Fencing +3 offensive style "
        "+3 signature move Lunge +3 Strength (very_good) = 24 vs 13, hit; Marcus — defence against Gauls")
    assert "Gauls loses 11 health, 17 left" in first_turn


def test_pirates_moves_are_told_by_their_book_names() -> None:
    lines = told("pirates.jsonl")
    assert lines[7] == ("Anna — Cross Anchors: 2d6 [3, 4] +2 audacity +1 luck = 10, full success; "
                        "Anna spends 1 luck (roll bonus)")
    assert lines[10] == "Bo spends 1 luck (help); anna-2 is now 9, partial success (helped by Bo +1)"


@pytest.mark.parametrize("ruleset", ["pirates", "heroes", "implant", "gladiators"])
def test_an_event_no_phrase_knows_is_still_told_plainly(ruleset) -> None:
    happenings = [Happening("Red", "SomethingNew", {"count": 2, "why": "a house rule"}),
                  Happening("campaign", "CommandApplied", {"command": {"type": "house_rule"}})]
    assert summarize(ruleset, happenings) == "Red: something new (count 2, why a house rule)"


def test_a_command_that_changed_nothing_says_so() -> None:
    happenings = [Happening("campaign", "CommandApplied", {"command": {"type": "end_plan"}})]
    assert summarize("pirates", happenings) == "end plan: nothing changed"


def test_pirates_luck_after_a_scheme_is_told_with_the_chances_it_changed() -> None:
    lines = told_of(b"\n".join(json.dumps({"campaign": "c", **c}).encode() for c in [
        {"type": "create_campaign", "ruleset": "pirates"},
        {"type": "create_character", "name": "Anna", "luck": 1,
         "stats": {"audacity": 0, "guile": 0, "foresight": 1, "reputation": 0}},
        {"type": "create_ship", "name": "Chaika", "navigation": 1, "firepower": 1, "displacement": 1, "hull": 3,
         "secrets": ["X1"]},
        {"type": "scheme", "id": "s", "leader": "Anna", "goal": "g", "secrets": ["X1"], "dice": [4, 4]},
        {"type": "spend_luck", "character": "Anna", "purpose": "roll_bonus", "roll": "s"},
        {"type": "close_roll", "roll": "s"},
    ]))
    assert "Chaika's plan now has 3 chances from s, the GM 0 (full success)" in lines[4]
    assert lines[5] == "Anna's roll s is final (closed by gm)"


def test_pirates_luck_after_a_negotiation_tie_is_told_with_the_round_it_changed() -> None:
    lines = told_of(b"\n".join(json.dumps({"campaign": "c", **c}).encode() for c in [
        {"type": "create_campaign", "ruleset": "pirates"},
        {"type": "create_character", "name": "Anna", "luck": 1,
         "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}},
        {"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"},
        {"type": "negotiation_round", "id": "r1", "pirate_bet": "life", "opponent_bet": "life", "dice": [4, 5]},
        {"type": "spend_luck", "character": "Anna", "purpose": "roll_bonus", "roll": "r1"},
    ]))
    assert lines[4].endswith("round 1 now goes to the pirates (1 trump)")
