"""The bundled pirate demo (examples/pirates.jsonl, campaign "silver-fleet") through the CLI.

It must exercise a ship battle, a scheme, a negotiation and a chapter end, and its final
sheets are checked value by value against what its dice make of the rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

EXAMPLE = Path(__file__).parents[2] / "examples" / "pirates.jsonl"
DEMO = "silver-fleet"


def cli(*args: str) -> str:
    result = CliRunner().invoke(app, ["-q", *args])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('demo') / 'demo.db'}"
    summary = json.loads(cli("run", str(EXAMPLE), "--store", url, "--json"))
    assert summary["error"] is None
    return url


def _sheet(store: str, name: str) -> dict:
    return json.loads(cli("sheet", name, "--campaign", DEMO, "--store", store, "--json"))


def test_the_demo_plays_a_battle_a_scheme_a_negotiation_and_chapter_ends(store: str) -> None:
    log = json.loads(cli("log", "--campaign", DEMO, "--store", store, "--json"))
    happened = {row["type"] for row in log}
    assert {"Holed", "BrokeDown", "HullRepaired", "Schemed", "NegotiationEnded", "LightWoundsHealed",
            "FateCalled", "FateMet", "Developed", "BreakdownRemoved", "AmbushTokensBurned", "SuccessTraded"} <= happened
    ended = [(row["data"]["scope"], row["data"]["number"]) for row in log if row["type"] == "ScopeEnded"]
    assert ("battle", 1) in ended and ("chapter", 1) in ended and ("chapter", 2) in ended
    negotiation = next(row["data"] for row in log if row["type"] == "NegotiationEnded")
    assert (negotiation["trumps"], negotiation["threat_harm"]) == ({"pirates": 3, "opponent": 0}, 3)


def test_the_demo_final_sheets(store: str) -> None:
    revenge = json.loads(cli("ship", "Revenge", "--campaign", DEMO, "--store", store, "--json"))
    assert {k: revenge[k] for k in ("navigation", "firepower", "displacement", "hull", "breakdown", "developments",
                                     "secrets", "chances", "treasury_piastres", "in_port")} == {
        "navigation": 3, "firepower": 3, "displacement": 1, "hull": 6, "breakdown": None,
        "developments": ["new_masts"], "secrets": [], "chances": 0, "treasury_piastres": 200, "in_port": True,
    }
    mary, jack, anne = (_sheet(store, n) for n in ("Mary", "Jack", "Anne"))
    assert (mary["luck"], mary["stats"]["reputation"], mary["purse"]) == (2, 0, {"chests": 1, "doubloons": 7, "piastres": 0})
    assert (jack["luck"], jack["stats"]["reputation"]) == (1, 1)
    assert (anne["fate_struck"], anne["wounds"]["terrible"], anne["ambush_tokens"]) == (["ugly_scar"], 0, {})


def test_the_demo_rolls(store: str) -> None:
    rolls = {r["id"]: (r["total"], r["outcome"]) for r in
             json.loads(cli("rolls", "--campaign", DEMO, "--store", store, "--json"))}
    assert rolls["sf-board"] == (8, "miss")  # 7, helped to 8, traded for luck
    assert rolls["sf-scheme"] == (11, "full_success")  # 4 + 3 + 2 (Foresight) + 2 (council)
    assert rolls["sf-plan"] == (13, "full_success")  # advantage: [2, 6, 5] keeps 6 + 5, + 2 (Guile)
    assert rolls["sf-fate"] == (8, "player_chooses")
