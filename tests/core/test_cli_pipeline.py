"""The whole pipeline as a user drives it: the installed `rollbook` command on a real SQLite file."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).parents[2] / "examples" / "pirates.jsonl"


def rollbook(*args, store, check=True, stdin=None):
    result = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", *args, "--store", store],
        capture_output=True, text=True, input=stdin,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"rollbook {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
    return result


def as_json(*args, store):
    return json.loads(rollbook(*args, "--json", store=store).stdout)


def stored_events(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT originator_id, originator_version, topic, state FROM stored_events").fetchall()


def projections(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT campaign, kind, key, doc FROM rollbook_views ORDER BY 1, 2, 3").fetchall()


@pytest.fixture
def store(tmp_path):
    return tmp_path / "campaign.db"


def test_run_then_read_every_verb(store):
    url = f"sqlite:///{store}"
    rollbook("run", str(EXAMPLE), store=url)
    anna = as_json("sheet", "Anna", "-c", "black-sails", store=url)
    assert anna["luck"] == 0 and anna["stats"]["audacity"] == 2
    chaika = as_json("ship", "Chaika", "-c", "black-sails", store=url)
    assert (chaika["hull"], chaika["navigation"], chaika["breakdown"]) == (3, 1, "torn_sails")
    rolls = as_json("rolls", "-c", "black-sails", store=url)
    assert rolls[0].keys() >= {"id", "actor", "character", "purpose", "faces", "modifiers", "total", "outcome"}
    assert [(r["id"], r["faces"], r["total"]) for r in rolls] == [("anna-1", [3, 4], 10), ("anna-2", [6, 2], 9)]
    timeline = as_json("timeline", "-c", "black-sails", store=url)
    assert [(e["label"], e["number"]) for e in timeline["timeline"]][:3] == [("chapter", 1), ("scene", 1), ("battle", 1)]
    assert all(e["end"] is not None for e in timeline["timeline"])
    limits = as_json("limits", "-c", "black-sails", store=url)
    assert {"limit": "luck_help_or_hinder", "holder": "Bo", "used": 1, "remaining": 0}.items() <= limits[1].items()
    log = as_json("log", "-c", "black-sails", store=url)
    assert [row["position"] for row in log] == sorted(row["position"] for row in log)
    assert log[0]["type"] == "Created" and log[0]["aggregate"] == "campaign"
    schema = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "schema"], capture_output=True, text=True, check=True
    )
    assert "roll_move" in json.dumps(json.loads(schema.stdout)["rulesets"]["pirates"])


def test_a_refused_line_stops_the_run_names_line_and_field_and_writes_nothing(store, tmp_path):
    url = f"sqlite:///{store}"
    rollbook("run", str(EXAMPLE), store=url)
    before_events, before_views = stored_events(store), projections(store)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type": "take_damage", "campaign": "black-sails", "character": "Bo", "harm": 1}\n'
        '{"type": "roll_move", "campaign": "black-sails", "character": "Anna", "stat": "cunning"}\n'
    )
    result = rollbook("run", str(bad), store=url, check=False)
    assert result.returncode == 1
    assert "line 2 roll_move: stat: Input should be 'audacity', 'guile', 'foresight' or 'reputation'" in result.stderr
    after = stored_events(store)
    assert after[: len(before_events)] == before_events
    new = [row for row in after[len(before_events):] if "Bo" in str(row[3]) or "Wounded" in row[2]]
    assert new, "line 1 stays applied"
    assert as_json("sheet", "Bo", "-c", "black-sails", store=url)["wounds"]["light"] == 1
    assert len(projections(store)) >= len(before_views)


def test_a_rule_refusal_writes_nothing(store, tmp_path):
    url = f"sqlite:///{store}"
    rollbook("run", str(EXAMPLE), store=url)
    before_events, before_views = stored_events(store), projections(store)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "take_breakdown", "campaign": "black-sails", "ship": "Chaika", "breakdown": "wet_powder"}\n')
    result = rollbook("run", str(bad), store=url, check=False)
    assert result.returncode == 1
    assert "line 1 take_breakdown" in result.stderr and "no battle is open" in result.stderr
    assert stored_events(store) == before_events
    assert projections(store) == before_views


def test_rerunning_a_file_skips_what_was_applied(store):
    url = f"sqlite:///{store}"
    rollbook("run", str(EXAMPLE), store=url)
    before = stored_events(store)
    result = rollbook("run", str(EXAMPLE), "--json", store=url)
    report = json.loads(result.stdout)
    assert report["applied"] == 0 and len(report["skipped"]) == len(EXAMPLE.read_text().splitlines())
    assert stored_events(store) == before


def test_rebuild_gives_the_identical_projections(store):
    url = f"sqlite:///{store}"
    rollbook("run", str(EXAMPLE), store=url)
    live = projections(store)
    rollbook("rebuild", store=url)
    assert projections(store) == live


def test_standard_input_and_campaign_option(store):
    url = f"sqlite:///{store}"
    rollbook("run", "-", "--campaign", "c1", store=url, stdin=(
        '{"type": "create_campaign", "ruleset": "pirates"}\n'
        '{"type": "create_character", "name": "Ann", "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}, "luck": 0}\n'
    ))
    assert as_json("sheet", "Ann", "-c", "c1", store=url)["luck"] == 0


def test_demo_builds_and_prints_every_sheet(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "demo", "--store", f"sqlite:///{tmp_path / 'demo.db'}", "--json"],
        capture_output=True, text=True, check=True,
    )
    sheets = json.loads(result.stdout)
    assert "Anna" in sheets["black-sails"]
