"""The GM's and the players' forms without JSON (issue 45): a list of objects (a group check's members, a team
attack's attackers) is asked row by row, part by part; a map of objects (an implant's weapons) by name and
parts; a Power by its rank alone or by its full description; "as many as possible" is a choice. A player's row
offers only his own characters, and a crafted row naming another's is refused."""

import json
import re

import pytest
from rollbook.domain.rulesets import available
from rollbook.web.posting import commands_for_role

from .conftest import table_on
from .test_web_posting import HTML, HTMX, form_of

HEROES = ("strength", "agility", "stamina", "intellect", "perception", "will")


def fragment(table, user, campaign, **params):
    answer = table.client.get(f"/campaigns/{campaign}/fragments/post-fields", params=params,
                              headers={**table.headers(user), **HTMX})
    assert answer.status_code == 200, answer.text
    return answer.text


def send(table, user, campaign, fields):
    return table.client.post(f"/campaigns/{campaign}/post", data=fields, headers={**table.headers(user), **HTMX})


@pytest.fixture
def heroes(rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        assert table.post("gm1", {"type": "create_campaign", "ruleset": "heroes"}, campaign="h").status_code == 201
        assert table.client.put("/campaigns/h/members/anna", json={"role": "player"},
                                headers=table.headers("gm1")).status_code == 200
        for name, player in (("Kane", "anna"), ("Sol", "bo")):
            body = {"type": "create_character", "name": name, "player": player,
                    "abilities": dict.fromkeys(HEROES, 3), "talents": {"Fighting": 2}}
            assert table.post("gm1", body, campaign="h").status_code == 201, name
        yield table


@pytest.mark.parametrize("ruleset", sorted(available()))
def test_no_form_of_any_game_asks_for_json_and_none_offers_to_create_the_campaign_again(ruleset):
    for role in ("gm", "player"):
        models = commands_for_role(ruleset, role)
        assert "create_campaign" not in models
        from rollbook.web.post_form import Offer, build

        offer = Offer(role=role, actable=["A"], ships=[], players=["p"], sheets={}, user="p")
        for name, model in models.items():
            rows, _ = build(model, offer)
            assert [row.name for row in rows if row.kind == "json"] == [], (ruleset, role, name)
            assert "via" not in [row.name for row in rows], (ruleset, role, name)  # set by the server, for a chat's post


def test_a_power_is_its_rank_alone_or_its_full_description(heroes):
    form = fragment(heroes, "gm1", "h", type="create_character")
    assert 'name="powers#0:value" type="number"' in form
    assert 'name="powers#0.uses~defence" type="checkbox"' in form
    assert re.search(r'name="powers#0.lethal" type="checkbox" value="true"\s+checked', form)  # its default
    fields = {k: v for k, v in form_of(form).items() if v != ""} | {
        "name": "Nova", "player": "anna", **{f"abilities.{a}": "3" for a in HEROES},
        "powers#0:name": "Blast", "powers#0:value": "4",
        "powers#1:name": "Shield", "powers#1:value": "3", "powers#1.uses~defence": "true", "powers#1.passive": "true",
        "powers#1.lethal": "true", "powers#1.effect": "<b>glows</b>"}
    posted = send(heroes, "gm1", "h", fields)
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert heroes.get("gm1", "/campaigns/h/sheets/Nova").json()["powers"] == {"Blast": 4, "Shield": 3}
    exported = heroes.client.get("/campaigns/h/export", headers=heroes.headers("gm1")).text
    created = next(json.loads(line)["command"] for line in exported.splitlines() if '"name": "Nova"' in line)
    assert created["powers"]["Blast"] == 4  # the rank alone: the short form, a Power that affects others
    assert created["powers"]["Shield"] == {"rank": 3, "uses": ["defence"], "lethal": True, "passive": True,
                                           "effect": "<b>glows</b>", "area": False}


def test_a_described_power_without_its_rank_is_refused_beside_the_rank(heroes):
    form = fragment(heroes, "gm1", "h", type="create_character")
    fields = {k: v for k, v in form_of(form).items() if v != ""} | {
        "name": "Nova", "player": "anna", **{f"abilities.{a}": "3" for a in HEROES},
        "powers#0:name": "Shield", "powers#0.passive": "true"}
    refused = send(heroes, "gm1", "h", fields)
    assert refused.headers["X-Rollbook-Status"] == "422"
    assert 'id="e-f-powers-0-value"' in refused.text or "give its rank" in refused.text
    assert 'value="Shield"' in refused.text  # the form keeps what was typed


def test_a_group_check_is_asked_member_by_member_and_posts_from_the_rows(heroes):
    form = fragment(heroes, "gm1", "h", type="group_check")
    assert 'name="members#0.character"' in form and 'name="members#0.trait"' in form
    assert "(as JSON)" not in form
    fields = form_of(form) | {"members#0.character": "Kane", "members#0.trait": "Fighting",
                              "members#1.character": "Sol", "members#1.trait": "Fighting", "difficulty": "1"}
    posted = send(heroes, "gm1", "h", {k: v for k, v in fields.items() if v != ""})
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text


def test_a_players_row_offers_only_his_own_and_a_crafted_row_naming_another_is_refused(heroes):
    form = fragment(heroes, "anna", "h", type="group_check")
    row = re.search(r'<select id="f-members-0-character".*?</select>', form, re.S).group(0)
    assert ">Kane<" in row and ">Sol<" not in row
    fields = form_of(form) | {"members#0.character": "Kane", "members#0.trait": "Fighting",
                              "members#1.character": "Sol", "members#1.trait": "Fighting"}
    refused = send(heroes, "anna", "h", {k: v for k, v in fields.items() if v != ""})
    assert refused.headers["X-Rollbook-Status"] in ("403", "422"), refused.text
    assert "Sol" in refused.text


def test_an_implants_weapons_are_asked_by_name_kind_and_damage(rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        assert table.post("gm1", {"type": "create_campaign", "ruleset": "implant"}, campaign="i").status_code == 201
        form = fragment(table, "gm1", "i", type="create_character")
        assert 'name="weapons#0:name"' in form and 'name="weapons#0.kind"' in form and 'name="weapons#0.damage"' in form
        assert "(as JSON)" not in form
        half = send(table, "gm1", "i", {k: v for k, v in form_of(form).items() if v != ""}
                    | {"name": "Rex", "weapons#0.kind": "ranged", "weapons#0.damage": "2d6"})
        assert half.headers["X-Rollbook-Status"] == "422" and "give it a name" in half.text


def test_luck_that_absorbs_harm_offers_as_many_as_possible(table):
    form = fragment(table, "gm1", "bs", type="take_damage")
    choice = re.search(r'<select id="f-absorb_with_luck".*?</select>', form, re.S).group(0)
    assert '<option value="true">As many as possible</option>' in choice and '<option value="0" selected>' in choice
    fields = {k: v for k, v in form_of(form).items() if v != ""} | {
        "character": "Anna", "harm": "1", "absorb_with_luck": "true"}
    posted = send(table, "gm1", "bs", fields)
    assert posted.headers["X-Rollbook-Status"] == "201", posted.text
    assert table.get("gm1", "/campaigns/bs/sheets/Anna").json()["luck"] == 0
