"""The bundled demo campaign (examples/heroes.jsonl): a battle with a Defining Moment, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rollbook.cli import app

EXAMPLE = Path(__file__).parents[2] / "examples" / "heroes.jsonl"


def cli(*args: str) -> Any:
    result = CliRunner().invoke(app, ["-q", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout) if "--json" in args else result.stdout


def test_the_demo_has_a_battle_and_a_defining_moment(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'demo.db'}"
    assert cli("run", str(EXAMPLE), "--store", store, "--json")["error"] is None

    def sheet(name: str) -> dict[str, Any]:
        return cli("sheet", name, "--campaign", "null-hour", "--store", store, "--json")

    spark = sheet("Spark")
    assert spark["defining_moment_used"] == 1 and spark["abilities"]["strength"] == 3
    assert (spark["health"], spark["max_health"], spark["resolve"]) == (4, 4, 2)
    assert sheet("Doctor Null")["defeated"] and sheet("Null Drones")["health"] == 1
    timeline = cli("timeline", "--campaign", "null-hour", "--store", store, "--json")
    assert timeline["adversity"] == 2
    labels = [(e["label"], e["number"]) for e in timeline["timeline"]]
    assert ("battle", 1) in labels and ("page", 2) in labels and ("issue", 2) in labels
    rolls = {r["id"]: r for r in cli("rolls", "--campaign", "null-hour", "--store", store, "--json")}
    moment = rolls["heroes-18"]
    assert moment["dm"] and moment["total"] == 10 and moment["outcome"] == "8 damage"
    events = [e["type"] for e in cli("log", "--campaign", "null-hour", "--store", store, "--json")]
    assert {"DefiningMomentDeclared", "DefiningMomentEnded", "AbilityLowered", "Damaged", "EffectChanged",
            "AdversitySpent", "ResolveRenewed"} <= set(events)
