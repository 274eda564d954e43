"""The benchmark's generated campaigns are valid command files that `rollbook run` applies whole."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]


def generated(*args: str) -> bytes:
    done = subprocess.run([sys.executable, "-m", "bench.generate", *args], cwd=ROOT, capture_output=True, check=True)
    return done.stdout


RULESETS = generated("--list").decode().split()


def test_every_ruleset_with_commands_has_a_generator():
    assert "pirates" in RULESETS


@pytest.mark.parametrize("ruleset", RULESETS)
def test_generated_campaign_is_deterministic_and_applies_without_refusal(ruleset, tmp_path):
    text = generated(ruleset, "300")
    assert text == generated(ruleset, "300"), "same seed, same campaign"
    lines = [json.loads(line) for line in text.decode().splitlines()]
    assert len(lines) == 300 and lines[0]["type"] == "create_campaign"

    campaign = tmp_path / "campaign.jsonl"
    campaign.write_bytes(text)
    store = f"sqlite:///{tmp_path / 'bench.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "-q", "run", str(campaign), "--store", store, "--json"],
        capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["applied"], summary["skipped"], summary["skips"], summary["error"]) == (300, [], [], None)
