"""`rollbook odds` as a user runs it: FIELD=VALUE words, --json, --compare, a refusal's exit status."""

import json
import sqlite3
import subprocess
import sys

import pytest

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow

CREW = [
    {"type": "create_campaign", "campaign": "bs", "ruleset": "pirates", "title": "Black Sails"},
    {"type": "create_character", "campaign": "bs", "name": "Bo", "player": "bo",
     "stats": {"audacity": 1, "guile": 0, "foresight": 0, "reputation": 0}, "luck": 0},
]


def rollbook(*args, store):
    return subprocess.run(
        [sys.executable, "-m", "rollbook.cli", *args, "--store", store], capture_output=True, text=True
    )


@pytest.fixture
def store(tmp_path):
    (tmp_path / "crew.jsonl").write_text("\n".join(json.dumps(c) for c in CREW) + "\n")
    url = f"sqlite:///{tmp_path / 'bs.db'}"
    assert rollbook("-q", "run", str(tmp_path / "crew.jsonl"), store=url).returncode == 0
    return url


def stored(url):
    with sqlite3.connect(url.removeprefix("sqlite:///")) as db:
        return db.execute("SELECT originator_id, originator_version FROM stored_events").fetchall()


def test_odds_of_a_check_as_json_with_a_comparison(store):
    done = rollbook("odds", "roll_move", "character=Bo", "stat=audacity", "-c", "bs", "--json",
                    "--compare", "stat=guile", store=store)
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["fractions"] == {"full_success": "5/18", "partial_success": "4/9", "miss": "5/18"}
    assert shown["exact"] is True and set(shown["outcomes"]) == {"full_success", "partial_success", "miss"}
    assert shown["compare"]["fields"] == {"stat": "guile"}
    assert shown["compare"]["fractions"]["full_success"] == "1/6"


def test_a_refused_command_says_why_exits_1_and_writes_nothing(store):
    before = stored(store)
    done = rollbook("odds", "roll_move", "character=Bo", "stat=audacity", "luck_bonus=true", "-c", "bs", store=store)
    assert done.returncode == 1
    assert "Bo has 0 luck and cannot spend 1" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""
    assert stored(store) == before


def test_a_malformed_word_is_refused_by_position(store):
    done = rollbook("odds", "roll_move", "character=Bo", "audacity", "-c", "bs", store=store)
    assert done.returncode == 1 and "word 2" in done.stderr


def test_the_table_names_each_outcome(store):
    done = rollbook("odds", "roll_move", "character=Bo", "stat=audacity", "-c", "bs", store=store)
    assert done.returncode == 0, done.stderr
    assert "partial success" in done.stdout and "4/9" in done.stdout
