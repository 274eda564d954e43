"""Is the cost of a command flat over a campaign? Its last tenth against its first, in memory.

    python -m bench.flat --ruleset heroes --size 10000

Applies a generated campaign command by command to an in-memory store and compares the mean
cost of a command in its last tenth with its first (issue 22: a cost that grew with the roster).
Memory, so that only deciding and evolving are measured, not the disk; CPU time of this process,
so that the other processes of a loaded machine do not pass for growth between the two tenths.
"""

from __future__ import annotations

import argparse
import sys
import time
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


def tenths(campaign: Campaign) -> Tenths:
    from rollbook.commands.catalogue import all_types
    from rollbook.commands.parse import parse_command
    from rollbook.commands.service import Rollbook
    from rollbook.store import Store

    def play(commands: list[dict[str, Any]], seconds: list[float], events: list[int]) -> None:
        store = Store.open("memory://")
        service = Rollbook(store)
        try:
            for data in commands:
                started = time.process_time()
                applied = service.execute(parse_command(data, ruleset_of=service.ruleset_of))
                seconds.append(time.process_time() - started)
                events.append(applied.events)
        finally:
            store.close()

    all_types()  # start-up is not a command's cost, nor are the first uses of each code path:
    tenth = max(1, len(campaign.commands) // 10)
    play(campaign.commands[:tenth], [], [])  # a throwaway store warms them up
    seconds: list[float] = []
    events: list[int] = []
    play(campaign.commands, seconds, events)

    def mean(values: list[float] | list[int]) -> float:
        return sum(values) / tenth

    return Tenths(mean(seconds[:tenth]) * 1e6, mean(seconds[-tenth:]) * 1e6, mean(events[:tenth]), mean(events[-tenth:]))


#: The campaign size the target is stated at (issue 22).
STATED = 100_000


def measure_flat(bench: Bench, campaign: Campaign) -> None:
    """One row: µs per command in the campaign's last tenth, against its first tenth as the baseline."""
    size = len(campaign.commands)
    runs: list[Tenths] = []
    for run in range(bench.runs):
        bench.say(f"  [memory {scale_of(size)}] {campaign.ruleset}: first tenth against last #{run + 1}")
        runs.append(tenths(campaign))
    bench.add(Row(
        "flat", "memory", campaign.ruleset, scale_of(size),
        f"µs per command, last tenth (baseline: first tenth) of one campaign, in process, CPU time "
        f"({runs[0].first_events:.1f} → {runs[0].last_events:.1f} events per command)",
        "µs", [r.last_us for r in runs], "first tenth", [r.first_us for r in runs],
        [r.last_us / r.first_us for r in runs],
        note="" if size == STATED else f"target is stated at {scale_of(STATED)}",
    ))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flat", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="pirates")
    parser.add_argument("--size", type=int, default=10_000)
    args = parser.parse_args(argv)
    quiet_logging()
    result = tenths(generate(args.ruleset, args.size))
    for label, us, per in (("first", result.first_us, result.first_events), ("last", result.last_us, result.last_events)):
        print(f"{args.ruleset} {args.size}: {label} tenth {us:.0f} µs/command (CPU), {per:.1f} events/command")
    print(f"last / first: {result.last_us / result.first_us:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
