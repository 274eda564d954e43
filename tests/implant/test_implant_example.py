"""The bundled demo campaign (examples/implant.jsonl): a scene with a fight, a soak and a healing roll."""

from __future__ import annotations

import json
from pathlib import Path


from tests.scenario_files import cli

EXAMPLE = Path(__file__).parents[2] / "examples" / "implant.jsonl"


def test_the_demo_has_a_fight_a_soak_and_a_healing_roll(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'demo.db'}"
    summary = json.loads(cli("run", str(EXAMPLE), "--store", store, "--json"))
    assert summary["error"] is None
    rolls = json.loads(cli("rolls", "--campaign", "neon-alley", "--store", store, "--json"))
    purposes = [r["purpose"] for r in rolls]
    assert {"attack:melee", "attack:ranged", "damage", "soak", "heal"} <= set(purposes)
    soak = next(r for r in rolls if r["purpose"] == "soak")
    assert soak["success"] and soak["character"] == "Vera"
    vera = json.loads(cli("sheet", "Vera", "--campaign", "neon-alley", "--store", store, "--json"))
    assert (vera["wounds"], vera["bennies"], vera["energy_cells"]) == (0, 1, 5)
    ganger = json.loads(cli("sheet", "Ganger", "--campaign", "neon-alley", "--store", store, "--json"))
    assert ganger["out"]
    timeline = json.loads(cli("timeline", "--campaign", "neon-alley", "--store", store, "--json"))
    assert timeline["gm_bennies"] == 1 and timeline["game_day"] == 2
    labels = {e["label"] for e in timeline["timeline"]}
    assert {"scene", "battle", "round"} <= labels
