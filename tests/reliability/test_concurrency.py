"""Several processes writing to one campaign at once, on SQLite and on PostgreSQL.

Every command ends by appending to its campaign, so two writers that decided on the same
state collide on the campaign's version (the library's optimistic concurrency); the loser
forgets what it read and decides again on the fresh state. So every command is applied
exactly once, a command id sent by several writers is applied by one and skipped by the
others, and a once-only limit raced for by every writer is won by exactly one.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.store import Store

from .support import CAMPAIGN, PIRATE_BASE, audit, json_lines, kinds, lines_of

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
# Kills and races at chosen moments: one after another on one worker under xdist (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("timing")]

WRITERS = 4
RACER = Path(__file__).with_name("racer.py")
#: The heroes' rooftop battle (examples/heroes.jsonl) up to its Defining Moment, written out here.
HEROES_BASE: list[str] = [
    '{"id": "heroes-01", "type": "create_campaign", "campaign": "null-hour", "ruleset": "heroes", "title": "We Can Be Heroes: Null Hour", "trait_limit": 8, "at": "2026-04-01T19:17:00+00:00"}',
    '{"id": "heroes-02", "type": "create_character", "campaign": "null-hour", "name": "Spark", "player": "ann", "role": "hero", "abilities": {"strength": 4, "agility": 5, "stamina": 5, "intellect": 3, "perception": 4, "will": 3}, "powers": {"Energy Blast": {"rank": 7, "uses": ["attack"], "lethal": true}}, "perks": ["Lab access"], "flaws": ["Hot-headed"], "motivation": "Protect the city that raised him", "at": "2026-04-01T19:34:00+00:00"}',
    '{"id": "heroes-03", "type": "create_character", "campaign": "null-hour", "name": "Tempest", "player": "ben", "role": "hero", "abilities": {"strength": 3, "agility": 4, "stamina": 4, "intellect": 4, "perception": 5, "will": 5}, "powers": {"Wind Gust": {"rank": 6, "uses": ["attack", "affect"], "lethal": false, "effect": "stunned"}, "Flight": {"rank": 6, "uses": ["movement"]}}, "talents": {"Leadership": 4}, "flaws": ["Reckless with others\' secrets"], "at": "2026-04-01T19:51:00+00:00"}',
    '{"id": "heroes-04", "type": "create_character", "campaign": "null-hour", "name": "Doctor Null", "role": "villain", "abilities": {"strength": 4, "agility": 3, "stamina": 6, "intellect": 7, "perception": 4, "will": 6}, "powers": {"Null Ray": {"rank": 6, "uses": ["attack"]}, "Force Field": {"rank": 5, "uses": ["defence"], "passive": true}}, "flaws": ["Monologues"], "at": "2026-04-01T20:08:00+00:00"}',
    '{"id": "heroes-05", "type": "create_character", "campaign": "null-hour", "name": "Null Drones", "role": "minion", "danger_rank": 3, "count": 3, "at": "2026-04-01T20:25:00+00:00"}',
    '{"id": "heroes-06", "type": "start_story", "campaign": "null-hour", "title": "Null Hour", "at": "2026-04-01T20:42:00+00:00"}',
    '{"id": "heroes-07", "type": "start_issue", "campaign": "null-hour", "title": "#1: Lights Out", "at": "2026-04-01T20:59:00+00:00"}',
    '{"id": "heroes-08", "type": "start_scene", "campaign": "null-hour", "title": "The rooftop of the power plant", "enemy": "Doctor Null", "at": "2026-04-01T21:16:00+00:00"}',
    '{"id": "heroes-09", "type": "start_battle", "campaign": "null-hour", "title": "Rooftop brawl", "at": "2026-04-01T21:33:00+00:00"}',
    '{"id": "heroes-10", "type": "next_page", "campaign": "null-hour", "at": "2026-04-01T21:50:00+00:00"}',
    '{"id": "heroes-11", "type": "attack", "campaign": "null-hour", "attacker": "Doctor Null", "target": "Spark", "trait": "Null Ray", "dice": [6, 4, 2, 1, 3, 5, 2, 1, 3, 5, 5], "at": "2026-04-01T22:07:00+00:00"}',
    '{"id": "heroes-12", "type": "spend_resolve", "campaign": "null-hour", "actor": "player:ann", "character": "Spark", "purpose": "dice", "dice": [4], "at": "2026-04-01T22:24:00+00:00"}',
    '{"id": "heroes-13", "type": "attack", "campaign": "null-hour", "actor": "player:ann", "attacker": "Spark", "target": "Null Drones", "trait": "Energy Blast", "dice": [2, 2, 4, 1, 3, 5, 6, 1, 3, 2], "at": "2026-04-01T22:41:00+00:00"}',
    '{"id": "heroes-14", "type": "attack", "campaign": "null-hour", "actor": "player:ben", "attacker": "Tempest", "target": "Doctor Null", "trait": "Wind Gust", "dice": [6, 2, 1, 1, 3, 5, 2, 1, 1, 3, 5, 5], "at": "2026-04-01T22:58:00+00:00"}',
    '{"id": "heroes-15", "type": "attack", "campaign": "null-hour", "attacker": "Null Drones", "target": "Tempest", "trait": "strength", "dice": [2, 1, 1, 2, 3, 1, 5], "at": "2026-04-01T23:15:00+00:00"}',
    '{"id": "heroes-16", "type": "next_page", "campaign": "null-hour", "at": "2026-04-01T23:32:00+00:00"}',
]


@dataclass
class Writer:
    results: list[dict[str, Any]]
    logs: list[dict[str, Any]]


def set_up(url: str, lines: list[str]) -> None:
    store = Store.open(url)
    try:
        report = run_file(Rollbook(store), "\n".join(lines).encode())
        assert report.error is None, report.error
    finally:
        store.close()


def race(url: str, files: list[list[dict[str, Any]]], tmp_path: Path) -> list[Writer]:
    """One process per file; once all have read their commands, they begin at the same moment."""
    go = tmp_path / "go"
    processes, ready = [], []
    for n, commands in enumerate(files):
        path = tmp_path / f"writer-{n}.jsonl"
        path.write_text(lines_of(commands))
        ready.append(tmp_path / f"ready-{n}")
        processes.append(subprocess.Popen(
            [sys.executable, str(RACER), url, str(path), str(ready[-1]), str(go)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        ))
    deadline = time.time() + 120
    while not all(r.exists() for r in ready):
        for process in processes:
            if process.poll() is not None:
                raise AssertionError(f"a writer ended before the start: {process.communicate()[1][-3000:]}")
        assert time.time() < deadline, "the writers did not get ready in time"
        time.sleep(0.01)
    staged = tmp_path / "go.tmp"
    staged.write_text(str(time.time() + 0.3))
    staged.rename(go)
    writers = []
    for process in processes:
        out, err = process.communicate(timeout=180)
        assert process.returncode == 0, err[-3000:]
        writers.append(Writer(json.loads(out), json_lines(err)))
    return writers


@pytest.mark.slow
def test_writers_at_once_apply_every_command_exactly_once(durable_store: str, tmp_path: Path) -> None:
    set_up(durable_store, PIRATE_BASE)
    moves = 25
    shared = [{"type": "roll_move", "campaign": CAMPAIGN, "id": f"shared-{n}", "character": "Bo", "stat": "guile",
               "dice": [2, 5]} for n in range(5)]
    files = [
        [{"type": "roll_move", "campaign": CAMPAIGN, "id": f"w{w}-{n}", "character": ("Anna", "Bo")[n % 2],
          "stat": "audacity", "dice": [1 + (n + w) % 6, 1 + n % 6]} for n in range(moves)] + shared
        for w in range(WRITERS)
    ]
    writers = race(durable_store, files, tmp_path)

    everything = {c["id"] for f in files for c in f}
    recorded = audit(durable_store)
    missing = {c: [(n, r) for n, w in enumerate(writers) for r in w.results if r["id"] == c] for c in everything - set(recorded)}
    assert not missing, missing
    assert len(recorded) == 7 + len(everything)
    for writer, commands in zip(writers, files, strict=True):
        assert [r["id"] for r in writer.results] == [c["id"] for c in commands]  # each in its own order
        assert all(r["status"] in ("applied", "skipped") for r in writer.results), writer.results
    for command in shared:
        statuses = [r["status"] for w in writers for r in w.results if r["id"] == command["id"]]
        assert sorted(statuses) == ["applied"] + ["skipped"] * (WRITERS - 1), (command["id"], statuses)

    retries = [line for w in writers for line in kinds(w.logs, "command.retry")]
    assert len(retries) >= WRITERS - 1  # everyone but the first read a campaign the first changed
    assert all(line["command_id"] and line["reason"] for line in retries)
    most = max((line["attempt"] for line in retries), default=0) + 1
    print(f"\n{WRITERS} writers, {len(everything)} distinct commands ({len(shared)} sent by all): "
          f"{len(retries)} retries on conflicts (at most {most} attempts for one command), each applied once")


#: Once-only limits raced for by every writer: (name, setup lines, the command writer n sends, exactly one wins).
RACES: list[tuple[str, list[str], Any]] = [
    (
        "pirates: the +1 for luck on one roll, once per move (L45)",
        [*PIRATE_BASE,
         json.dumps({"type": "roll_move", "campaign": CAMPAIGN, "id": "r1",
                     "character": "Bo", "stat": "guile", "dice": [3, 3]})],
        lambda n: {"type": "spend_luck", "campaign": CAMPAIGN, "id": f"bonus-{n}", "character": "Bo",
                   "purpose": "roll_bonus", "roll": "r1"},
    ),
    (
        "pirates: a breakdown instead of a hole, once per battle (L140)",
        PIRATE_BASE,
        lambda n: {"type": "take_breakdown", "campaign": CAMPAIGN, "id": f"breakdown-{n}", "ship": "Chaika",
                   "breakdown": ("torn_sails", "wrecked_deck", "wet_powder")[n % 3]},
    ),
    (
        "heroes: one Defining Moment per scene, declared by racing game masters (L79)",
        HEROES_BASE,
        lambda n: {"type": "declare_defining_moment", "campaign": "null-hour", "id": f"moment-{n}",
                   "character": ("Spark", "Tempest")[n % 2], "effort": "physical"},
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, setup, racing", RACES, ids=[r[0].split(":")[0] + str(i) for i, r in enumerate(RACES)])
def test_a_once_only_limit_raced_for_by_every_writer_is_won_once(
    durable_store: str, tmp_path: Path, name: str, setup: list[str], racing: Any
) -> None:
    set_up(durable_store, setup)
    writers = race(durable_store, [[racing(n)] for n in range(WRITERS)], tmp_path)
    outcomes = [w.results[0] for w in writers]
    winners = [o for o in outcomes if o["status"] == "applied"]
    assert len(winners) == 1, outcomes
    assert all(o["status"] == "refused" for o in outcomes if o is not winners[0]), outcomes
    recorded = audit(durable_store)
    assert winners[0]["id"] in recorded and sum(o["id"] in recorded for o in outcomes) == 1
    refusals = [line for w in writers for line in kinds(w.logs, "command.refused")]
    assert len(refusals) == WRITERS - 1 and all(r["command_id"] and r["reason"] for r in refusals)
