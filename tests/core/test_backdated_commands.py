"""A command dated before the campaign's last one is refused: `--at TIME` reads the record in order.

Given a pirate campaign whose last command happened at 19:10, when a command says it
happened at 19:05, then `rollbook run` exits 1 naming the campaign's last time and writes
nothing; a command at the same moment or later is applied.
"""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

# every test here runs `rollbook` in new processes (the fast tier starts none)
pytestmark = pytest.mark.slow


BASE = [
    {"type": "create_campaign", "campaign": "tortuga", "ruleset": "pirates", "at": "2026-03-02T19:00:00+00:00"},
    {"type": "create_character", "campaign": "tortuga", "name": "Anna", "luck": 1,
     "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "at": "2026-03-02T19:10:00+00:00"},
]


def rollbook(*args: str, url: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rollbook.cli", "-q", *args, "--store", url],
                          capture_output=True, text=True, input=stdin)


def hit(at: str) -> str:
    return json.dumps({"type": "take_damage", "campaign": "tortuga", "character": "Anna", "harm": 1, "at": at})


def test_a_backdated_command_is_refused_naming_the_campaigns_last_time(tmp_path: Path) -> None:
    database = tmp_path / "tortuga.db"
    url = f"sqlite:///{database}"
    assert rollbook("run", "-", url=url, stdin="\n".join(json.dumps(c) for c in BASE)).returncode == 0
    with sqlite3.connect(database) as db:
        before = db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]

    backdated = rollbook("run", "-", url=url, stdin=hit("2026-03-02T19:05:00Z"))

    assert backdated.returncode == 1
    said = " ".join(backdated.stderr.split())
    assert "line 1 take_damage" in said and "at: 2026-03-02T19:05:00+00:00 is earlier than the campaign's last " \
        "command (2026-03-02T19:10:00+00:00)" in said, said
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0] == before
    assert rollbook("run", "-", url=url, stdin=hit("2026-03-02T19:10:00Z")).returncode == 0
    assert rollbook("run", "-", url=url, stdin=hit("2026-03-02T19:11:00Z")).returncode == 0
    sheet = json.loads(rollbook("sheet", "Anna", "-c", "tortuga", "--json", url=url).stdout)
    assert sheet["wounds"]["light"] == 2
