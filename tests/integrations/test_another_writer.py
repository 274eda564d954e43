"""The server decides, and the mirror tells, on every command another process stored before (issue 44, item 4).

The server's cached campaign did not know a character the CLI had just made: a post for him was refused
("no character named 'Wen'") and the mirror told him as "someone joins, played by bo". Here the other process is
a second store opened on the same SQLite file, as `rollbook run` opens it: nothing waits, nothing is timed."""

import json

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.store import Store

from .support import CHANNEL

WEN = {"type": "create_character", "campaign": "bs", "name": "Wen", "player": "bo", "luck": 1,
       "stats": {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}}


@pytest.fixture
def rollbook_store(tmp_path):
    """Another process needs a file to share: a SQLite store, whichever stores the run names."""
    return f"sqlite:///{tmp_path / 'shared.db'}"


def made_elsewhere(url, *commands):
    other = Store.open(url)
    try:
        report = run_file(Rollbook(other), "".join(json.dumps(c) + "\n" for c in commands).encode())
        assert report.error is None, report.error
    finally:
        other.close()


def test_a_character_the_cli_just_made_is_played_at_once_and_told_by_name(thread, rollbook_store):
    table = thread.table
    # The server's cache holds the campaign, as it stood before the other process wrote.
    assert table.post("bo", {"type": "roll_move", "character": "Bo", "stat": "guile"}, key="warm").status_code == 201
    made_elsewhere(rollbook_store, WEN)
    thread.mirror()  # before anything of this process has read the campaign again
    joined = [m for m in thread.fake.channel(CHANNEL) if "Wen" in m or "someone" in m]
    assert joined and "someone" not in joined[-1] and "Wen" in joined[-1], joined
    posted = table.post("bo", {"type": "roll_move", "character": "Wen", "stat": "guile"}, key="wen-1")
    assert posted.status_code == 201, posted.json()

def test_a_refusal_on_what_is_stored_is_still_a_refusal(thread, rollbook_store):
    table = thread.table
    assert table.post("bo", {"type": "roll_move", "character": "Bo", "stat": "guile"}, key="warm").status_code == 201
    made_elsewhere(rollbook_store, {**WEN, "name": "Lin"})
    refused = table.post("bo", {"type": "roll_move", "character": "Nobody", "stat": "guile"}, key="nobody")
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "character", refused.json()
