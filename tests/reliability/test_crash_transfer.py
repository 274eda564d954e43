"""Crash safety of `rollbook import` and `rollbook dispute`: SIGKILL at random moments, then again.

Import: after a kill the target holds nothing of the campaign, or a fragment that
`rollbook verify` refuses to pass as whole (the import's record says it is unfinished);
the same import run again finishes the copy, which verifies and ends at the export's head.

Dispute: after a kill the campaign holds the ruling and its whole revision, or neither —
never a revision without its ruling, nor a ruling whose revision holds other faces; the
same dispute run again makes the ruling once.

Each test prints its figures: kills, partial copies (and how many of them verify passed:
the target is zero), contradictory revisions (the target is zero).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from rollbook.domain.ids import campaign_id
from rollbook.store import Store
from rollbook.testing.plugin import postgres_schema

from .support import CAMPAIGN, cli, long_pirate_file

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
# Kills and races at chosen moments: one after another on one worker under xdist (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("timing")]

KILLS = 8
MOVES = 60  # about 100 commands


@contextmanager
def fresh_store(kind: str, folder: Path, name: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'{name}.db'}"
    else:
        with postgres_schema() as url:
            yield url


def exported(tmp_path: Path) -> Path:
    """The export of a campaign of about 100 commands with one ruling on it."""
    commands = tmp_path / "long.jsonl"
    commands.write_text(long_pirate_file(MOVES))
    source = f"sqlite:///{tmp_path / 'source.db'}"
    assert cli("-q", "run", str(commands), store=source).returncode == 0
    ruled = cli("-q", "dispute", "m1", "-c", CAMPAIGN, "--reason", "fell off", "--faces", "6,6", store=source)
    assert ruled.returncode == 0, ruled.stderr
    path = tmp_path / "export.jsonl"
    path.write_text(cli("export", "-c", CAMPAIGN, store=source).stdout)
    return path


def killed(args: list[str], url: str, after: float) -> bool:
    """Run `rollbook ARGS --store URL` and SIGKILL it `after` seconds in; was it still running?"""
    run = subprocess.Popen([sys.executable, "-m", "rollbook.cli", "-q", *args, "--store", url],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        run.wait(timeout=after)
    except subprocess.TimeoutExpired:
        run.kill()  # SIGKILL: no cleanup, no rollback by the process itself
        run.wait()
        return True
    assert run.returncode == 0, run.stderr.read() if run.stderr else ""
    return False


def timed(args: list[str], url: str) -> float:
    started = time.perf_counter()
    done = cli("-q", *args, store=url)
    assert done.returncode == 0, done.stderr
    return time.perf_counter() - started


def campaign_present(url: str) -> bool:
    store = Store.open(url)
    try:
        return bool(store.app.recorder.select_events(campaign_id(CAMPAIGN), limit=1))
    finally:
        store.close()


@dataclass
class Killing:
    """What both kill tests start from: the store kind, the seed of the kill times, and the export."""

    kind: str
    seed: int
    rng: random.Random
    export: Path


@pytest.fixture(params=["sqlite", "postgres"])
def killing(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Killing:
    kind = request.param
    if kind == "postgres" and "postgres" not in request.config.getoption("--rollbook-stores"):
        pytest.skip("postgres is not among --rollbook-stores")
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    seed = int(os.environ.get("ROLLBOOK_CRASH_SEED", time.time_ns() % 10**6))
    return Killing(kind, seed, random.Random(seed), exported(tmp_path))


@pytest.mark.slow
def test_a_killed_import_leaves_nothing_or_a_fragment_verify_refuses_and_a_rerun_finishes_it(
    killing: Killing, tmp_path: Path
) -> None:
    kind, seed, rng, export = killing.kind, killing.seed, killing.rng, killing.export
    trailer = json.loads(export.read_text().splitlines()[-1])
    importing = ["import", str(export), "--batch-size", "5"]
    with fresh_store(kind, tmp_path, "timing") as url:
        duration = timed(importing, url)

    kills = partial = passed = finished = 0
    for round_ in range(KILLS):
        with fresh_store(kind, tmp_path, f"import-{round_}") as url:
            if not killed(importing, url, rng.uniform(0.2, duration)):
                continue
            kills += 1
            whole = False
            if campaign_present(url):
                verified = cli("verify", "-c", CAMPAIGN, store=url)
                whole = json.loads(cli("export", "-c", CAMPAIGN, store=url).stdout.splitlines()[-1]) == trailer \
                    and "unfinished" not in verified.stdout
                partial += not whole
                passed += not whole and verified.returncode == 0
            again = cli("-q", *importing, store=url)
            finished += whole
            if whole:  # killed after the import finished (catching up, exiting): a whole copy is not copied twice
                assert again.returncode == 1 and "already exists" in again.stderr, f"seed {seed}: {again.stderr}"
            else:
                assert again.returncode == 0, f"seed {seed}: {again.stderr}"
            verified = cli("verify", "-c", CAMPAIGN, store=url)
            assert verified.returncode == 0, f"seed {seed}: {verified.stdout}{verified.stderr}"
            assert json.loads(cli("export", "-c", CAMPAIGN, store=url).stdout.splitlines()[-1]) == trailer
    print(f"\nimport ({kind}): {kills} SIGKILLs, {partial} partial copies, {passed} of them passed verify, "
          f"every rerun finished the copy ({finished} killed after finishing, whole); seed {seed}")
    assert passed == 0


@pytest.mark.slow
def test_a_killed_dispute_leaves_its_ruling_and_revision_together_or_neither(
    killing: Killing, tmp_path: Path
) -> None:
    kind, seed, rng, export = killing.kind, killing.seed, killing.rng, killing.export
    ruling = ["dispute", "m3", "-c", CAMPAIGN, "--reason", "the GM misread", "--faces", "1,1"]
    with fresh_store(kind, tmp_path, "timing") as url:
        assert cli("-q", "import", str(export), store=url).returncode == 0
        duration = timed(ruling, url)

    kills = contradictions = 0
    for round_ in range(KILLS):
        with fresh_store(kind, tmp_path, f"dispute-{round_}") as url:
            assert cli("-q", "import", str(export), store=url).returncode == 0
            if not killed(ruling, url, rng.uniform(0.2, duration)):
                continue
            kills += 1
            contradictions += contradicted(url)
            assert cli("-q", *ruling, store=url).returncode == 0
            contradictions += contradicted(url)
            revisions = json.loads(cli("revisions", "-c", CAMPAIGN, "--json", store=url).stdout)
            assert [r.get("roll") for r in revisions] == [None, "m1", "m3"], f"seed {seed}: {revisions}"
            for report in json.loads(cli("verify", "-c", CAMPAIGN, "--json", store=url).stdout).values():
                assert not report["findings"], f"seed {seed}: {report}"
    print(f"\ndispute ({kind}): {kills} SIGKILLs, {contradictions} contradictory revisions; seed {seed}")
    assert contradictions == 0


def contradicted(url: str) -> int:
    """Revisions stored without their ruling, and rulings whose revision shows other faces."""
    revisions = json.loads(cli("revisions", "-c", CAMPAIGN, "--json", store=url).stdout)
    store = Store.open(url)
    try:
        orphan = bool(store.app.recorder.select_events(campaign_id(f"{CAMPAIGN}@r{len(revisions) + 1}"), limit=1))
    finally:
        store.close()
    found = int(orphan)
    for entry in revisions[1:]:
        rolls = json.loads(cli("rolls", "-c", CAMPAIGN, "--revision", str(entry["revision"]), "--json", store=url).stdout)
        faces = next(r["faces"] for r in rolls if r["id"] == entry["roll"])
        found += faces != entry["decision"]["faces"]
    return found
