"""`rollbook run FILE` timed as the user runs it, and its `quiet` and `loaded` columns.

The user's `rollbook run FILE` reads the file a line at a time, derives ids from its full path,
decides each command while the one before is committed (SQLite), prints through its callback and
catches the projections up before it exits. `run_as_user` calls that verb itself, in this process
(the interpreter's start-up and the imports are the `startup` row's), so the `run` rows time all of
it and nothing else.

The pipelined writer overlaps a command's commit with the next one's decision: it needs a second
core. `measure_loaded` puts the pipelined and the one-after-the-other paths side by side, each on a
quiet machine and with one busy core beside it (bench/conditions.py), against bare eventsourcing
measured under the same condition, so the table shows which design each condition favours.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, redirect_stdout
from pathlib import Path

from .baselines import Shape, bare_saves
from .conditions import busy_core, measured, summed
from .generate import Campaign
from .sampling import Bench, BenchError, scale_of, shape_of
from .targets import Row


def run_as_user(url: str, path: Path, *, group_commit: int = 1) -> float:
    """Seconds of `rollbook -q run PATH --store URL --allow-future` in this process: the verb's own code."""
    import click

    from rollbook.cli import app

    arguments = ["-q", "run", str(path), "--store", url, "--allow-future"]
    if group_commit > 1:
        arguments += ["--group-commit", str(group_commit)]
    # What it prints (the summary, the checkpoints it prints even with -q) goes where a redirected run's goes:
    # not into the bench's own output, which may be --json.
    with open(os.devnull, "w") as nowhere, redirect_stdout(nowhere):
        started = time.perf_counter()
        try:
            code = app(arguments, prog_name="rollbook", standalone_mode=False)  # a typer.Exit: its code
        except SystemExit as stopped:
            code = stopped.code
        except click.ClickException as error:
            raise BenchError(f"rollbook run {path}: {error.format_message()}") from None
        seconds = time.perf_counter() - started
    if isinstance(code, int) and code:
        raise BenchError(f"rollbook run {path} exited with {code}: the generated campaign was refused")
    return seconds


@contextmanager
def one_after_the_other() -> Iterator[None]:
    """`rollbook run` with the pipeline switched off: each command decided, then committed, in one thread."""
    from rollbook.commands.transactions import Pipelined

    serves = Pipelined.serves
    Pipelined.serves = staticmethod(lambda service: False)  # type: ignore[method-assign]
    try:
        yield
    finally:
        Pipelined.serves = serves  # type: ignore[method-assign]


#: The two designs of `run`'s writer the loaded column tells apart.
PATHS = {"pipelined": nullcontext, "one after the other": one_after_the_other}
CONDITIONS = ("quiet", "loaded")


def measure_loaded(bench: Bench, campaign: Campaign, kind: str) -> None:
    """Rows `run-quiet` and `run-loaded` (the pipelined `run` the user runs, against bare eventsourcing under
    the same condition) and their one-after-the-other twins, information for the design choice."""
    stores = bench.stores[kind]
    size = len(campaign.commands)
    commands = bench.workdir / f"loaded_{campaign.ruleset}_{size}.jsonl"
    commands.write_bytes(campaign.jsonl())
    shape: Shape | None = None
    samples: dict[tuple[str, str], list[float]] = {}
    bare: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    seen: dict[str, list] = {c: [] for c in CONDITIONS}
    for run in range(bench.runs):
        # Alternate which condition goes first, so a drift of the machine's load falls on both.
        for condition in CONDITIONS if run % 2 == 0 else CONDITIONS[::-1]:
            beside = busy_core() if condition == "loaded" else nullcontext()
            with beside, measured(whose="the bench process's (the runs', in it)") as conditions:
                for path, switched in PATHS.items():
                    ref = stores.fresh("loaded")
                    bench.say(f"  [{kind} {scale_of(size)}] rollbook run, {path}, {condition} #{run + 1}")
                    try:
                        with switched():
                            samples.setdefault((path, condition), []).append(size / run_as_user(ref.url, commands))
                        if shape is None:
                            shape = shape_of(ref)
                    finally:
                        stores.remove(ref)
                ref = stores.fresh("bare")
                bench.say(f"  [{kind} {scale_of(size)}] bare eventsourcing, {condition} #{run + 1}")
                try:
                    bare[condition].append(size / bare_saves(ref.env, shape))
                finally:
                    stores.remove(ref)
            seen[condition].append(conditions)
    commands.unlink(missing_ok=True)
    for path in PATHS:
        for condition in CONDITIONS:
            ours, theirs = samples[(path, condition)], bare[condition]
            beside = "quiet machine" if condition == "quiet" else "one busy core beside it"
            measure = f"run-{condition}" if path == "pipelined" else f"run-{condition}-sequential"
            bench.add(Row(
                measure, kind, campaign.ruleset, scale_of(size),
                f"`rollbook run FILE` as the user runs it, {path}, {beside}", "commands/s", ours,
                f"bare eventsourcing, same saves, {beside}", theirs,
                [o / t for o, t in zip(ours, theirs, strict=True)], note=summed(seen[condition]),
            ))
