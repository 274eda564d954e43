"""Rule systems from outside the repository: examples/plugin/ (the `coin` ruleset) and examples/fate/ (the
`fate` ruleset, with its own dice kind, scope and sheet) installed beside Rollbook with pip, and nothing of
Rollbook changed, work through the command line and the testing kit. pip's `--target` and PYTHONPATH stand
in for a venv: the entry points are found the same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugin"
FATE = PLUGIN.parent / "fate"


@pytest.fixture(scope="module")
def beside(tmp_path_factory) -> dict[str, str]:
    """The environment of a Python that has Rollbook and, installed by pip, the coin and Fate packages."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(PLUGIN), str(FATE)],
        check=True, capture_output=True, timeout=600,
    )
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def rollbook(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rollbook.cli", *args], env=env, cwd=cwd,
        capture_output=True, text=True, timeout=300,
    )


@pytest.mark.slow
def test_the_coin_package_schema_run_and_replay_verify(beside, tmp_path):
    schema = rollbook(beside, "schema", "--ruleset", "coin", cwd=tmp_path)
    assert schema.returncode == 0, schema.stderr
    assert {"create_campaign", "create_character", "flip", "start_scene", "end_scene"} <= set(
        json.loads(schema.stdout)["discriminator"]["mapping"]
    )
    store = f"sqlite:///{tmp_path / 'coin.db'}"
    run = rollbook(beside, "run", str(PLUGIN / "coin.jsonl"), "--store", store, "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    verify = rollbook(beside, "replay", "--verify", "-c", "heads-or-tails", "--store", store, cwd=tmp_path)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "identical" in verify.stdout
    sheet = rollbook(beside, "sheet", "Ada", "-c", "heads-or-tails", "--store", store, "--json", cwd=tmp_path)
    assert json.loads(sheet.stdout)["coins"] == 1  # two scenes, a coin staked in each


@pytest.mark.slow
def test_the_fate_package_runs_replays_verifies_and_shows_its_sheet_and_odds(beside, tmp_path):
    schema = json.loads(rollbook(beside, "schema", "--ruleset", "fate", cwd=tmp_path).stdout)
    assert {"act", "take_hit", "start_conflict", "end_conflict", "start_scene"} <= set(schema["discriminator"]["mapping"])
    store = f"sqlite:///{tmp_path / 'fate.db'}"
    run = rollbook(beside, "run", str(FATE / "fate.jsonl"), "--store", store, "-q", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    replayed = rollbook(beside, "replay", "--verify", "-c", "the-ladder", "--store", store, cwd=tmp_path)
    assert replayed.returncode == 0 and "identical" in replayed.stdout, replayed.stdout + replayed.stderr
    verified = rollbook(beside, "verify", "-c", "the-ladder", "--store", store, cwd=tmp_path)
    assert verified.returncode == 0 and "2 rolls recomputed" in verified.stdout, verified.stdout + verified.stderr
    sheet = rollbook(beside, "sheet", "Ada", "-c", "the-ladder", "--store", store, cwd=tmp_path)
    assert "Stress and consequences" in sheet.stdout and "Good (+3)" in sheet.stdout, sheet.stdout + sheet.stderr
    odds = rollbook(beside, "odds", "act", "character=Ada", "skill=fight", "difficulty=4", "-c", "the-ladder",
                    "--store", store, "--json", cwd=tmp_path)
    assert json.loads(odds.stdout)["fractions"]["tie"] == "16/81", odds.stdout + odds.stderr


@pytest.mark.slow
@pytest.mark.parametrize("package", [PLUGIN, FATE], ids=["coin", "fate"])
def test_the_packages_own_tests_run_on_the_testing_kit(beside, package):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rollbook-stores=memory", "tests"],
        env=beside, cwd=package, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
