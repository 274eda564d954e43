"""A command is never lost to a repeated id: through `rollbook run`, as a game master meets it.

Given a pirate campaign in a SQLite file, when the same line reaches the store twice, then
it is a new command unless it is the same file run again (a rerun after a crash), and a
skip always says which line it skipped and which recorded command it matches. An id given
again with a different command is refused, naming the id, where it was recorded and what
differs, and writes nothing.
"""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow

BASE = [
    {"type": "create_campaign", "campaign": "tortuga", "ruleset": "pirates", "at": "2026-03-01T20:00:00+00:00"},
    {"type": "create_character", "campaign": "tortuga", "name": "Anna", "player": "anna", "luck": 1,
     "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "at": "2026-03-01T20:01:00+00:00"},
]
HIT = '{"type": "take_damage", "campaign": "tortuga", "character": "Anna", "harm": 1}\n'


def rollbook(*args: str, url: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "-q", *args, "--store", url],
        capture_output=True, text=True, input=stdin,
    )


def light_wounds(url: str) -> int:
    sheet = rollbook("sheet", "Anna", "-c", "tortuga", "--json", url=url)
    return json.loads(sheet.stdout)["wounds"]["light"]


def stored_rows(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


@pytest.fixture
def url(tmp_path: Path) -> str:
    base = tmp_path / "base.jsonl"
    base.write_text("".join(json.dumps(c) + "\n" for c in BASE))
    url = f"sqlite:///{tmp_path / 'tortuga.db'}"
    assert rollbook("run", str(base), url=url).returncode == 0
    return url


def test_the_same_line_piped_twice_is_two_commands(url: str) -> None:
    first = rollbook("run", "-", url=url, stdin=HIT)
    second = rollbook("run", "-", url=url, stdin=HIT)
    assert first.returncode == second.returncode == 0, second.stdout + second.stderr
    assert second.stdout.splitlines()[-1] == "applied 1 command"
    assert light_wounds(url) == 2


def test_the_same_line_in_another_file_is_a_new_command(tmp_path: Path, url: str) -> None:
    (tmp_path / "turn-1.jsonl").write_text(HIT)
    (tmp_path / "turn-2.jsonl").write_text(HIT)
    assert rollbook("run", str(tmp_path / "turn-1.jsonl"), url=url).returncode == 0
    again = rollbook("run", str(tmp_path / "turn-2.jsonl"), url=url)
    assert again.stdout.splitlines()[-1] == "applied 1 command", again.stdout + again.stderr
    assert light_wounds(url) == 2


def test_rerunning_the_same_file_skips_it_and_says_which_recorded_command_each_line_matches(
    tmp_path: Path, url: str
) -> None:
    turn = tmp_path / "turn.jsonl"
    turn.write_text('{"type": "take_damage", "campaign": "tortuga", "character": "Anna", "harm": 1, '
                    '"at": "2026-03-02T19:10:00+00:00"}\n')
    assert rollbook("run", str(turn), url=url).returncode == 0
    log = json.loads(rollbook("log", "-c", "tortuga", "--json", url=url).stdout)
    position = log[-1]["position"]  # the take_damage's CommandApplied
    rerun = rollbook("run", str(turn), url=url)
    assert rerun.returncode == 0
    assert (f"line 1: take_damage (id auto-" in rerun.stdout
            and f"skipped: already recorded as command 3, position {position}, at 2026-03-02T19:10:00+00:00"
            in rerun.stdout), rerun.stdout
    report = json.loads(rollbook("run", str(turn), "--json", url=url).stdout)
    assert report["skips"] == [{"line": 1, "id": report["skipped"][0], "type": "take_damage", "seq": 3,
                                "position": position, "at": "2026-03-02T19:10:00+00:00"}]
    assert light_wounds(url) == 1


def test_a_recorded_id_with_a_different_command_is_refused_naming_it_and_what_differs(
    tmp_path: Path, url: str
) -> None:
    posted = {"type": "take_damage", "campaign": "tortuga", "id": "hit-1", "character": "Anna", "harm": 1}
    rollbook("run", "-", url=url, stdin=json.dumps(posted))
    before = stored_rows(tmp_path / "tortuga.db")
    edited = rollbook("run", "-", url=url, stdin=json.dumps({**posted, "harm": 2}))
    assert edited.returncode == 1
    said = " ".join(edited.stderr.split())
    assert "line 1 take_damage (id hit-1): id: id 'hit-1' is already recorded as command 3 of tortuga" in said, said
    assert "(position " in said and "harm: recorded 1, given 2" in said
    assert stored_rows(tmp_path / "tortuga.db") == before and light_wounds(url) == 1
    rerun = rollbook("run", "-", url=url, stdin=json.dumps(posted))
    assert rerun.returncode == 0 and "line 1: take_damage (id hit-1) skipped" in rerun.stdout
    assert stored_rows(tmp_path / "tortuga.db") == before
