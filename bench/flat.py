"""Is the cost of a command flat over a campaign? Its last tenth against its first.

    python -m bench.flat --ruleset heroes --size 10000 [--store sqlite|memory]

Applies a generated campaign command by command to a new store and compares the mean cost of a
command in its last tenth with its first (issue 22: a cost that grew with the roster). CPU time
of each process, so that the other processes of a loaded machine do not pass for growth, and
the disk's waits are not counted.

The two tenths are measured side by side, not minutes apart. On a shared machine the cost of
the very same commands drifts by up to 1.8 × within one run (the first 400 commands replayed on
a fresh store at the start of each tenth of a 100k run cost 902 to 1,693 µs), far more than the
10 % to be told apart. So, once the campaign is generated and the warm-up played, the process
forks: the child applies the first tenth to a fresh store, the parent applies the campaign up to
its last tenth and then the last tenth, and the two take turns block by block (`BLOCK` commands),
so that whatever the machine does falls on both alike.

The store is SQLite, the one a campaign is played on. An in-memory store (`--store memory`)
keeps every stored event of the campaign as Python objects, a heap that grows with the
campaign and that the cyclic garbage collector walks in full each time it has grown by a
quarter: a pass of up to a second at 100k commands that falls in one tenth or not, by chance,
and is no cost of a command on a real store. Each tenth's time in the collector is given apart.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from dataclasses import dataclass
from typing import Any

from .generate import Campaign, generate
from .sampling import Bench, quiet_logging, scale_of
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


#: Commands each side applies in its turn: short enough that the machine's drift is shared, long
#: enough that handing over the turn (a byte through a pipe) is no part of a command's cost.
BLOCK = 25


class Player:
    """A new store of the kind asked, and commands applied to it one by one, each one's cost kept."""

    def __init__(self, store: str, folder: str) -> None:
        from rollbook.commands.service import Rollbook
        from rollbook.store import Store

        self.opened = Store.open("memory://" if store == "memory" else f"sqlite:///{Path(folder) / 'flat.db'}")
        self.service = Rollbook(self.opened)
        self.seconds: list[float] = []
        self.events: list[int] = []
        self.collected: list[float] = []

    def play(self, commands: list[dict[str, Any]], collector: Collector, *, kept: bool = True) -> None:
        from rollbook.commands.parse import parse_command

        for data in commands:
            started, before = time.process_time(), collector.seconds
            applied = self.service.execute(parse_command(data, ruleset_of=self.service.ruleset_of))
            if kept:
                self.seconds.append(time.process_time() - started)
                self.collected.append(collector.seconds - before)
                self.events.append(applied.events)

    def means(self) -> tuple[float, float, float]:
        """µs per command, events per command, µs per command in the collector."""
        count = max(len(self.seconds), 1)
        return sum(self.seconds) / count * 1e6, sum(self.events) / count, sum(self.collected) / count * 1e6


def tenths(campaign: Campaign, store: str = "sqlite") -> Tenths:
    from rollbook.commands.catalogue import all_types

    commands = campaign.commands
    tenth = max(1, len(commands) // 10)
    all_types()  # start-up is not a command's cost, nor are the first uses of each code path:
    with tempfile.TemporaryDirectory(prefix="bench-flat-") as folder:
        warm = Player(store, folder)  # a throwaway store warms them up
        warm.play(commands[:tenth], Collector(), kept=False)
        warm.opened.close()
    to_child, from_parent = os.pipe()
    to_parent, from_child = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            os.close(from_parent)
            os.close(to_parent)
            first = _first_tenth(commands[:tenth], store, turn=lambda: os.read(to_child, 1),
                                 done=lambda: os.write(from_child, b"."))
            os.write(from_child, json.dumps(first).encode())
        finally:
            os._exit(0)
    os.close(to_child)
    os.close(from_child)  # so that the child's end is the end of what it writes
    with tempfile.TemporaryDirectory(prefix="bench-flat-") as folder, Collector().counting() as collector:
        player = Player(store, folder)
        try:
            player.play(commands[:-tenth], collector, kept=False)
            last = commands[-tenth:]
            for start in range(0, tenth, BLOCK):
                os.write(from_parent, b".")  # the child's block, then ours
                os.read(to_parent, 1)
                player.play(last[start:start + BLOCK], collector)
        finally:
            player.opened.close()
    os.write(from_parent, b".")
    first_us, first_events, first_gc_us = json.loads(_read_all(to_parent))
    os.waitpid(child, 0)
    os.close(from_parent)
    os.close(to_parent)
    last_us, last_events, last_gc_us = player.means()
    return Tenths(first_us, last_us, first_events, last_events, first_gc_us, last_gc_us)


def _first_tenth(commands: list[dict[str, Any]], store: str, turn: Any, done: Any) -> tuple[float, float, float]:
    """The child's side: the first tenth on a fresh store, a block each time its turn comes."""
    with tempfile.TemporaryDirectory(prefix="bench-flat-") as folder, Collector().counting() as collector:
        player = Player(store, folder)
        try:
            for start in range(0, len(commands), BLOCK):
                turn()
                player.play(commands[start:start + BLOCK], collector)
                done()
        finally:
            player.opened.close()
    turn()  # the parent's last block is played: the machine is the child's alone no longer
    return player.means()


def _read_all(descriptor: int) -> bytes:
    """What the child wrote after its turns (each turn's byte first), up to its end."""
    chunks = []
    while chunk := os.read(descriptor, 65536):
        chunks.append(chunk)
    return b"".join(chunks).lstrip(b".")


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
        f"µs per command, last tenth (baseline: first tenth, played in turns with it) of one campaign, CPU time "
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
