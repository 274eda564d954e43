"""The digest's §12 worked scenario, from a command file through the `rollbook` CLI.

Each step's lines of scenario.jsonl are run with `rollbook run` into one SQLite store; after
each step every value of the digest's table is read back with `rollbook sheet --json`,
`rollbook timeline --json` (the campaign: Adversity, initiative) and `rollbook rolls --json`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rollbook.cli import app

SCENARIO = Path(__file__).with_name("scenario.jsonl")
CAMPAIGN = "spark"
SPARK_START = {"strength": 4, "agility": 5, "stamina": 5, "intellect": 3, "perception": 4, "will": 3}

#: (step of §12, command ids, expected sheet values, expected campaign values, expected roll totals)
STEPS: list[tuple[int, list[str], dict[str, dict[str, Any]], dict[str, Any], dict[str, int]]] = [
    (1, ["s01", "s02", "s03", "s04", "s05", "s06", "s07"],
     {"Spark": {"resolve": 2, "health": 5, "max_health": 5, "edge": 9, "abilities": SPARK_START,
                "powers": {"Energy Blast": 7}, "defeated": False, "defining_moment_used": None, "effects": {}},
      "Brute": {"health": 6, "max_health": 6, "edge": 4, "defeated": False}},
     {"adversity": 1, "trait_limit": 8}, {}),
    (2, ["s08"], {}, {"page": 1, "initiative.order": [["Spark"], ["Brute"]]}, {}),
    (3, ["s09"], {"Brute": {"health": 1, "defeated": False}, "Spark": {"health": 5}}, {}, {"s09": 6, "s09#2": 1}),
    (4, ["s10", "s11"], {"Spark": {"health": 3, "resolve": 1}, "Brute": {"health": 1}}, {},
     {"s10": 6, "s10#2": 4, "s11": 2}),
    (5, ["s12", "s13", "s14", "s15"],
     {"Brute": {"health": 0, "defeated": True},
      "Spark": {"resolve": 0, "defining_moment_used": 1, "must_lower_ability": None, "max_health": 4, "health": 3,
                "edge": 9, "abilities": {**SPARK_START, "stamina": 4}}},
     {"page": 2}, {"s14": 9, "s14#2": 3}),
    (6, ["s16", "s17"], {"Spark": {"health": 4, "max_health": 4}}, {}, {"s17": 3}),
    (7, ["s18", "s19", "s20"], {"Spark": {"resolve": 1}}, {"adversity": 1}, {}),
    (8, ["s21"], {"Spark": {"resolve": 1}}, {"adversity": 0}, {}),
    # Step 9 (s22) is refused: see the test below.
    (10, ["s23", "s24"],
     {"Spark": {"resolve": 2, "health": 4, "max_health": 4, "abilities": {**SPARK_START, "stamina": 4},
                "defining_moment_used": 1, "edge": 9, "powers": {"Energy Blast": 7}},
      "Brute": {"defeated": True}},
     {"adversity": 1}, {}),
]


def cli(*args: str, ok: bool = True) -> Any:
    result = CliRunner().invoke(app, ["-q", *args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def read(store: str, *args: str) -> Any:
    return json.loads(cli(*args, "--campaign", CAMPAIGN, "--store", store, "--json").stdout)


def dig(data: dict[str, Any], path: str) -> Any:
    for key in path.split("."):
        data = data[key]
    return data


def lines() -> dict[str, str]:
    return {json.loads(line)["id"]: line for line in SCENARIO.read_text().splitlines() if line.strip()}


def run_step(tmp_path: Path, store: str, step: int, ids: list[str]) -> Any:
    step_file = tmp_path / f"step{step}.jsonl"
    step_file.write_text("\n".join(lines()[i] for i in ids) + "\n")
    return cli("run", str(step_file), "--store", store, "--json", ok=False)


def test_the_worked_scenario_step_by_step(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'spark.db'}"
    every = [i for _, ids, _, _, _ in STEPS for i in ids]
    assert sorted([*every, "s22"]) == sorted(lines()), "every line of the file is a step of §12"
    for step, ids, sheets, campaign, totals in STEPS:
        result = run_step(tmp_path, store, step, ids)
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout)
        applied = {k: summary[k] for k in ("applied", "skipped", "skips", "error")}
        assert applied == {"applied": len(ids), "skipped": [], "skips": [], "error": None}, f"step {step}"
        for name, expected in sheets.items():
            sheet = read(store, "sheet", name)
            assert {key: sheet[key] for key in expected} == expected, f"step {step}: {name}"
        doc = read(store, "timeline")
        assert {path: dig(doc, path) for path in campaign} == campaign, f"step {step}: campaign"
        if totals:
            rolls = {r["id"]: r for r in read(store, "rolls")}
            assert {i: rolls[i]["total"] for i in totals} == totals, f"step {step}: roll totals"
        if step == 5:
            # Knockback (≥ 6 damage) is possible but unaffordable: Spark has no Resolve left.
            knockback = tmp_path / "knockback.jsonl"
            knockback.write_text(json.dumps({"type": "spend_resolve", "campaign": CAMPAIGN, "character": "Spark",
                                             "purpose": "knockback"}) + "\n")
            refused = cli("run", str(knockback), "--store", store, ok=False)
            assert refused.exit_code == 1 and "has 0 Resolve" in refused.output
        if step == 8:
            check_step_9_is_refused(tmp_path, store)


def check_step_9_is_refused(tmp_path: Path, store: str) -> None:
    """Step 9: another Defining Moment in the same story is refused, and nothing changes."""
    before = (read(store, "sheet", "Spark"), read(store, "timeline"), read(store, "log"))
    result = run_step(tmp_path, store, 9, ["s22"])
    assert result.exit_code == 1
    assert "only once per story" in result.output and "L79" in result.output
    assert (read(store, "sheet", "Spark"), read(store, "timeline"), read(store, "log")) == before


def test_the_rolls_keep_every_face_and_the_explosions(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'spark.db'}"
    for step, ids, *_ in STEPS[:5]:
        assert run_step(tmp_path, store, step, ids).exit_code == 0
    rolls = {r["id"]: r for r in read(store, "rolls")}
    blast = rolls["s14"]
    assert blast["faces"] == [6, 2, 1, 3, 5, 4, 6, 1, 3, 2, 6, 3, 1]
    assert [d["faces"] for d in blast["dice"]][:1] == [[6, 6, 1]]  # the first 6 exploded twice
    assert blast["dm"] is True and blast["explode"] is True
    assert rolls["s10#2"]["changes"][-1]["total"] == 4  # Spark's Resolve die revised the defence
    assert rolls["s11"]["purpose"] == "resolve dice" and rolls["s11"]["adds_to"] == "s10#2"
    limits = [row for row in read(store, "limits") if row["limit"] == "defining_moment" and row["used"]]
    assert [(row["instance"], row["holder"]) for row in limits] == [("story 1", "Spark")]
