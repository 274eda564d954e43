"""What the games' invariants tests share: many generated campaigns, each played command by command, a refused
command changing nothing and an accepted one checked by the game's own invariants."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from rollbook.testing import new_campaign


def many_campaigns(test: Callable[..., None]) -> Callable[..., None]:
    """Under `@given`: fifty generated campaigns, however slow each is to play (a slow test)."""
    return pytest.mark.slow(settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])(test))


@contextmanager
def playing(ruleset: str, options: dict[str, Any]) -> Iterator[Any]:
    """A new campaign of `ruleset` with `options`, closed after; played through, with the campaign's own dice
    among its rolls, every seeded roll must verify once revealed."""
    campaign = new_campaign(ruleset, **options)
    try:
        yield campaign
        assert campaign.verifies() == []
    finally:
        campaign.close()


def when_checked(campaign: Any, command: dict[str, Any], check: Callable[[], None]) -> None:
    """Play `command`: refused, it changes nothing; accepted, `check` reads what it did."""
    before = campaign.events(bookkeeping=True)
    campaign.when(command)
    if campaign.error is not None:
        assert campaign.events(bookkeeping=True) == before, command
    else:
        check()
