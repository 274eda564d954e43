"""The machine's conditions while a figure is taken: its load average, the clients' own CPU, a busy core.

On 2 shared cores the clients that load a server compete with it, and other work on the machine
competes with both: a row of the server's measures says how loaded the machine was (the 1-minute
load average at its start and end) and how much CPU the bench's own client threads took, so a
reader can tell a slow server from a starved one. `busy_core` puts one core's worth of load beside
a measure, for the `loaded` column of the `run` rows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

#: Seconds a busy core spins at most, unless told otherwise: it stops by itself even if the bench is killed.
BUSY_LIMIT = 900.0


@dataclass
class Conditions:
    """Load average and this process's CPU over one stretch of measuring (the clients are its threads)."""

    #: Whose CPU this process's is: the client threads' (a server's load) or the measured work's own (`run`).
    whose: str = "clients'"
    load_start: float = 0.0
    load_end: float = 0.0
    wall: float = 0.0
    client_cpu: float = 0.0
    _started: float = field(default=0.0, repr=False)
    _cpu_started: float = field(default=0.0, repr=False)

    def start(self) -> Conditions:
        self.load_start = os.getloadavg()[0]
        self._started, self._cpu_started = time.perf_counter(), time.process_time()
        return self

    def stop(self) -> Conditions:
        self.wall = time.perf_counter() - self._started
        self.client_cpu = time.process_time() - self._cpu_started
        self.load_end = os.getloadavg()[0]
        return self

    def described(self) -> str:
        share = self.client_cpu / self.wall if self.wall else 0.0
        return (f"load {self.load_start:.2f}→{self.load_end:.2f}; {self.whose} CPU {self.client_cpu:.2f} s "
                f"in {self.wall:.2f} s ({share:.0%} of a core)")

    def as_dict(self) -> dict[str, float]:
        return {"load_start": self.load_start, "load_end": self.load_end, "wall_s": self.wall,
                "client_cpu_s": self.client_cpu}


@contextmanager
def measured(whose: str = "clients'") -> Iterator[Conditions]:
    conditions = Conditions(whose=whose).start()
    try:
        yield conditions
    finally:
        conditions.stop()


def summed(samples: list[Conditions]) -> str:
    """The conditions of several runs of one row, in one note: each run's load and this process's CPU."""
    return "; ".join(f"run {n + 1}: {c.described()}" for n, c in enumerate(samples))


# A loop that checks the clock every 100k iterations: one core kept busy, and a deadline it keeps by itself.
_SPIN = ("import time\n"
         "deadline = time.monotonic() + {seconds}\n"
         "while time.monotonic() < deadline:\n"
         "    for _ in range(100_000):\n"
         "        pass\n")


@contextmanager
def busy_core(seconds: float = BUSY_LIMIT) -> Iterator[subprocess.Popen[bytes]]:
    """One process spinning on a core beside what runs inside the block; stopped at its end (or by itself
    after `seconds`, whatever happens to the bench)."""
    spinner = subprocess.Popen([sys.executable, "-c", _SPIN.format(seconds=seconds)])
    try:
        time.sleep(0.2)  # let it reach the scheduler before the measure starts
        yield spinner
    finally:
        spinner.terminate()
        try:
            spinner.wait(timeout=10)
        except subprocess.TimeoutExpired:
            spinner.kill()
            spinner.wait(timeout=10)
