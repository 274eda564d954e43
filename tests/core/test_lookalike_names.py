"""Names that only look like another are refused, as ids are (issue 36, item 7).

`create_character name=Jаck`, a Cyrillic `а` beside an existing `Jack`, was accepted, and its
rolls then narrated as "Jаck". A character's, ship's or enemy's name, and a character's player,
are held to the ids' look-alike rule (domain/ids.py `lookalike_problem`); a user's name is plain
ASCII already.
"""

import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.bootstrap import create_app
from rollbook.testing import new_campaign, pirates
from tests.gladiators.gladiator_builders import enemy, gladiator
from tests.heroes.heroes_builders import hero
from tests.implant.implant_builders import hero as implant_hero

CYRILLIC_A = "\u0430"
JACK = f"J{CYRILLIC_A}ck"


def test_a_cyrillic_letter_in_a_name_beside_jack_is_refused_naming_the_field_and_jack(campaign):
    campaign.given(pirates.created("Jack", player="jack"))
    campaign.when(pirates.created(JACK, player="jack"))
    campaign.then_rejected(match=r"'Jаck' cannot be a character's name: it mixes letters of CYRILLIC and LATIN"
                                 r".*CYRILLIC SMALL LETTER A \(U\+0430\)\. Did you mean 'Jack'\?")
    assert campaign.error.field == "name"
    assert [n for n in campaign.campaign_sheet()["members"]] == ["Jack"]


@pytest.mark.parametrize("name, problem", [
    (f"Ch{CYRILLIC_A}ika", "mixes letters of CYRILLIC and LATIN"),
    ("\uff23haika", "contains 'Ｃ' (U+FF23), a look-alike of 'C'"),
    ("Chaika\u200b", "contains the invisible character U+200B"),
    ("Chai\u0301ka", "is not written in composed characters"),
])
def test_a_ships_name_that_looks_like_another_is_refused(campaign, name, problem):
    campaign.given(pirates.ship("Chaika"))
    campaign.when(pirates.ship(name))
    campaign.then_rejected(match=re.escape(f"cannot be a ship's name: it {problem}"))
    assert campaign.error.field == "name"


@pytest.mark.parametrize("ruleset, command", [
    ("heroes", hero(f"Tempest{CYRILLIC_A}")),
    ("gladiators", gladiator(f"M{CYRILLIC_A}rcus")),
    ("gladiators", enemy(f"B{CYRILLIC_A}rbarians")),
    ("implant", implant_hero(f"Ver{CYRILLIC_A}")),
])
def test_every_rulesets_members_are_held_to_it(ruleset, command):
    under_test = new_campaign(ruleset)
    try:
        under_test.when(command).then_rejected(match="mixes letters of CYRILLIC and LATIN")
        assert under_test.error.field == "name"
    finally:
        under_test.close()


def test_a_characters_player_that_looks_like_another_is_refused(campaign):
    campaign.given(pirates.created("Jack", player="jack"))
    campaign.when(pirates.created("Jill", player=f"j{CYRILLIC_A}ck"))
    campaign.then_rejected(match=r"'jаck' cannot be a character's player: .*Did you mean 'jack'\?")
    assert campaign.error.field == "player"


@pytest.mark.parametrize("name", ["Анна", "Zoë", "山田たろう", "Ναυτίλος", "Bo\x1b[2J"])
def test_names_of_one_script_and_escaped_control_characters_stay_accepted(campaign, name):
    campaign.given(pirates.created("Jack"))
    campaign.when(pirates.created(name))
    assert campaign.error is None, campaign.error
    assert name in campaign.campaign_sheet()["members"]


def test_a_player_creating_a_lookalike_of_another_players_character_writes_nothing(campaign):
    campaign.given(pirates.created("Jack", player="jack"))
    for player in ("mary", "jack"):
        campaign.when({**pirates.created(JACK, player=player).command, "actor": "player:mary"})
        campaign.then_rejected()
        assert campaign.error.field in ("name", "player")
    campaign.when({**pirates.created(JACK, player="mary").command, "actor": "player:mary"})
    campaign.then_rejected(match="cannot be a character's name")


def test_a_users_name_that_looks_like_another_is_refused(tmp_path):
    url = f"sqlite:///{tmp_path / 'users.db'}"
    assert CliRunner().invoke(app, ["users", "add", "jack", "--store", url]).exit_code == 0
    refused = CliRunner().invoke(app, ["users", "add", f"j{CYRILLIC_A}ck", "--store", url])
    assert refused.exit_code == 1 and "user: a user's name is 1 to 64 letters" in refused.stderr
    client = TestClient(create_app(url, posts_per_minute=0))
    with client:
        token = client.app.state.rollbook.accounts.add("gm1")
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": "k1"}
        assert client.post("/campaigns/bs/commands", json={"type": "create_campaign", "ruleset": "pirates"},
                           headers=headers).status_code == 201
        granted = client.put(f"/campaigns/bs/members/j{CYRILLIC_A}ck", json={"role": "player"}, headers=headers)
        assert granted.status_code in (404, 422) and granted.json()["error"]["field"] == "user"
