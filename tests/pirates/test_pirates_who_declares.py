"""Issue 46, 3: who declares what happens to the crew's ship, as the original has it.

A hole is received (L138), from the GM's move or a move's consequence; a secret is learned when a move gives the
chance (L99), its words the GM's: both are the GM's to post, and `rollbook schema` marks them `x-gm-only`. Where
the ship goes is the crew's decision, a ship move any pirate makes (L117, L121): a player enters port and puts to
sea himself. Before, a player could post all four.
"""

from __future__ import annotations

import json

import pytest

from rollbook.testing import pirates

ANNA = "player:anna"
SHIP = {"type": "create_ship", "name": "Chaika", "navigation": 1, "firepower": 1, "displacement": 1, "hull": 3}


@pytest.fixture
def crew(campaign):
    campaign.given(pirates.created("Anna", player="anna", luck=2), SHIP)
    return campaign


@pytest.mark.parametrize("command", [{"type": "take_hole", "ship": "Chaika"},
                                     {"type": "gain_secret", "ship": "Chaika", "secret": "The governor's debts"}])
def test_a_player_cannot_declare_a_hole_or_a_secret_and_the_gm_can(crew, command):
    crew.when({**command, "actor": ANNA})
    crew.then_rejected(match=rf"^actor: only the GM may {command['type']}$")  # and nothing written
    crew.when(command)
    assert crew.error is None, crew.error


def test_the_crew_enters_port_and_puts_to_sea_itself(crew):
    for kind in ("enter_port", "put_to_sea"):
        crew.when({"type": kind, "ship": "Chaika", "actor": ANNA})
        assert crew.error is None, (kind, crew.error)


def test_the_schema_marks_the_gms_commands():
    from typer.testing import CliRunner

    from rollbook.cli import app

    schema = json.loads(CliRunner().invoke(app, ["schema", "--ruleset", "pirates"]).output)["$defs"]
    assert schema["TakeHole"]["x-gm-only"] is True and schema["GainSecret"]["x-gm-only"] is True
    assert "x-gm-only" not in schema["EnterPort"] and "x-gm-only" not in schema["PutToSea"]
    assert "x-gm-only" not in schema["RollMove"] and schema["TreatWound"]["x-gm-only"] is True
