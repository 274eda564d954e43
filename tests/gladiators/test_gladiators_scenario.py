"""The digest's §11 worked scenario, from a command file through the `rollbook` CLI.

Each step's commands are run with `rollbook run` into one SQLite store; after each step
every value of the digest's table is read back with `rollbook sheet --json` and
`rollbook rolls --json`.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from rollbook.cli import app

SCENARIO = Path(__file__).with_name("scenario.jsonl")
MARCUS_FULL = {"health": 25, "max_health": 25}

#: (step of §11, the command ids it runs, expected sheets, expected (attack, defence) totals of its turn)
STEPS = [
    (1, ["s00", "s01", "s02", "s03"],
     {"Marcus": {**MARCUS_FULL, "motivation": 4, "motivation_used": False, "roleplay_tokens": 0},
      "Barbarians": {"health": 24, "standing": 3, "beaten": False}}, None),
    (2, ["s04"], {"Marcus": {"health": 25}, "Barbarians": {"health": 14, "standing": 2, "beaten": False}}, (24, 19)),
    (3, ["s05"], {"Marcus": {"health": 19}, "Barbarians": {"health": 4, "standing": 1, "beaten": False}}, (26, 16)),
    (4, ["s06"],
     {"Marcus": {"health": 19, "motivation_used": True},
      "Barbarians": {"health": -5, "standing": 0, "beaten": True}}, (24, 25)),
    (5, ["s07"], {"Marcus": {"roleplay_tokens": 3}}, None),
    (6, ["s08"], {"Marcus": MARCUS_FULL}, None),
    (7, ["s09", "s10", "s11"],
     {"Marcus": {"health": 25, "roleplay_tokens": 2}, "Champion": {"health": 20, "standing": 1, "beaten": False}},
     (13, 31)),
    (8, ["s12"], {"Marcus": {"health": 24}, "Champion": {"health": 11, "beaten": False}}, (27, 18)),
    (9, ["s13"], {"Marcus": {"health": 20, "roleplay_tokens": 1}, "Champion": {"health": -6, "beaten": True}}, (29, 17)),
    (10, ["s14"], {"Marcus": {**MARCUS_FULL, "motivation_used": True, "roleplay_tokens": 1}}, None),
]


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, ["-q", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_the_worked_scenario_step_by_step(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'arena.db'}"
    lines = {json.loads(line)["id"]: line for line in SCENARIO.read_text().splitlines() if line.strip()}
    assert [i for _, ids, _, _ in STEPS for i in ids] == list(lines), "every line of the file is a step of §11"
    for step, ids, sheets, totals in STEPS:
        step_file = tmp_path / f"step{step}.jsonl"
        step_file.write_text("\n".join(lines[i] for i in ids) + "\n")
        summary = json.loads(cli("run", str(step_file), "--store", store, "--json"))
        applied = {k: summary[k] for k in ("applied", "skipped", "skips", "error")}
        assert applied == {"applied": len(ids), "skipped": [], "skips": [], "error": None}, f"step {step}"
        for name, expected in sheets.items():
            sheet = json.loads(cli("sheet", name, "--campaign", "arena", "--store", store, "--json"))
            assert {key: sheet[key] for key in expected} == expected, f"step {step}: {name}"
        if totals is not None:
            rolls = {r["id"]: r for r in json.loads(cli("rolls", "--campaign", "arena", "--store", store, "--json"))}
            turn = ids[-1]
            assert (rolls[turn]["total"], rolls[f"{turn}#2"]["total"]) == totals, f"step {step}: turn totals"


def test_the_sheet_keys_are_the_issue_contract(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'arena.db'}"
    cli("run", str(SCENARIO), "--store", store)
    marcus = json.loads(cli("sheet", "Marcus", "--campaign", "arena", "--store", store, "--json"))
    assert {"name", "health", "max_health", "motivation", "motivation_used", "roleplay_tokens",
            "signature_moves"} <= set(marcus)
    assert marcus["signature_moves"] == {"Lunge": "attack", "Parry": "defence", "Pommel strike": "attack",
                                         "Sidestep": "defence"}
    squad = json.loads(cli("sheet", "Barbarians", "--campaign", "arena", "--store", store, "--json"))
    assert {"name", "health", "standing", "beaten"} <= set(squad)


def test_rerunning_the_file_applies_nothing_twice(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'arena.db'}"
    cli("run", str(SCENARIO), "--store", store)
    summary = json.loads(cli("run", str(SCENARIO), "--store", store, "--json"))
    assert summary["applied"] == 0 and len(summary["skipped"]) == 15
    assert json.loads(cli("sheet", "Marcus", "--campaign", "arena", "--store", store, "--json"))["health"] == 25


def test_the_bundled_example_is_a_battle_against_a_squad(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'demo.db'}"
    example = Path(__file__).parents[2] / "examples" / "gladiators.jsonl"
    assert json.loads(cli("run", str(example), "--store", store, "--json"))["error"] is None

    def sheet(name: str, *at: str) -> dict:
        return json.loads(cli("sheet", name, "--campaign", "ludus-magnus", "--store", store, "--json", *at))

    gauls = sheet("Gauls", "--at", "2026-04-10T19:45:00Z")  # the battle won, before it ends
    assert (gauls["max_health"], gauls["health"], gauls["standing"], gauls["beaten"]) == (28, -9, 0, True)
    gauls = sheet("Gauls")  # L24: between battles everyone's lost health comes back
    assert (gauls["health"], gauls["standing"], gauls["beaten"]) == (28, 4, False)
    marcus, livia = sheet("Marcus"), sheet("Livia")
    assert (marcus["health"], marcus["roleplay_tokens"], marcus["motivation_used"]) == (25, 4, True)
    assert (livia["health"], livia["max_health"]) == (32, 32)  # Endurance Great: 12 + 6 + 8 + 5 + 1
