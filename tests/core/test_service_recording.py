"""Transcoding and the chain (commands/recording.py): a decided command's events, chained and recorded."""

from rollbook.commands.recording import record_chained
from rollbook.domain.aggregate import event_journal
from rollbook.domain.campaign import Campaign
from rollbook.domain.chain import GENESIS_CHAIN, chain_hash, event_digest
from rollbook.store import Store

RECORDED = {"type": "create_campaign", "campaign": "tortuga", "id": "c1", "at": "2026-03-01T20:00:00+00:00"}


def test_the_chain_hashes_the_very_rows_stored_and_the_command_log_follows(rollbook_store: str) -> None:
    store = Store.open(rollbook_store)
    batches = []

    def transcode(events):
        batches.append(len(events))
        return store.app.stored(events)

    journal: list = []
    token = event_journal.set(journal)  # as the service journals the events a command causes
    try:
        campaign = Campaign(campaign="tortuga", ruleset="pirates", title=None, options={})
        events, rows = record_chained(campaign, "c1", RECORDED, journal, transcode)
    finally:
        event_journal.reset(token)
    store.close()
    assert [type(e).__name__ for e in events] == ["Created", "CommandApplied"]
    assert [row.topic for row in rows] == ["rollbook.domain.campaign:Campaign.Created",
                                           "rollbook.domain.campaign:Campaign.CommandApplied"]
    assert batches == [1, 1]  # each event transcoded once: what the command wrote, then its record
    writes = [[rows[0].originator_id.hex, rows[0].originator_version, event_digest(rows[0])]]
    assert events[-1].writes == writes and events[-1].command == RECORDED
    assert campaign.chain == chain_hash(GENESIS_CHAIN, RECORDED, writes)
    assert (campaign.seq, campaign.last_at, len(campaign.tree)) == (1, RECORDED["at"], 1)
