"""One name for harm in every game that takes it: `damage` beside `harm` (pirates) and `amount`
(heroes), recorded under the game's own name; and `trait_limit` refused where it means nothing."""

import json

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

CHARACTERS = {
    "pirates": ["name=Red", 'stats={"audacity":2,"guile":1,"foresight":0,"reputation":-1}', "luck=1"],
    "heroes": ["name=Red", "role=villain", 'abilities={"strength":3,"agility":3,"stamina":3,"intellect":3,'
               '"perception":3,"will":3}'],
    "implant": ["name=Red", 'attributes={"strength":"d6","agility":"d6","intellect":"d6","vigor":"d6","spirit":"d6"}',
                'skills={"fighting":"d6"}'],
}
RECORDED_AS = {"pirates": "harm", "heroes": "amount", "implant": "damage"}


def rollbook(url: str, *words: str) -> CliRunner:
    return CliRunner().invoke(app, [*words, "--store", url])


@pytest.mark.parametrize("ruleset", sorted(CHARACTERS))
def test_damage_is_taken_under_the_shared_name_and_recorded_under_the_games_own(ruleset, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'names.db'}"
    assert rollbook(url, "post", "create_campaign", "campaign=c", f"ruleset={ruleset}").exit_code == 0
    created = rollbook(url, "post", "create_character", *CHARACTERS[ruleset], "-c", "c")
    assert created.exit_code == 0, created.output
    took = rollbook(url, "post", "take_damage", "character=Red", "damage=1", "--id", "hit", "-c", "c")
    assert took.exit_code == 0, took.output
    log = json.loads(rollbook(url, "log", "-c", "c", "--json").stdout)
    [recorded] = [e["data"]["command"] for e in log if e["type"] == "CommandApplied" and e["data"]["command_id"] == "hit"]
    assert recorded[RECORDED_AS[ruleset]] == 1 and ("damage" not in recorded or ruleset == "implant")


@pytest.mark.parametrize("ruleset", ["implant", "gladiators", "pirates"])
def test_trait_limit_is_refused_by_the_games_without_one(ruleset, tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'limit.db'}"
    refused = rollbook(url, "post", "create_campaign", "campaign=c", f"ruleset={ruleset}", "trait_limit=8")
    assert refused.exit_code == 1
    assert f"trait_limit: the {ruleset} rules have no Trait Limit" in refused.stderr
    assert rollbook(url, "post", "create_campaign", "campaign=h", "ruleset=heroes", "trait_limit=8").exit_code == 0
