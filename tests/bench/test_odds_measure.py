"""The odds measure finds, in every generated campaign, a roll the rules still allow at its end."""

import pytest

from bench.generate import available, generate
from bench.odds import ASKED, typical
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.store import Store


@pytest.mark.parametrize("ruleset", available())
def test_a_typical_query_of_each_generated_campaign_has_odds(ruleset):
    campaign = generate(ruleset, 300)
    store = Store.open("memory://")
    service = Rollbook(store)
    assert run_file(service, campaign.jsonl()).error is None
    body = typical(service, campaign)
    assert body["type"] in ASKED and "dice" not in body
    shown = service.odds(campaign.campaign, body)
    assert shown["exact"] is True and all(0 <= p <= 1 for p in shown["outcomes"].values())
