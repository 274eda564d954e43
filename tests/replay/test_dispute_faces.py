"""A ruling's faces are held to the roll's dice as typed faces are (issue 36, item 13).

Faces 9,9 for a 2d6 roll were accepted in a dry run: the disputed command was then merely
"no longer applied". Now the count and every face's range are checked against the roll
(`_check_faces`), and a roll whose die exploded is held to its very dice by re-executing it
with the faces (`_refused_faces`): a refusal names `faces`, and nothing is written.
"""

import json
import sqlite3

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

STATS = {"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}
PIRATES = [
    {"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"},
    {"type": "create_character", "campaign": "bs", "name": "Jack", "player": "jack", "stats": STATS, "luck": 1},
    {"type": "create_character", "campaign": "bs", "name": "Mary", "player": "mary", "stats": STATS, "luck": 1},
    {"type": "roll_move", "campaign": "bs", "id": "r1", "character": "Jack", "stat": "guile", "dice": [2, 3],
     "actor": "player:jack"},
    {"type": "roll_move", "campaign": "bs", "id": "r2", "character": "Mary", "stat": "guile", "dice": [4, 5],
     "actor": "player:mary"},
]
# Vera's shooting is a d4 and she rolls a wild d6: the d4 aces (4, then 1), the wild die shows 5.
IMPLANT = [
    {"type": "create_campaign", "campaign": "ip", "ruleset": "implant"},
    {"type": "create_character", "campaign": "ip", "name": "Vera", "player": "vera",
     "skills": {"fighting": "d4", "shooting": "d4", "driving": "d4", "healing": "d4", "research": "d4",
                "notice": "d6", "hacking": "d6", "cybernetics": "d6"}},
    {"type": "trait_check", "campaign": "ip", "id": "aced", "character": "Vera", "trait": "shooting",
     "dice": [4, 1, 5], "actor": "player:vera"},
]


def rollbook(url, *words):
    return CliRunner().invoke(app, ["-q", *words, "--store", url])


def rows(path):
    with sqlite3.connect(path) as db:
        return db.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]


@pytest.fixture
def stored(tmp_path):
    path = tmp_path / "d.db"
    url = f"sqlite:///{path}"
    lines = tmp_path / "lines.jsonl"
    lines.write_text("".join(json.dumps(c) + "\n" for c in (*PIRATES, *IMPLANT)))
    assert rollbook(url, "run", str(lines)).exit_code == 0
    return url, path


def dispute(url, campaign, roll, faces, *more):
    return rollbook(url, "dispute", roll, "-c", campaign, "--reason", "misread", "--actor", "auditor:kim",
                    "--faces", faces, *more)


@pytest.mark.parametrize("faces, problem", [
    ("9,9", "roll r1 rolled 2d6: face 1 is 9, impossible on a d6 (1..6)"),
    ("3,7", "roll r1 rolled 2d6: face 2 is 7, impossible on a d6 (1..6)"),
    ("0,3", "roll r1 rolled 2d6: face 1 is 0, impossible on a d6 (1..6)"),
    ("6", "roll r1 rolled 2 dice; --faces gives 1"),
    ("6,6,6", "roll r1 rolled 2 dice; --faces gives 3"),
])
@pytest.mark.parametrize("dry", [True, False])
def test_impossible_faces_for_a_2d6_roll_are_refused_naming_faces(stored, faces, problem, dry):
    url, path = stored
    before = rows(path)
    refused = dispute(url, "bs", "r1", faces, *(["--dry-run"] if dry else []))
    assert refused.exit_code == 1
    assert f"faces: {problem}" in refused.stderr
    assert rows(path) == before
    assert len(json.loads(rollbook(url, "revisions", "-c", "bs", "--json").stdout)) == 1


def test_possible_faces_are_ruled(stored):
    url, _ = stored
    assert dispute(url, "bs", "r1", "6,6").exit_code == 0
    assert {r["id"]: r["faces"] for r in json.loads(rollbook(url, "rolls", "-c", "bs", "--json").stdout)}["r1"] == [6, 6]


def test_an_aced_roll_is_held_to_its_very_dice_by_re_executing_it(stored):
    url, path = stored
    before = rows(path)
    # 5 fits the largest die the roll threw (the wild d6), but not the d4 it stands for.
    refused = dispute(url, "ip", "aced", "5,3", "--dry-run")
    assert refused.exit_code == 1
    assert "faces: roll aced cannot show the faces 5, 3: face 1 is 5, impossible on a d4 (1..4)" in refused.stderr
    too_high = dispute(url, "ip", "aced", "4,1,7")
    assert too_high.exit_code == 1 and "face 3 is 7, impossible on a d6 (1..6)" in too_high.stderr
    assert rows(path) == before
    # Fewer faces than were rolled, the d4 no longer acing: taken.
    assert dispute(url, "ip", "aced", "3,5").exit_code == 0


def test_a_player_cannot_rule_faces_on_another_players_roll(stored):
    url, path = stored
    before = rows(path)
    for faces in ("9,9", "6,6"):
        refused = rollbook(url, "dispute", "r2", "-c", "bs", "--reason", "mine now", "--actor", "player:jack",
                           "--faces", faces)
        assert refused.exit_code == 1 and "player:jack cannot dispute a roll" in refused.stderr
    taken_back = rollbook(url, "undo", "r2", "-c", "bs", "--reason", "not mine", "--actor", "player:jack")
    assert taken_back.exit_code == 1 and "player:jack may undo only his own commands" in taken_back.stderr
    assert rows(path) == before
