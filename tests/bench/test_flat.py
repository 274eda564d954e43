"""`bench.flat`: the first and last tenth of one campaign, on the store it is played on, with the collector apart."""

from __future__ import annotations

import gc

import pytest

from bench.flat import Collector, tenths
from bench.generate import generate


def test_the_collector_counts_the_time_of_its_passes_and_only_while_counting():
    collector = Collector()
    with collector.counting():
        gc.collect()
    counted = collector.seconds
    assert counted > 0 and collector not in gc.callbacks
    gc.collect()
    assert collector.seconds == counted


@pytest.mark.parametrize("store", ["sqlite", "memory"])
def test_tenths_measure_both_tenths_of_the_campaign_on_the_store_asked(store):
    measured = tenths(generate("pirates", 200), store)
    assert measured.first_us > 0 and measured.last_us > 0
    assert measured.first_events > 1 and measured.last_events > 1
    assert 0 <= measured.first_gc_us < measured.first_us and 0 <= measured.last_gc_us < measured.last_us


def test_the_tenths_are_the_campaign_s_own_first_and_last_played_in_turns(tmp_path):
    """The child's tenth is the campaign's first (the same events per command as played alone) and the
    parent's its last, each on its own store; played in turns of BLOCK commands, however many blocks."""
    from bench.flat import BLOCK, Collector, Player

    campaign = generate("pirates", 20 * BLOCK + 70)  # a tenth of 2 blocks and a part of one
    tenth = len(campaign.commands) // 10
    alone = Player("memory", str(tmp_path))
    alone.play(campaign.commands, Collector())
    measured = tenths(campaign, "memory")
    assert measured.first_events == sum(alone.events[:tenth]) / tenth
    assert measured.last_events == sum(alone.events[-tenth:]) / tenth
