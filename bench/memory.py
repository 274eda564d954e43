"""Peak RSS of `rollbook run` and of `rollbook replay --verify` of one long command file (issue 22: ≤ 150 MB at 1M).

Each runs in a process of its own, measured by `bench.rss` (`bench.growth.measure`): a peak that
does not grow with the file's length is what streaming the file buys. The wall times are shown
as information; the `run` and `replay` rows measure the speed.
"""

from __future__ import annotations

from . import growth
from .sampling import Bench, BenchError, scale_of
from .targets import Row

#: The size the target is stated at.
STATED = 1_000_000


def measure_memory(bench: Bench, ruleset: str, commands: int, runs: int) -> None:
    """Two rows, `run` and `replay --verify`: peak MB over `runs` (one by default: a peak varies little)."""
    peaks: dict[str, list[float]] = {"run": [], "replay_verify": []}
    walls: dict[str, list[float]] = {"run": [], "replay_verify": []}
    for run in range(runs):
        bench.say(f"  [sqlite {scale_of(commands)}] peak RSS of run and replay --verify #{run + 1}")
        try:
            result = growth.measure(ruleset, commands)
        except SystemExit as error:  # growth's verbs report a failed child by exiting
            raise BenchError(str(error)) from None
        for verb in peaks:
            peaks[verb].append(float(result[verb]["peak_mb"]))
            walls[verb].append(float(result[verb]["wall"]))
    note = "" if commands >= STATED else f"target is stated at {scale_of(STATED)}; measured at {scale_of(commands)}"
    for verb, what in (("run", "`rollbook -q run FILE`"), ("replay_verify", "`rollbook replay --verify`")):
        wall = ", ".join(f"{w:.0f}" for w in walls[verb])
        bench.add(Row("memory", "sqlite", ruleset, scale_of(commands), f"peak RSS of {what}, own process", "MB",
                      peaks[verb], note="; ".join(filter(None, [note, f"{what} wall: {wall} s"]))))
