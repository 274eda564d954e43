"""Determinism: every bundled example campaign, built by `rollbook demo`, replays to the identical stream.

(Every campaign built through the testing kit's `campaign` fixture is checked the same way at teardown.)
"""

import json
import subprocess
import sys
import pytest

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow


def test_every_demo_campaign_replays_identically(tmp_path, cli):
    store = f"sqlite:///{tmp_path / 'demo.db'}"
    built = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "demo", "--store", store, "--json"],
        capture_output=True, text=True, check=True,
    )
    campaigns = list(json.loads(built.stdout))
    assert campaigns
    for campaign in campaigns:
        report = cli.json("replay", "-c", campaign, "--verify", store=store)
        assert report["identical"], (campaign, report["difference"])
        assert report["events_compared"] > 0
        for findings in cli.json("verify", "-c", campaign, store=store).values():
            assert findings["findings"] == []
