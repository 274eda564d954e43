"""The Rollbook testing kit: given / when / then over event streams, for rules authors.

    from rollbook.testing import ANY, commands, events, pirates

    def test_light_wounds_heal_at_chapter_end(campaign):      # fixture from the pytest plugin
        campaign.given(pirates.created("Anna", luck=1), pirates.wounded("Anna", "light", 2))
        campaign.when(commands.EndChapter())
        campaign.then(events.LightWoundsHealed(character="Anna", count=2))
        assert campaign.sheet("Anna")["wounds"]["light"] == 0

See README.md, "Testing kit".
"""

from __future__ import annotations

from . import commands, pirates
from .expect import ANY, ExpectedEvent, events
from .kit import CampaignUnderTest, Given, History, new_campaign, plain

__all__ = [
    "ANY", "CampaignUnderTest", "ExpectedEvent", "Given", "History",
    "commands", "events", "new_campaign", "pirates", "plain",
]
