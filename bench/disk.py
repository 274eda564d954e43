"""The disk's fsync latency where the stores live: every ratio of a run depends on it.

A command's transaction waits for one fsync (SQLite's commit, PostgreSQL's WAL flush), so
the same build measures faster on a quiet disk than on one other work keeps busy; the
results say which disk they were measured on, at the start and at the end of the run.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

SAMPLES = 50
#: Samples of the shorter probe taken before each measure.
PROBE = 20
BLOCK = b"\0" * 4096


def fsync_latency(folder: Path, samples: int = SAMPLES) -> dict[str, float]:
    """Median, min and max milliseconds of a 4 KiB write followed by fsync, in `folder`."""
    path = folder / "fsync.probe"
    times = []
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for _ in range(samples):
            started = time.perf_counter()
            os.write(descriptor, BLOCK)
            os.fsync(descriptor)
            times.append((time.perf_counter() - started) * 1000)
    finally:
        os.close(descriptor)
        path.unlink(missing_ok=True)
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times)}


def described(latency: dict[str, float]) -> str:
    return f"{latency['median_ms']:.2f} ms ({latency['min_ms']:.2f}–{latency['max_ms']:.2f})"
