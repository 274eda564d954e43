"""The Rollbook testing kit: given / when / then over event streams, for rules authors.

    from rollbook.testing import ANY, commands, events

    def test_a_ruling(campaign):                      # fixture from the pytest plugin
        campaign.of(RULESET)                          # the rules it is played by
        campaign.given(commands.StartChapter())       # commands, or a ruleset's builders
        campaign.when(commands.EndChapter())
        campaign.then(events.ScopeEnded(scope="chapter", number=1))

A ruleset's builders (`created(...)`, `wounded(...)`: what a history already holds) are imported by
the ruleset's name, `from rollbook.testing import <ruleset>`: the module its `Ruleset.given` names.
See README.md, "Testing kit", for a whole example.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from . import commands
from .expect import ANY, ExpectedEvent, events
from .kit import CampaignUnderTest, Given, History, new_campaign, plain

__all__ = [
    "ANY", "CampaignUnderTest", "ExpectedEvent", "Given", "History",
    "commands", "events", "new_campaign", "plain",
]


def __getattr__(name: str) -> ModuleType:
    """A ruleset's builders for `given`, by the ruleset's name: the module its `Ruleset.given` names."""
    from ..domain.rulesets import available, ruleset

    if not name.startswith("_") and name in available() and (builders := ruleset(name).given):
        return import_module(builders)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
