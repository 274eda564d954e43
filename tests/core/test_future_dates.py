"""A command dated far in the future is refused where it comes in (issue 36, item 6).

One dated 9999 made every later command "earlier than the campaign's last command", the GM's
too. `rollbook run` and `rollbook post` refuse an `at` more than a day past the clock, naming
the line and the field, and write nothing of it, unless `--allow-future`.
"""

import json

import pytest
from freezegun import freeze_time
from typer.testing import CliRunner

from rollbook.cli import app

NOW = "2026-03-02T20:00:00+00:00"
FAR = "9999-12-31T23:59:59+00:00"
STATS = {"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}
SETUP = [
    {"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"},
    {"type": "create_character", "campaign": "bs", "name": "Jack", "player": "jack", "stats": STATS, "luck": 1},
    {"type": "create_character", "campaign": "bs", "name": "Mary", "player": "mary", "stats": STATS, "luck": 1},
]


def rollbook(url, *words):
    return CliRunner().invoke(app, ["-q", *words, "--store", url])


def run(url, tmp_path, *lines, flags=()):
    path = tmp_path / f"file-{len(list(tmp_path.iterdir()))}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return rollbook(url, "run", str(path), *flags)


def commands(url):
    return [e for e in json.loads(rollbook(url, "log", "-c", "bs", "--json").stdout) if e["type"] == "CommandApplied"]


@pytest.fixture
def store(tmp_path):
    url = f"sqlite:///{tmp_path / 'bs.db'}"
    with freeze_time(NOW):
        assert run(url, tmp_path, *SETUP).exit_code == 0
    return url


def move(at, character="Jack", **more):
    return {"type": "roll_move", "campaign": "bs", "character": character, "stat": "guile", "dice": [3, 4],
            "actor": f"player:{character.lower()}", "at": at, **more}


@freeze_time(NOW)
def test_a_line_dated_9999_is_refused_naming_its_line_and_field_and_nothing_of_it_is_written(store, tmp_path):
    before = commands(store)
    result = run(store, tmp_path, move("2026-03-02T20:00:00+00:00", id="ok"), move(FAR, id="far"))
    assert result.exit_code == 1
    assert "line 2 roll_move (id far): at: 9999-12-31T23:59:59+00:00 is more than a day past the clock" in result.stderr
    assert "--allow-future" in result.stderr
    ids = [e["data"]["command"]["id"] for e in commands(store)[len(before):]]
    assert ids == ["ok"]  # the line before it stays, as after any refusal; nothing of the refused line
    # The campaign is not blocked: the GM's next command, dated by the clock, applies.
    assert rollbook(store, "post", "take_damage", "character=Jack", "harm=1", "-c", "bs").exit_code == 0


@freeze_time(NOW)
def test_allow_future_takes_it_and_within_a_day_needs_nothing(store, tmp_path):
    assert run(store, tmp_path, move("2026-03-03T19:00:00+00:00", id="tomorrow")).exit_code == 0
    assert run(store, tmp_path, move("2026-03-04T19:00:00+00:00", id="later")).exit_code == 1
    assert run(store, tmp_path, move("2026-03-04T19:00:00+00:00", id="later"), flags=["--allow-future"]).exit_code == 0
    assert [e["data"]["command"]["id"] for e in commands(store)][-2:] == ["tomorrow", "later"]


@freeze_time(NOW)
def test_post_refuses_a_far_at_unless_allow_future(store):
    before = len(commands(store))
    refused = rollbook(store, "post", "roll_move", "character=Jack", "stat=guile", "dice=[3,4]", "--actor",
                       "player:jack", "--at", FAR, "-c", "bs")
    assert refused.exit_code == 1
    assert "roll_move: at: 9999-12-31T23:59:59+00:00 is more than a day past the clock" in refused.stderr
    assert len(commands(store)) == before
    taken = rollbook(store, "post", "roll_move", "character=Jack", "stat=guile", "dice=[3,4]", "--actor",
                     "player:jack", "--at", FAR, "-c", "bs", "--allow-future")
    assert taken.exit_code == 0, taken.output
    assert commands(store)[-1]["data"]["command"]["at"] == FAR


@freeze_time(NOW)
def test_allow_future_lets_no_player_act_for_another_players_character(store, tmp_path):
    before = len(commands(store))
    stolen = run(store, tmp_path, move(FAR, character="Jack", actor="player:mary", id="steal"), flags=["--allow-future"])
    assert stolen.exit_code == 1
    assert "character: player:mary cannot act for 'Jack', who belongs to player:jack" in stolen.stderr
    unflagged = rollbook(store, "post", "roll_move", "character=Jack", "stat=guile", "dice=[3,4]", "--actor",
                         "player:mary", "--at", FAR, "-c", "bs")
    assert unflagged.exit_code == 1 and "at:" in unflagged.stderr
    assert len(commands(store)) == before


def test_allow_future_is_refused_with_a_server():
    result = CliRunner().invoke(app, ["post", "start_chapter", "--allow-future", "-c", "bs",
                                      "--server", "http://127.0.0.1:9"])
    assert result.exit_code == 1 and "--allow-future applies to a local store" in result.stderr
