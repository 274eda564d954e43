"""A fifth rule system from outside the repository: examples/plugin/ (the `coin` ruleset) installed
beside Rollbook with pip, and nothing of Rollbook changed, works through the command line and the
testing kit. pip's `--target` and PYTHONPATH stand in for a venv: the entry point is found the same way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "examples" / "plugin"


@pytest.fixture(scope="module")
def beside(tmp_path_factory) -> dict[str, str]:
    """The environment of a Python that has Rollbook and, installed by pip, the coin package."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(PLUGIN)],
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
def test_the_coin_packages_own_tests_run_on_the_testing_kit(beside):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rollbook-stores=memory", "tests"],
        env=beside, cwd=PLUGIN, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "failed" not in done.stdout
