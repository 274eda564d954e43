"""The odds measure finds, in every generated campaign, a roll the rules still allow at its end."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2]))

from bench.generate import available, generate  # noqa: E402
from bench.odds import ASKED, typical  # noqa: E402
from rollbook.commands.runner import run_file  # noqa: E402
from rollbook.commands.service import Rollbook  # noqa: E402
from rollbook.store import Store  # noqa: E402


@pytest.mark.parametrize("ruleset", available())
def test_a_typical_query_of_each_generated_campaign_has_odds(ruleset):
    campaign = generate(ruleset, 300)
    store = Store.open("memory://")
    service = Rollbook(store)
    assert run_file(service, campaign.jsonl()).ok
    body = typical(service, campaign)
    assert body["type"] in ASKED and "dice" not in body
    shown = service.odds(campaign.campaign, body)
    assert shown["exact"] is True and all(0 <= p <= 1 for p in shown["outcomes"].values())
