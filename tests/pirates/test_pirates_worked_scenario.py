"""The digest's §18 worked scenario, from a command file through the `rollbook` CLI.

For each step, the file's lines up to and including that step are run with `rollbook run`
into a fresh SQLite store; then every value of the digest's table is read back with
`rollbook sheet --json` (and the step's roll with `rollbook rolls --json`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.scenario_files import ScenarioFile, cli

CAMPAIGN = "worked-scenario"
SCENARIO = ScenarioFile(Path(__file__).with_name("worked-scenario.jsonl"), CAMPAIGN)

#: The state of §18's setup: Anna with [L, L, —] whose −1s were already used, Bo, Chaika.
SETUP: dict[str, dict[str, Any]] = {
    "Anna": {
        "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1},
        "luck": 1, "wounds": {"light": 2, "serious": 0, "terrible": 0}, "pending_light": 0, "modifier": 0,
        "fate_pending": [],
    },
    "Bo": {"luck": 2},
    "Chaika": {
        "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4, "breakdown": None,
        "secrets": ["X1", "X2"], "chances": 0, "gm_chances": 0,
    },
}


def _then(previous: dict[str, dict[str, Any]], **changes: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {name: {**sheet, **changes.get(name, {})} for name, sheet in previous.items()}


def _wounds(light: int, serious: int, terrible: int = 0) -> dict[str, int]:
    return {"light": light, "serious": serious, "terrible": terrible}


S1 = _then(SETUP, Anna={"luck": 0})
S2 = _then(S1, Anna={"wounds": _wounds(3, 0), "pending_light": 1, "modifier": -1})
S3 = _then(S2, Anna={"pending_light": 0, "modifier": 0}, Bo={"luck": 1})
S4 = _then(S3, Anna={"luck": 1})
S5 = _then(S4, Anna={"wounds": _wounds(2, 1), "modifier": -1})
S6 = _then(S5, Anna={"luck": 0})
S7 = _then(S6, Chaika={"hull": 3})
S8 = _then(S7, Chaika={"navigation": 1, "breakdown": "torn_sails"})
S9 = _then(S8, Bo={"luck": 0}, Chaika={"secrets": [], "chances": 4})
S10 = _then(S9, Anna={"wounds": _wounds(0, 1), "modifier": -1})

#: (step of §18, the last command id of the step, the state after it, the step's roll: id, total, outcome)
STEPS = [
    (1, "step-01", S1, ("step-01", 10, "full_success")),
    (2, "step-02", S2, None),
    (3, "step-03-help", S3, ("step-03", 9, "partial_success")),
    (4, "step-04", S4, ("step-03", 9, "miss")),
    (5, "step-05", S5, None),
    (6, "step-06", S6, None),
    (7, "step-07", S7, None),
    (8, "step-08", S8, None),
    (9, "step-09", S9, ("step-09", 10, "full_success")),
    (10, "step-10", S10, None),
]


def test_the_setup_matches_the_digest(tmp_path: Path) -> None:
    store = SCENARIO.run_through(tmp_path, "setup-09")
    for name, expected in SETUP.items():
        sheet = SCENARIO.sheet(store, name)
        assert {key: sheet[key] for key in expected} == expected, name


@pytest.mark.parametrize(("step", "last", "state", "roll"), STEPS, ids=[f"step-{s[0]}" for s in STEPS])
def test_each_step_of_the_worked_scenario(
    tmp_path: Path, step: int, last: str, state: dict[str, dict[str, Any]], roll: tuple[str, int, str] | None
) -> None:
    store = SCENARIO.run_through(tmp_path, last)
    for name, expected in state.items():
        sheet = SCENARIO.sheet(store, name)
        assert {key: sheet[key] for key in expected} == expected, f"step {step}: {name}"
    if roll is not None:
        rolls = {r["id"]: r for r in json.loads(cli("rolls", "--campaign", CAMPAIGN, "--store", store, "--json"))}
        roll_id, total, outcome = roll
        assert (rolls[roll_id]["total"], rolls[roll_id]["outcome"]) == (total, outcome), f"step {step}"


def test_a_second_breakdown_in_step_8_is_refused_for_both_reasons(tmp_path: Path) -> None:
    store = SCENARIO.run_through(tmp_path, "step-08")
    again = tmp_path / "again.jsonl"
    again.write_text(json.dumps(
        {"type": "take_breakdown", "campaign": CAMPAIGN, "ship": "Chaika", "breakdown": "wet_powder"}) + "\n")
    output = cli("run", str(again), "--store", store, ok=False)
    assert "only once per battle" in output and "already has a breakdown (torn_sails)" in output
    assert SCENARIO.sheet(store, "Chaika")["firepower"] == 1


def test_the_files_final_state_is_the_digests(tmp_path: Path) -> None:
    """Final state (§18): Anna [S, —, —] Reputation −1, Luck 0; Bo Luck 0; Chaika Navigation 1 (torn sails)."""
    store = SCENARIO.run_through(tmp_path, "step-10")
    anna = SCENARIO.sheet(store, "Anna")
    assert anna["slots"] == ["serious", None, None]
    assert (anna["stats"]["reputation"], anna["luck"], anna["pending_light"]) == (-1, 0, 0)
    chaika = json.loads(cli("ship", "Chaika", "--campaign", CAMPAIGN, "--store", store, "--json"))
    assert (chaika["navigation"], chaika["firepower"], chaika["displacement"], chaika["hull"]) == (1, 1, 1, 3)
    assert set(chaika) >= {
        "name", "navigation", "firepower", "displacement", "hull", "breakdown", "developments", "conditions",
        "secrets", "chances", "gm_chances", "treasury_piastres", "in_port",
    }
    assert set(anna) >= {
        "name", "stats", "luck", "wounds", "pending_light", "modifier", "fate_struck", "purse_piastres",
    }
