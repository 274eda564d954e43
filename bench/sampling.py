"""What every measure stands on: the `Bench` that keeps a run's rows and runs Rollbook's verbs, the
way two measures are sampled side by side, and how a scale is written. The measures (measures.py and
its neighbours) import it; it imports none of them.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import baselines
from .stores import StoreRef, Stores
from .targets import Row, judge


class BenchError(Exception):
    pass


@dataclass
class Bench:
    runs: int
    workdir: Path
    stores: dict[str, Stores]
    #: Whether to measure the rows of information too (raw sqlite3); `--only-targets` says no.
    info: bool = True
    rows: list[Row] = field(default_factory=list)
    say: Callable[[str], None] = lambda text: print(text, file=sys.stderr, flush=True)
    _help: dict[str, str | None] = field(default_factory=dict)

    @property
    def rollbook(self) -> str:
        return str(Path(sys.executable).with_name("rollbook"))

    def add(self, row: Row) -> Row:
        self.rows.append(judge(row))
        return row

    def verb_help(self, verb: str) -> str | None:
        """The `--help` text of a Rollbook verb, or None if this build has no such verb."""
        if verb not in self._help:
            done = subprocess.run([self.rollbook, *verb.split(), "--help"], capture_output=True, text=True)
            self._help[verb] = done.stdout if done.returncode == 0 else None
        return self._help[verb]

    def missing(self, verb: str, option: str | None = None) -> str | None:
        """Why a verb (with an option) cannot be measured yet, or None if it can."""
        text = self.verb_help(verb)
        if text is None:
            return f"`rollbook {verb}` does not exist in this build yet (issue 4)"
        if option is not None and option not in text:
            return f"`rollbook {verb}` has no `{option}` yet (issue 4)"
        return None

    def cli(self, *args: str, timeout: float = 3600) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([self.rollbook, *args], capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise BenchError(f"rollbook {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
        return done

    def timed_cli(self, *args: str) -> dict[str, Any]:
        """Wall time and peak RSS of one `rollbook` process."""
        done = subprocess.run(
            [sys.executable, "-m", "bench.rss", "--", self.rollbook, *args],
            capture_output=True, text=True, cwd=Path(__file__).parent.parent,
        )
        result = json.loads(done.stdout)
        if result["returncode"] != 0:
            raise BenchError(f"rollbook {' '.join(args)} failed: {result['stderr'].strip()[-500:]}")
        return result


def quiet_logging() -> None:
    """What `rollbook -q` does (`configure_logging`): lines below WARNING are dropped before
    structlog is reached, and structlog is set up to filter them only if a line is written."""
    from rollbook.store import logs

    def set_up() -> None:
        import structlog

        structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))

    logs.show_from(logging.WARNING, set_up)


def scale_of(size: int, unit: str = "commands") -> str:
    if size >= 1_000_000 and size % 100_000 == 0:
        return f"{size / 1_000_000:g}M {unit}"
    if size >= 1000 and size % 1000 == 0:
        return f"{size // 1000}k {unit}"
    return f"{size:,} {unit}"


def side_by_side(runs: int, first: Callable[[int], float], second: Callable[[int], float]) -> tuple[list[float], list[float]]:
    """Run two measures `runs` times, alternating which goes first; their samples."""
    a: list[float] = []
    b: list[float] = []
    for run in range(runs):
        if run % 2 == 0:
            a.append(first(run))
            b.append(second(run))
        else:
            b.append(second(run))
            a.append(first(run))
    return a, b


def shape_of(ref: StoreRef) -> baselines.Shape:
    from rollbook.store import Store

    store = Store.open(ref.url)
    try:
        return baselines.Shape.of(store.app)
    finally:
        store.close()


#: What a new process costs before Rollbook does anything: the libraries every verb needs.
IMPORTS = "import eventsourcing.application, pydantic"
