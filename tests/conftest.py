"""The project's own tests use the installed Rollbook pytest plugin (fixture `campaign`)."""

import pytest

from rollbook.testing import new_campaign


@pytest.fixture
def memory_campaign():
    """A campaign in a memory store only, whatever --rollbook-stores says: for tests that roll a command
    hundreds of times to check the rules against the odds, which no store changes."""
    campaign = new_campaign()
    yield campaign
    campaign.close()
