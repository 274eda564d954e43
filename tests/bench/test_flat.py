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
