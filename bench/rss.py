"""Run a command as a child process; print its wall time and peak RSS as JSON.

    python -m bench.rss -- rollbook rebuild --store URL

Run in a fresh process of its own so that the peak is the child's alone
(`RUSAGE_CHILDREN` keeps the largest child ever waited for).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--":
        argv = argv[1:]
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kilobytes on Linux
    print(json.dumps({"wall": wall, "peak_mb": peak_kb / 1024, "returncode": done.returncode,
                      "stderr": done.stderr[-2000:]}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
