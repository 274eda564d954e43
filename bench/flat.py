"""Is the cost of a command flat over a campaign? Its last tenth against its first.

    python -m bench.flat --ruleset heroes --size 10000 [--store sqlite|memory]

Applies a generated campaign command by command to a new store and compares the mean cost of a
command in its last tenth with its first (issue 22: a cost that grew with the roster). CPU time
of this process, so that the other processes of a loaded machine do not pass for growth between
the two tenths, and the disk's waits are not counted.

The store is SQLite, the one a campaign is played on. An in-memory store (`--store memory`)
keeps every stored event of the campaign as Python objects, a heap that grows with the
campaign and that the cyclic garbage collector walks in full each time it has grown by a
quarter: a pass of up to a second at 100k commands that falls in one tenth or not, by chance,
and is no cost of a command on a real store. Each tenth's time in the collector is given apart.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from dataclasses import dataclass
from typing import Any

from .generate import Campaign, generate
from .measures import Bench, quiet_logging, scale_of
from .targets import Row


@dataclass
class Tenths:
    """Mean CPU µs and events per command in the first and the last tenth of one run."""

    first_us: float
    last_us: float
    first_events: float
    last_events: float
    #: Of each, the µs per command spent in the garbage collector.
    first_gc_us: float = 0.0
    last_gc_us: float = 0.0


class Collector:
    """CPU time spent in the cyclic garbage collector, by `gc.callbacks`."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started

    @contextmanager
    def counting(self) -> Iterator[Collector]:
        gc.callbacks.append(self)
        try:
            yield self
        finally:
            gc.callbacks.remove(self)


def tenths(campaign: Campaign, store: str = "sqlite") -> Tenths:
    from rollbook.commands.catalogue import all_types
    from rollbook.commands.parse import parse_command
    from rollbook.commands.service import Rollbook
    from rollbook.store import Store

    def play(commands: list[dict[str, Any]], seconds: list[float], events: list[int], collected: list[float]) -> None:
        with tempfile.TemporaryDirectory(prefix="bench-flat-") as folder:
            opened = Store.open("memory://" if store == "memory" else f"sqlite:///{Path(folder) / 'flat.db'}")
            service = Rollbook(opened)
            try:
                with Collector().counting() as collector:
                    for data in commands:
                        started, before = time.process_time(), collector.seconds
                        applied = service.execute(parse_command(data, ruleset_of=service.ruleset_of))
                        seconds.append(time.process_time() - started)
                        collected.append(collector.seconds - before)
                        events.append(applied.events)
            finally:
                opened.close()

    all_types()  # start-up is not a command's cost, nor are the first uses of each code path:
    tenth = max(1, len(campaign.commands) // 10)
    play(campaign.commands[:tenth], [], [], [])  # a throwaway store warms them up
    seconds: list[float] = []
    events: list[int] = []
    collected: list[float] = []
    play(campaign.commands, seconds, events, collected)

    def mean(values: list[float] | list[int]) -> float:
        return sum(values) / tenth

    return Tenths(mean(seconds[:tenth]) * 1e6, mean(seconds[-tenth:]) * 1e6, mean(events[:tenth]), mean(events[-tenth:]),
                  mean(collected[:tenth]) * 1e6, mean(collected[-tenth:]) * 1e6)


#: The campaign size the target is stated at (issue 22).
STATED = 100_000


def measure_flat(bench: Bench, campaign: Campaign, store: str = "sqlite") -> None:
    """One row: µs per command in the campaign's last tenth, against its first tenth as the baseline."""
    size = len(campaign.commands)
    runs: list[Tenths] = []
    for run in range(bench.runs):
        bench.say(f"  [{store} {scale_of(size)}] {campaign.ruleset}: first tenth against last #{run + 1}")
        runs.append(tenths(campaign, store))
    collector = ", ".join(f"{r.first_gc_us:.0f} → {r.last_gc_us:.0f}" for r in runs)
    notes = [f"of which in the garbage collector, µs per command, first tenth → last, each run: {collector}"]
    if size != STATED:
        notes.append(f"target is stated at {scale_of(STATED)}")
    bench.add(Row(
        "flat", store, campaign.ruleset, scale_of(size),
        f"µs per command, last tenth (baseline: first tenth) of one campaign, in process, CPU time "
        f"({runs[0].first_events:.1f} → {runs[0].last_events:.1f} events per command)",
        "µs", [r.last_us for r in runs], "first tenth", [r.first_us for r in runs],
        [r.last_us / r.first_us for r in runs],
        note="; ".join(notes),
    ))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flat", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="pirates")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--store", default="sqlite", choices=("sqlite", "memory"))
    args = parser.parse_args(argv)
    quiet_logging()
    result = tenths(generate(args.ruleset, args.size), args.store)
    for label, us, per, collected in (("first", result.first_us, result.first_events, result.first_gc_us),
                                      ("last", result.last_us, result.last_events, result.last_gc_us)):
        print(f"{args.ruleset} {args.size} ({args.store}): {label} tenth {us:.0f} µs/command (CPU, "
              f"{collected:.0f} in the collector), {per:.1f} events/command")
    print(f"last / first: {result.last_us / result.first_us:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
