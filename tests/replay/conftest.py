"""A small pirate campaign on a SQLite file, driven through the CLI, for the audit tests."""

import json
import subprocess
import sys

import pytest

HISTORY = [
    {"type": "create_campaign", "ruleset": "pirates", "title": "Audit", "at": "2026-03-01T20:00:00Z"},
    {"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
     "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "at": "2026-03-01T20:01:00Z"},
    {"type": "create_character", "name": "Bo", "player": "bo", "luck": 2,
     "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}, "at": "2026-03-01T20:02:00Z"},
    {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4,
     "at": "2026-03-01T20:03:00Z"},
    {"type": "start_chapter", "id": "ch1", "at": "2026-03-02T19:00:00Z"},
    {"type": "start_scene", "at": "2026-03-02T19:01:00Z"},
    {"type": "start_battle", "at": "2026-03-02T19:02:00Z"},
    {"type": "roll_move", "id": "r1", "character": "Anna", "stat": "audacity", "luck_bonus": True, "at": "2026-03-02T19:10:00Z"},
    {"type": "take_damage", "id": "h1", "character": "Anna", "harm": 1, "at": "2026-03-02T19:12:00Z"},
    {"type": "roll_move", "id": "r2", "character": "Anna", "stat": "guile", "dice": [6, 2], "at": "2026-03-02T19:20:00Z"},
    {"type": "spend_luck", "id": "help", "character": "Bo", "purpose": "help", "roll": "r2", "at": "2026-03-02T19:21:00Z"},
    {"type": "take_damage", "id": "h2", "character": "Anna", "harm": 1, "at": "2026-03-02T19:30:00Z"},
    {"type": "take_hole", "ship": "Chaika", "at": "2026-03-02T19:31:00Z"},
    {"type": "roll_move", "id": "r3", "character": "Bo", "stat": "guile", "at": "2026-03-02T19:40:00Z"},
    {"type": "end_chapter", "id": "ch1-end", "at": "2026-03-03T21:00:00Z"},
    {"type": "start_chapter", "at": "2026-03-04T19:00:00Z"},
    {"type": "roll_move", "id": "r4", "character": "Anna", "stat": "foresight", "at": "2026-03-04T19:10:00Z"},
]


def rollbook(*args, store, check=True):
    result = subprocess.run(
        [sys.executable, "-m", "rollbook.commands.cli", "-q", *args, "--store", store], capture_output=True, text=True
    )
    if check and result.returncode != 0:
        raise AssertionError(f"rollbook {' '.join(args)}: {result.stdout}{result.stderr}")
    return result


def read_json(*args, store):
    return json.loads(rollbook(*args, "--json", store=store).stdout)


class Cli:
    run = staticmethod(rollbook)
    json = staticmethod(read_json)


@pytest.fixture
def cli():
    """The `rollbook` command as a user runs it: cli.run(...) and cli.json(...)."""
    return Cli()


@pytest.fixture
def audited(tmp_path):
    """(store URL, db path) of a campaign `audit` built from HISTORY through `rollbook run`."""
    path = tmp_path / "audit.db"
    commands = tmp_path / "history.jsonl"
    commands.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY) + "\n")
    rollbook("run", str(commands), store=f"sqlite:///{path}")
    return f"sqlite:///{path}", path
