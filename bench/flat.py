"""Is the cost of a command flat over a campaign? Early against late, in memory.

    python -m bench.flat --ruleset heroes --size 10000

Generates a campaign, applies it command by command to an in-memory store and prints the mean
time and events per command in its first and last tenth (issue 22: a cost that grew with the
roster). Memory, so that only deciding and evolving are measured, not the disk.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

import structlog

from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.store import Store

from .generate import generate


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flat", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="pirates")
    parser.add_argument("--size", type=int, default=10_000)
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    commands = generate(args.ruleset, args.size).commands
    store = Store.open("memory://")
    service = Rollbook(store)
    seconds: list[float] = []
    events: list[int] = []
    for data in commands:
        command = parse_command(data, ruleset_of=service.ruleset_of)
        started = time.perf_counter()
        applied = service.execute(command)
        seconds.append(time.perf_counter() - started)
        events.append(applied.events)
    store.close()
    tenth = max(1, len(commands) // 10)
    for label, part in (("first", slice(0, tenth)), ("last", slice(-tenth, None))):
        mean = sum(seconds[part]) / tenth * 1e6
        print(f"{args.ruleset} {args.size}: {label} tenth {mean:.0f} µs/command, "
              f"{sum(events[part]) / tenth:.1f} events/command")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
