"""Crash safety: `rollbook run` killed with SIGKILL at random moments, then run again.

After every kill the SQLite file holds exactly the commands committed before it, each
whole (every `CommandApplied` lists writes that all exist, and no event is outside one),
in the order of the file; the projections, caught up, equal a rebuild from the events.
Running the same file again carries on where the killed run stopped: in the end every
command of the file is applied once, none twice, and `rollbook verify` passes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rollbook.projections.projector import Projector
from rollbook.store.views import MemoryViews
from rollbook.projections.queries import Reader
from rollbook.store import Store

from .support import CAMPAIGN, audit, cli, file_ids, long_pirate_file

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
# Kills and races at chosen moments: one after another on one worker under xdist (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("timing")]

KILLS = 32
MOVES = 200  # about 300 commands


def projections_match_a_rebuild(url: str) -> None:
    store = Store.open(url)
    try:
        reader = Reader(store)
        reader.catch_up()
        rebuilt = MemoryViews()
        Projector(store.app, rebuilt).catch_up()
        for kind in ("sheet", "campaign", "limits", "roll", "timeline", "command"):
            assert reader.views.all(CAMPAIGN, kind) == rebuilt.all(CAMPAIGN, kind), kind
    finally:
        store.close()


def run_until_killed(commands: Path, url: str, rng: random.Random, *, kill: bool = True) -> bool:
    """Run the file and kill the run at a random moment (unless `kill` is false); was it killed?

    Three times in four the moment is counted in commands — after the k-th command the run
    reports applied, plus up to 30 ms, so mostly inside the next command's transaction —
    else in time from the start (while it starts, or catches up the projections at the end).
    """
    run = subprocess.Popen(
        [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "run", str(commands), "--store", url],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    wanted = rng.randint(1, 25) if kill and rng.random() < 0.75 else None
    reached, lines = threading.Event(), []

    def read() -> None:  # keeps the pipe drained, so the run never waits on its own log
        assert run.stderr is not None
        applied = 0
        for line in run.stderr:
            lines.append(line)
            applied += '"command.applied"' in line
            if applied == wanted:
                reached.set()
        reached.set()

    reader = threading.Thread(target=read)
    reader.start()
    if wanted is not None:
        reached.wait()
        time.sleep(rng.uniform(0, 0.03))
    elif kill:
        time.sleep(rng.uniform(0.05, 3.0))
    killed = kill and run.poll() is None
    if killed:
        run.kill()  # SIGKILL: no cleanup, no rollback by the process itself
    run.wait()
    reader.join()
    assert killed or run.returncode == 0, "".join(lines[-5:])
    return killed


def a_long_file(tmp_path: Path) -> tuple[int, random.Random, Path, list[str]]:
    """The long pirate file both crash tests kill a run of, its seed (ROLLBOOK_CRASH_SEED replays one), and
    its commands' ids in order."""
    seed = int(os.environ.get("ROLLBOOK_CRASH_SEED", time.time_ns() % 10**6))
    text = long_pirate_file(MOVES)
    commands = tmp_path / "long.jsonl"
    commands.write_text(text)
    return seed, random.Random(seed), commands, file_ids(text, commands)


@pytest.mark.slow
def test_sigkill_at_random_moments_leaves_whole_commands_and_reruns_finish_the_file(tmp_path: Path) -> None:
    seed, rng, commands, ids = a_long_file(tmp_path)

    kills, interrupted, rounds = 0, 0, 0
    while kills < KILLS:
        rounds += 1
        url = f"sqlite:///{tmp_path / f'crash-{rounds}.db'}"
        applied: list[str] = []
        while run_until_killed(commands, url, rng, kill=kills < KILLS):
            kills += 1
            before = len(applied)
            applied = audit(url)
            assert applied == ids[: len(applied)], f"seed {seed}: not a prefix of the file after kill {kills}"
            assert len(applied) >= before, f"seed {seed}: a kill lost committed commands"
            interrupted += before < len(applied) < len(ids)
            if kills % 8 == 0:
                projections_match_a_rebuild(url)
        # This round's file is complete: each command once, none twice, the history verifies.
        assert audit(url) == ids, f"seed {seed}"
        again = cli("-q", "run", str(commands), store=url)
        assert again.returncode == 0 and f"applied 0 commands, skipped {len(ids)}" in again.stdout
        verified = cli("verify", "-c", CAMPAIGN, store=url)
        assert verified.returncode == 0, verified.stdout + verified.stderr
        projections_match_a_rebuild(url)
    print(f"\ncrash safety: {kills} SIGKILLs ({interrupted} in the middle of the file), "
          f"{rounds} complete runs of {len(ids)} commands, seed {seed}")


GROUP = 50


def run_grouped_until_killed(commands: Path, url: str, rng: random.Random, *, stored: int | None) -> tuple[bool, int]:
    """`run --group-commit GROUP` on a store holding `stored` lines of the file, killed once it has
    logged one or two groups past those as stored (plus up to 30 ms, so often inside the next
    group), unless `stored` is None; was it killed, and how many lines did it log as stored?"""
    run = subprocess.Popen(
        [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "run", str(commands),
         "--store", url, "--group-commit", str(GROUP)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    kill = stored is not None
    wanted = stored // GROUP + rng.randint(1, 2) if stored is not None else None
    reached, committed = threading.Event(), []

    def read() -> None:  # keeps the pipe drained, so the run never waits on its own log
        assert run.stderr is not None
        for line in run.stderr:
            if '"group.committed"' in line:
                committed.append(json.loads(line)["commands"])
                if len(committed) == wanted:
                    reached.set()
        reached.set()

    reader = threading.Thread(target=read)
    reader.start()
    if kill:
        reached.wait()
        time.sleep(rng.uniform(0, 0.03))
    killed = kill and run.poll() is None
    if killed:
        run.kill()  # SIGKILL: the open group's transaction is never committed
    run.wait()
    reader.join()
    assert killed or run.returncode == 0
    return killed, sum(committed)


@pytest.mark.slow
def test_sigkill_during_group_commit_loses_at_most_the_open_group_and_a_rerun_completes_the_file(
    tmp_path: Path,
) -> None:
    seed, rng, commands, ids = a_long_file(tmp_path)
    url = f"sqlite:///{tmp_path / 'grouped.db'}"
    assert len(ids) > 4 * GROUP, "the file must span several groups"

    applied: list[str] = []
    interrupted = 0
    for kill in range(8):
        killed, logged = run_grouped_until_killed(commands, url, rng, stored=len(applied))
        before, applied = len(applied), audit(url)
        assert applied == ids[: len(applied)], f"seed {seed}: not a prefix of the file after kill {kill}"
        assert len(applied) >= max(before, logged), f"seed {seed}: a kill lost a group logged as stored"
        interrupted += killed and len(applied) < len(ids)
        assert len(applied) % GROUP == 0 or len(applied) == len(ids), f"seed {seed}: part of a group is stored"
    run_grouped_until_killed(commands, url, rng, stored=None)
    assert audit(url) == ids, f"seed {seed}"
    assert interrupted, f"seed {seed}: no kill stopped the run before the end of the file"
    again = cli("-q", "run", str(commands), "--group-commit", str(GROUP), store=url)
    assert again.returncode == 0 and f"applied 0 commands, skipped {len(ids)}" in again.stdout
    verified = cli("verify", "-c", CAMPAIGN, store=url)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    projections_match_a_rebuild(url)
