"""Fate's table-wide state: none but which characters its boundary rules must visit (F8)."""

from __future__ import annotations

from typing import Any

from rollbook.domain.campaign import Campaign

from . import rules


class FateCampaign(Campaign):
    #: F8: a conflict's end and a scene's end visit only the characters written since the last one.
    roster_visits = (f"end:{rules.CONFLICT.value}", "end:scene")

    # Said again for the library, which builds a subclass's creation event from its own __init__.
    def __init__(self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]) -> None:
        super().__init__(campaign, ruleset, title, options)
