"""Transcoding and the chain: a decided command's events are transcoded once, their fingerprints chained to
the campaign's previous command, and `CommandApplied` appended to the campaign, all before they are stored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..domain.campaign import Campaign
from ..domain.chain import chain_hash, event_digest
from ..store.reads import StoredEvent


def record_chained(
    campaign: Campaign, command_id: str, recorded: dict[str, Any], journal: list[Any],
    transcode: Callable[[Iterable[Any]], list[StoredEvent]], *, start: str | None = None,
) -> tuple[list[Any], list[StoredEvent]]:
    """Append the command `recorded` (with what `journal` holds it wrote) to `campaign`'s chain; every
    event it stored, `CommandApplied` and what that closed last, and their transcoded rows.

    The rows are transcoded once (`transcode`): the chain hashes the very bytes that are stored. `start`: what
    the campaign's first command chains to in place of zeros (a revision a ruling made).
    """
    events = list(journal)
    stored = transcode(events)
    writes = [[s.originator_id.hex, s.originator_version, event_digest(s)] for s in stored]
    chain = chain_hash(start if start is not None and campaign.seq == 0 else campaign.chain, recorded, writes)
    campaign.record_command(seq=campaign.seq + 1, command_id=command_id, command=recorded, writes=writes, chain=chain)
    closing = journal[len(events):]
    return [*events, *closing], [*stored, *transcode(closing)]
