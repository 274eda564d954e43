"""Over HTTP a player's command is dated by the server (issue 36, item 6).

A player who posted `"at": "9999-12-31T23:59:59+00:00"` got 201, and every command after it
was refused as earlier than the campaign's last one. Now a player's (or an auditor's) `at` is
refused with a 422 naming `at`, and nothing is stored; the GM's is taken up to a day past
the server's clock, as `rollbook run` takes it.
"""

from datetime import datetime, timedelta, timezone

from freezegun import freeze_time

FAR = "9999-12-31T23:59:59+00:00"
MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}
#: Later than the fixture's campaign, made at the real time: every command here is in order.
LATER = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(days=400)


def refused_at(response):
    return response.status_code == 422 and response.json()["error"]["field"] == "at"


def recorded(table, key):
    return table.state.service.unit.recorded(*_claim(table, key)).command


def _claim(table, key):
    from rollbook.domain.ids import campaign_id, command_claim_id

    return command_claim_id("bs", key), campaign_id("bs")


def test_a_players_at_is_refused_naming_at_and_nothing_is_stored(table):
    before = table.stored()
    for at in (FAR, "2020-01-01T00:00:00+00:00"):
        answer = table.post("anna", {**MOVE, "at": at})
        assert refused_at(answer), answer.text
        assert "the server dates it when it arrives" in answer.json()["error"]["reason"]
    assert table.stored() == before
    assert table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1}).status_code == 201


def test_a_players_command_is_dated_when_it_arrives(table):
    with freeze_time(LATER):
        assert table.post("anna", MOVE, key="anna-now").status_code == 201
    assert datetime.fromisoformat(recorded(table, "anna-now")["at"]) == LATER


def test_the_gms_at_is_taken_up_to_a_day_past_the_servers_clock(table):
    with freeze_time(LATER):
        before = table.stored()
        assert refused_at(table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1, "at": FAR}))
        assert refused_at(table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1,
                                             "at": (LATER + timedelta(days=2)).isoformat()}))
        assert table.stored() == before
        soon = (LATER + timedelta(hours=1)).isoformat()
        assert table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1, "at": soon},
                          key="gm-soon").status_code == 201
    assert recorded(table, "gm-soon")["at"] == soon


def test_a_player_naming_another_players_character_with_an_at_stores_nothing(table):
    before = table.stored()
    with_at = table.post("anna", {**MOVE, "character": "Bo", "at": FAR})
    assert refused_at(with_at)
    without = table.post("anna", {**MOVE, "character": "Bo"})
    assert without.status_code == 403 and without.json()["error"]["field"] == "character"
    assert table.stored() == before
