"""Deterministic aggregate ids.

Every aggregate id is a uuid5 of the campaign and the name the users know it by, so a
command names "Anna" and the store finds her without an index, and two writers creating
the same thing collide on the id instead of creating it twice.
"""

from __future__ import annotations

from functools import lru_cache
from uuid import UUID, uuid5

ROLLBOOK_NAMESPACE = UUID("5d1f6c2e-8a8b-4f57-9f0e-7c1c2a6b9e31")


# Cached: a command looks its campaign and members up several times, and uuid5 hashes each time.
@lru_cache(maxsize=4096)
def campaign_id(campaign: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"campaign:{campaign}")


@lru_cache(maxsize=65536)
def member_id(campaign: str, kind: str, name: str) -> UUID:
    """Id of a character, ship, enemy or scene of a campaign."""
    return uuid5(ROLLBOOK_NAMESPACE, f"{campaign}:{kind}:{name}")


@lru_cache(maxsize=1024)
def command_claim_id(campaign: str, command_id: str) -> UUID:
    return uuid5(ROLLBOOK_NAMESPACE, f"{campaign}:command:{command_id}")
