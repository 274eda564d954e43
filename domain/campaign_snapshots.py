"""Whether a Campaign snapshot decides as the fold of the events before it (replay/verify.py asks each
aggregate's `snapshot_agrees`); rulesets with table-wide state of their own extend it for their part."""

from __future__ import annotations

from typing import Any

from . import campaign_roster
from .campaign_roster import ROSTER_INDEX


def agrees(kept: dict[str, Any], folded: dict[str, Any]) -> bool:
    """Does a snapshot's state (`kept`) decide as the fold of the events before it (`folded`)?

    All of it is the fold's but the roster index, which a campaign restored from an older
    snapshot rebuilt wider (`Campaign.upcast_v1_v2`; campaign_roster.index_agrees says how), and a tree
    it has not filled yet, and the command that committed its seed, which a snapshot taken before it was kept
    lacks (restored, it names none: `seeded_by`).
    """
    kept, folded = dict(kept), dict(folded)
    if kept.get("tree") is None:  # restored before the tree was kept, and not filled: unknown, not wrong
        kept.pop("tree", None)
        folded.pop("tree", None)
    if "seeded_by" not in kept:
        folded.pop("seeded_by", None)
    mine = {key: kept.pop(key, None) for key in ROSTER_INDEX}
    fold = {key: folded.pop(key, None) for key in ROSTER_INDEX}
    return kept == folded and campaign_roster.index_agrees(mine, fold)
