"""Reads that break (issue 15): a `|` in a name, one aggregate that cannot be shown. Through the CLI as a user
meets them."""

from __future__ import annotations

import pytest

import json
import subprocess
import sys
from pathlib import Path

from rollbook.commands.service import Rollbook
from rollbook.domain.rulesets.pirates.pirate import Pirate
from rollbook.projections.queries import Reader
from rollbook.store import Store


def cli(*args: str, store: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "rollbook.cli", *args, "--store", store],
                          capture_output=True, text=True, input=stdin)


def lines(*commands: dict) -> str:
    return "".join(json.dumps(c) + "\n" for c in commands)


STATS = {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}


def _crew(campaign: str, helper: str) -> str:
    return lines(
        {"type": "create_campaign", "campaign": campaign, "ruleset": "pirates"},
        {"type": "create_character", "campaign": campaign, "name": "Anna", "luck": 1, "stats": STATS},
        {"type": "create_character", "campaign": campaign, "name": helper, "luck": 2, "stats": STATS},
        {"type": "start_chapter", "campaign": campaign},
        {"type": "roll_move", "campaign": campaign, "id": "r1", "character": "Anna", "stat": "guile", "dice": [3, 4]},
        {"type": "spend_luck", "campaign": campaign, "character": helper, "purpose": "help", "roll": "r1"},
    )


@pytest.mark.slow
def test_a_pipe_in_a_name_breaks_no_read(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'c.db'}"
    assert cli("-q", "run", "-", store=store, stdin=_crew("other", "Cid") + _crew("c", "Bo|Red")).returncode == 0
    again = cli("-q", "run", "-", store=store, stdin=lines({"type": "end_chapter", "campaign": "other"}))
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    limits = json.loads(cli("limits", "-c", "c", "--json", store=store).stdout)
    assert any(row["holder"] == "Bo|Red" and row["used"] == 1 for row in limits)
    assert json.loads(cli("sheet", "Bo|Red", "-c", "c", "--json", store=store).stdout)["luck"] == 1
    assert json.loads(cli("sheet", "Cid", "-c", "other", "--json", store=store).stdout)["luck"] == 1


def test_an_aggregate_that_cannot_be_shown_is_named_and_the_rest_are_shown(monkeypatch) -> None:
    store = Store.open("memory://")
    service = Rollbook(store)
    from rollbook.commands.lines import read_lines
    from rollbook.commands.parse import parse_command

    for line in read_lines(_crew("c", "Bo").encode()):
        service.execute(parse_command(line.data, ruleset_of=service.ruleset_of))
    shown = Pirate.sheet

    def sheet(self: Pirate) -> dict:
        if self.name == "Bo":
            raise ValueError("a sheet this ruleset cannot draw")
        return shown(self)

    monkeypatch.setattr(Pirate, "sheet", sheet)
    reader = Reader(store)
    reader.catch_up()
    assert reader.projector.failures == [
        "character 'Bo' of c could not be shown: ValueError: a sheet this ruleset cannot draw"
    ]
    assert reader.sheet("c", "Anna")[1]["luck"] == 1 and reader.campaign("c")["commands"] == 6


@pytest.mark.slow
def test_timeline_json_names_the_revision_it_shows(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path / 'c.db'}"
    assert cli("-q", "run", "-", store=store, stdin=_crew("c", "Bo")).returncode == 0
    ruled = cli("dispute", "r1", "-c", "c", "--reason", "misread", "--faces", "6,6", store=store)
    assert ruled.returncode == 0, ruled.stderr
    current = json.loads(cli("timeline", "-c", "c", "--json", store=store).stdout)
    first = json.loads(cli("timeline", "-c", "c", "--revision", "1", "--json", store=store).stdout)
    assert (current["revision"], current["current_revision"]) == (2, 2)
    assert (first["revision"], first["current_revision"]) == (1, 2)
