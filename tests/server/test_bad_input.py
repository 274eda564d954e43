"""Bad requests: each a clear 4xx naming what is wrong, never a 500, and nothing written."""

import json

import pytest

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def raw_post(table, content, user="anna", key="bad-1", path="/campaigns/bs/commands", **headers):
    return table.client.post(path, content=content, headers={**table.headers(user, key), "Content-Type": "application/json",
                                                           **headers})


@pytest.mark.parametrize(("content", "status", "field", "reason"), [
    (b'{"type": "roll_move", ', 422, "body", "broken JSON"),
    (b'[1, 2]', 422, "body", "expected a JSON object"),
    (b'{"type": "roll_move", "type": "take_damage"}', 422, "body.type", "given twice"),
    (b'{"type": "take_damage", "character": "Anna", "harm": NaN}', 422, "body", "NaN is not a JSON number"),
    (b'\xff\xfe{}', 422, "body", "not UTF-8"),
    (json.dumps({**MOVE, "luck": 2}).encode(), 422, "luck", "unknown field"),
    (json.dumps({**MOVE, "stat": 2}).encode(), 422, "stat", "expected a string"),
    (json.dumps({**MOVE, "dice": "3,4"}).encode(), 422, "dice", "expected"),
    (json.dumps({**MOVE, "character": "Nobody"}).encode(), 422, "character", "Nobody"),
    (json.dumps({"type": "fly_to_the_moon"}).encode(), 422, "type", "unknown command type"),
    (json.dumps({**MOVE, "campaign": "other"}).encode(), 422, "body.campaign", "the campaign of the path"),
    (json.dumps({**MOVE, "id": "other"}).encode(), 422, "body.id", "Idempotency-Key"),
])
def test_a_malformed_or_wrong_body_names_the_field_and_writes_nothing(table, content, status, field, reason):
    before = table.stored()
    answer = raw_post(table, content)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["field"] == field and reason in answer.json()["error"]["reason"], answer.json()
    assert table.stored() == before


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                                          "application/jsonx", None])
def test_a_body_not_declared_json_is_415_and_writes_nothing(table, content_type):
    """Issue 46: a page of another site may POST text/plain or a form without a preflight; none is applied."""
    before = table.stored()
    declared = {"Content-Type": content_type} if content_type else {}
    body = json.dumps({"type": "take_damage", "character": "Anna", "harm": 1}).encode()
    for path, method, user in (("/campaigns/bs/commands", "POST", "anna"), ("/campaigns/bs/members/bo", "PUT", "gm1")):
        answer = table.client.request(method, path, content=body, headers={**table.headers(user, "plain-1"), **declared})
        assert answer.status_code == 415, answer.text
        assert answer.json()["error"]["field"] == "Content-Type header" and "application/json" in answer.text
    assert table.stored() == before
    declared = raw_post(table, body, key="plain-2", **{"Content-Type": "application/json; charset=utf-8"})
    assert declared.status_code == 201 and table.stored() > before


def test_a_body_over_a_megabyte_is_413_declared_or_streamed(table):
    before = table.stored()
    huge = json.dumps({**MOVE, "note": "x" * 1_100_000}).encode()
    declared = raw_post(table, huge)
    assert declared.status_code == 413 and declared.json()["error"]["field"] == "body"

    def chunks():
        yield huge[:600_000]
        yield huge[600_000:]

    streamed = raw_post(table, chunks())
    assert streamed.status_code == 413
    assert table.stored() == before


def test_unknown_campaign_user_and_bad_query_values_are_named(table):
    assert raw_post(table, json.dumps(MOVE), path="/campaigns/nope/commands").json()["error"]["field"] == "campaign"
    bad_revision = table.get("anna", "/campaigns/bs/sheets/Anna", revision="two")
    assert bad_revision.status_code == 422 and bad_revision.json()["error"]["field"] == "query.revision"
    no_revision = table.get("anna", "/campaigns/bs/sheets/Anna", revision=5)
    assert no_revision.status_code == 404 or no_revision.json()["error"]["field"] == "revision"
    member = table.client.put("/campaigns/bs/members/anna", json={"role": "gm", "until": "never"},
                              headers=table.headers("gm1"))
    assert member.status_code == 422 and member.json()["error"]["field"] == "body.until"
    typed = table.client.put("/campaigns/bs/members/anna", json={"role": 1}, headers=table.headers("gm1"))
    assert typed.status_code == 422 and typed.json()["error"]["field"] == "body.role"
    assert table.state.accounts.role_of("bs", "anna") == "player"
    bad_name = table.client.put("/campaigns/bs/members/a%20b", json={"role": "player"}, headers=table.headers("gm1"))
    assert bad_name.status_code == 422 and bad_name.json()["error"]["field"] == "user"
