"""The digest's §11 worked scenario, from a command file through the `rollbook` CLI.

For each step, the file's lines up to and including that step are run with `rollbook run`
into a fresh SQLite store; then every value of the digest's table is read back with
`rollbook sheet --json`, the GM's bennies with `rollbook timeline --json` (the campaign
document) and the step's rolls with `rollbook rolls --json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.scenario_files import ScenarioFile, cli

CAMPAIGN = "implant-s11"
SCENARIO = ScenarioFile(Path(__file__).with_name("scenario.jsonl"), CAMPAIGN)
VERA, A, B = "Vera", "Ganger A", "Ganger B"

SETUP: dict[str, dict[str, Any]] = {
    VERA: {
        "attributes": {"strength": "d4", "agility": "d4", "intellect": "d6", "vigor": "d4", "spirit": "d4"},
        "parry": 4, "toughness": 4, "wounds": 0, "max_wounds": 2, "wound_penalty": 0, "shaken": False,
        "vulnerable": False, "bennies": 0, "energy_cells": 0, "dying": False,
    },
    A: {"parry": 5, "toughness": 5, "wounds": 0, "shaken": False, "out": False, "max_wounds": 0},
    B: {"parry": 5, "toughness": 5, "wounds": 0, "shaken": False, "out": False, "max_wounds": 0},
}


def _then(previous: dict[str, dict[str, Any]], **changes: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: {**sheet, **changes.get(name.replace("Ganger ", ""), {})} for name, sheet in previous.items()}


S1 = _then(SETUP, Vera={"bennies": 3})
S2 = _then(S1, A={"shaken": True})
S3 = _then(S2, Vera={"shaken": True})
S3A = S3
S4 = _then(S3A, Vera={"bennies": 2, "shaken": False})
S5 = _then(S4, A={"wounds": 1, "out": True})
S6 = _then(S5, Vera={"shaken": True, "wounds": 1, "wound_penalty": -1})
S7 = _then(S6, Vera={"shaken": False, "vulnerable": True}, B={"shaken": True})
S8 = S7
S9_TURN = _then(S8, Vera={"vulnerable": False})
S9_DAMAGE = S9_TURN
S9 = _then(S9_TURN, Vera={"bennies": 1}, B={"wounds": 1, "out": True})
S10 = _then(S9, Vera={"wounds": 0, "wound_penalty": 0})

#: (step of §11, the step's last command id, sheets after it, GM bennies, rolls: id → (total, success, raises))
STEPS: list[tuple[str, str, dict[str, dict[str, Any]], int, dict[str, tuple[int, bool, int]]]] = [
    ("setup", "s0-b", SETUP, 0, {}),
    ("1", "s1-combat", S1, 2, {}),
    ("2", "s2-damage", S2, 2, {"s2-attack": (7, True, 0), "s2-damage": (8, True, 0)}),
    ("3", "s3-damage", S3, 2, {"s3-attack": (5, True, 0), "s3-damage": (6, True, 0)}),
    ("3a", "s3a-turn", S3A, 2, {"s3a-turn": (2, False, 0)}),
    ("4", "s4-turn", S4, 2, {}),
    ("5", "s5-damage", S5, 2, {"s5-attack": (7, True, 0), "s5-damage": (5, True, 0)}),
    ("6", "s6-damage", S6, 2, {"s6-attack": (9, True, 1), "s6-damage": (9, True, 1)}),
    ("7", "s7-damage", S7, 2, {"s7-turn": (7, True, 0), "s7-attack": (5, True, 0), "s7-damage": (9, True, 0)}),
    ("8", "s8-turn", S8, 2, {"s8-turn": (2, False, 0)}),
    ("9 (her round)", "s9-turn", S9_TURN, 2, {}),
    ("9 (damage)", "s9-damage", S9_DAMAGE, 2, {"s9-attack": (4, True, 0), "s9-damage": (3, False, 0)}),
    ("9 (benny)", "s9-reroll", S9, 2, {"s9-reroll": (12, True, 1)}),
    ("10", "s10-heal", S10, 2, {"s10-heal": (6, True, 0)}),
]


def _campaign(store: str) -> dict[str, Any]:
    return json.loads(cli("timeline", "--campaign", CAMPAIGN, "--store", store, "--json"))


def _rolls(store: str) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in json.loads(cli("rolls", "--campaign", CAMPAIGN, "--store", store, "--json"))}


@pytest.mark.parametrize(("step", "last", "state", "gm_bennies", "rolls"), STEPS, ids=[f"step-{s[0]}" for s in STEPS])
def test_each_step_of_the_worked_scenario(
    tmp_path: Path, step: str, last: str, state: dict[str, dict[str, Any]], gm_bennies: int,
    rolls: dict[str, tuple[int, bool, int]],
) -> None:
    store = SCENARIO.run_through(tmp_path, last)
    for name, expected in state.items():
        sheet = SCENARIO.sheet(store, name)
        assert {key: sheet[key] for key in expected} == expected, f"step {step}: {name}"
    assert _campaign(store)["gm_bennies"] == gm_bennies, f"step {step}"
    found = _rolls(store)
    for roll_id, (total, success, raises) in rolls.items():
        roll = found[roll_id]
        assert (roll["total"], roll["success"], roll["raises"], roll["critical_failure"]) == (
            total, success, raises, False
        ), f"step {step}: {roll_id}"


def test_the_rolls_show_the_scenarios_dice(tmp_path: Path) -> None:
    """Trait die with its aces, then the wild die; Extras roll no wild die; damage in written order."""
    rolls = _rolls(SCENARIO.run_through(tmp_path, "s10-heal"))
    assert rolls["s2-attack"]["faces"] == [4, 3, 2]
    assert [d["faces"] for d in rolls["s5-attack"]["dice"]] == [[2], [6, 1]]
    assert [d["kept"] for d in rolls["s5-attack"]["dice"]] == [False, True]
    assert [d["faces"] for d in rolls["s3-attack"]["dice"]] == [[5]]
    assert [d["faces"] for d in rolls["s6-damage"]["dice"]] == [[4], [3], [2]]
    assert [d["faces"] for d in rolls["s9-reroll"]["dice"]] == [[6, 4], [2]]
    assert rolls["s7-attack"]["modifiers"] == [
        {"source": "wounds", "value": -1}, {"source": "wild attack", "value": 2},
    ]


def test_a_shaken_ganger_cannot_attack_in_step_8(tmp_path: Path) -> None:
    store = SCENARIO.run_through(tmp_path, "s8-turn")
    before = _rolls(store)
    again = tmp_path / "again.jsonl"
    again.write_text(json.dumps({
        "type": "attack", "campaign": CAMPAIGN, "attacker": B, "target": VERA, "kind": "melee", "dice": [6],
    }) + "\n")
    output = cli("run", str(again), "--store", store, ok=False)
    assert "Shaken" in output and "L110" in output
    assert _rolls(store) == before and SCENARIO.sheet(store, VERA)["wounds"] == 1


def test_the_files_final_state_is_the_digests(tmp_path: Path) -> None:
    """Vera: wounds 0, not Shaken, not Vulnerable, bennies 1, energy cells 0; A and B out; GM bennies 2."""
    store = SCENARIO.run_through(tmp_path, "s10-heal")
    vera = SCENARIO.sheet(store, VERA)
    assert (vera["wounds"], vera["shaken"], vera["vulnerable"], vera["bennies"], vera["energy_cells"]) == (
        0, False, False, 1, 0
    )
    assert SCENARIO.sheet(store, A)["out"] and SCENARIO.sheet(store, B)["out"]
    assert _campaign(store)["gm_bennies"] == 2
    assert set(vera) >= {
        "name", "attributes", "skills", "parry", "toughness", "wounds", "max_wounds", "shaken", "dying",
        "vulnerable", "distracted", "bennies", "energy_cells",
    }
    assert vera["skills"]["hacking"] == "d6" and "lockpicking" not in vera["skills"]
