"""The fast tier of the test suite, as the edit–test loop runs it (issue 22: under 2 minutes).

    python -m bench.suite [PYTEST ARGS ...]       (default: the whole fast tier)

`pytest -m "not slow" --rollbook-stores=memory -q` in a process of its own, from the repository
root: its wall time (the target) and its CPU time (user + system of the process and every child
it waited for, from `wait4`), which a loaded machine changes less. A failing test does not void
the time (the row's note says so); a run that ran no tests does.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .sampling import Bench, BenchError
from .targets import Row

ROOT = Path(__file__).parent.parent
FAST_TIER = ["-m", "not slow", "--rollbook-stores=memory", "-q", "-p", "no:cacheprovider"]
#: What `--quick` runs instead of the whole tier: a smoke of the row, not the target's measure.
QUICK = ["tests/bench"]


#: pytest's exit codes from 2 on: interrupted, internal or usage error, no tests collected (no tests/ here).
BROKEN = 2


def fast_tier(paths: list[str]) -> dict[str, float | int | str]:
    """Wall and CPU seconds of one run of the fast tier (over `paths`, or all of tests/)."""
    if importlib.util.find_spec("pytest") is None or not (ROOT / "tests").is_dir():
        raise BenchError("the fast tier needs pytest and tests/ (pip install -e \".[test]\" in a checkout)")
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "pytest", *FAST_TIER, *paths], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    last = output.strip().splitlines()[-1] if output.strip() else ""
    if process.returncode >= BROKEN:  # a time without the tests run is no measure of them
        raise BenchError(f"pytest exit {process.returncode}: {last}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "returncode": process.returncode, "last": last}


def measure_suite(bench: Bench, runs: int, paths: list[str]) -> None:
    walls, cpus, failed = [], [], []
    scope = " ".join(paths) or "tests/"
    for run in range(runs):
        bench.say(f"  fast tier ({scope}) #{run + 1}")
        result = fast_tier(paths)
        walls.append(float(result["wall"]))
        cpus.append(float(result["cpu"]))
        if result["returncode"] != 0:
            failed.append(f"run {run + 1}: pytest exit {result['returncode']} ({result['last']})")
    notes = []
    if paths:
        notes.append(f"target is stated for the whole fast tier; measured on {scope} only")
    bench.add(Row("suite", "memory", "—", scope, "`pytest -m \"not slow\" --rollbook-stores=memory`, wall", "s",
                  walls, baseline="(not a baseline) CPU time of the same runs, process and children", baseline_values=cpus,
                  note="; ".join(notes + failed)))


def main(argv: list[str]) -> int:
    print(json.dumps(fast_tier(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
