"""Whether peak RSS grows with a command file's length: `run` and `replay --verify` at two sizes.

    python -m bench.growth [RULESET] [SIZE ...]      (default: pirates 20000 100000)

For each size, a generated campaign is written to a file, run into a fresh SQLite store with
`rollbook -q run FILE`, then verified with `rollbook replay --verify`; each in its own
process, measured by `bench.rss`. Prints one JSON object per size. Flat peaks from the first
size to the last mean the file's length is not held in memory (the issue's 1M target).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .generate import generate

ROOT = Path(__file__).parent.parent


def peak(*args: str) -> dict[str, float]:
    rollbook = shutil.which("rollbook", path=str(Path(sys.executable).parent)) or "rollbook"
    done = subprocess.run([sys.executable, "-m", "bench.rss", "--", rollbook, *args],
                          capture_output=True, text=True, cwd=ROOT, check=True)
    result = json.loads(done.stdout)
    if result["returncode"] != 0:
        raise SystemExit(f"rollbook {' '.join(args)} failed: {result['stderr'][-500:]}")
    return {"peak_mb": round(result["peak_mb"], 1), "wall": round(result["wall"], 1)}


def measure(ruleset: str, size: int) -> dict[str, object]:
    campaign = generate(ruleset, size)
    with tempfile.TemporaryDirectory() as folder:
        commands = campaign.write(Path(folder) / "commands.jsonl")
        url = f"sqlite:///{folder}/store.db"
        # The generated posts come hours apart: a long file runs centuries past the clock.
        run = peak("-q", "run", str(commands), "--store", url, "--allow-future")
        name = json.loads(commands.open("rb").readline())["campaign"]
        verify = peak("-q", "replay", "--campaign", name, "--verify", "--store", url)
    return {"ruleset": ruleset, "commands": size, "run": run, "replay_verify": verify}


def main(argv: list[str]) -> int:
    ruleset = argv[0] if argv and not argv[0].isdigit() else "pirates"
    sizes = [int(a) for a in argv if a.isdigit()] or [20_000, 100_000]
    for size in sizes:
        print(json.dumps(measure(ruleset, size)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
