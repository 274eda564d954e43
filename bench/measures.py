"""Each measure of the issue's target table as a function, with its baseline side by side.

Every function appends `Row`s to the `Bench`: Rollbook's samples, the baseline's samples
taken in the same loop (alternating which goes first), the ratio of each pair, and
whether the target is met. A verb Rollbook does not have yet gives a row that says so
(with the baseline still measured where it can be), never a number.
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from . import baselines
from .generate import Campaign
from .sampling import IMPORTS, Bench, BenchError, scale_of, shape_of, side_by_side
from .stores import StoreRef
from .targets import Row


# --- rollbook run ---------------------------------------------------------------------------


def rollbook_run(url: str, raw: bytes, group_commit: int = 1) -> float:
    """Seconds of `rollbook -q run FILE` in this process, as the user runs it (bench/userrun.py): the file read
    line by line, ids derived from its path, the projections caught up at the end.

    The rulesets' modules are imported before the clock starts: that is start-up, which the
    `startup` row measures, and the bare baseline has none.
    """
    import tempfile

    from rollbook.commands.catalogue import all_types

    from .userrun import run_as_user

    all_types()
    with tempfile.TemporaryDirectory(prefix="bench-run-") as folder:
        path = Path(folder) / "commands.jsonl"
        path.write_bytes(raw)
        return run_as_user(url, path, group_commit=group_commit)


def measure_run(bench: Bench, campaign: Campaign, kind: str, *, keep: bool) -> tuple[StoreRef, baselines.Shape]:
    """Command handling, one transaction per command, vs a bare Application doing the same saves."""
    stores = bench.stores[kind]
    raw = campaign.jsonl()
    size = len(campaign.commands)
    made: list[StoreRef] = []
    shape: baselines.Shape | None = None

    def rollbook(run: int) -> float:
        nonlocal shape
        ref = stores.fresh(f"run_{campaign.ruleset}")
        made.append(ref)
        bench.say(f"  [{kind} {scale_of(size)}] rollbook run #{run + 1}")
        seconds = rollbook_run(ref.url, raw)
        if shape is None:
            shape = shape_of(ref)
        return size / seconds

    def bare(run: int) -> float:
        assert shape is not None, "the first run is Rollbook's: the baseline replays its shape"
        ref = stores.fresh("bare")
        bench.say(f"  [{kind} {scale_of(size)}] bare eventsourcing #{run + 1}")
        try:
            return size / baselines.bare_saves(ref.env, shape)
        finally:
            stores.remove(ref)

    ours, theirs = side_by_side(bench.runs, rollbook, bare)
    assert shape is not None
    for ref in made[:-1] if keep else made:
        stores.remove(ref)
    bench.add(Row(
        "run", kind, campaign.ruleset, scale_of(size),
        f"`rollbook run`, one transaction per command ({shape.events / size:.1f} events, "
        f"{shape.mean_state_bytes:.0f} B each)",
        "commands/s", ours, "bare eventsourcing, same saves", theirs,
        [o / t for o, t in zip(ours, theirs, strict=True)],
    ))
    if kind == "sqlite" and bench.info:
        measure_raw_sqlite(bench, campaign, shape, ours)
        measure_group_commit(bench, campaign, ours)
    return made[-1], shape


#: The group sizes `run --group-commit` is measured at (information: the issue sets no target).
GROUP_COMMITS = (10, 100)


def measure_group_commit(bench: Bench, campaign: Campaign, ours: list[float]) -> None:
    """`rollbook run --group-commit N` on SQLite, against the default run measured just before."""
    stores = bench.stores["sqlite"]
    size = len(campaign.commands)
    for group in GROUP_COMMITS:
        samples = []
        for run in range(bench.runs):
            ref = stores.fresh(f"group_{group}")
            bench.say(f"  [sqlite {scale_of(size)}] rollbook run --group-commit {group} #{run + 1}")
            try:
                samples.append(size / rollbook_run(ref.url, campaign.jsonl(), group_commit=group))
            finally:
                stores.remove(ref)
        bench.add(Row(
            "group-commit", "sqlite", campaign.ruleset, scale_of(size),
            f"`rollbook run --group-commit {group}`: {group} commands per transaction",
            "commands/s", samples, "`rollbook run`, one transaction per command", ours,
            [s / o for s, o in zip(samples, ours, strict=True)], status="info",
        ))


def measure_raw_sqlite(bench: Bench, campaign: Campaign, shape: baselines.Shape, ours: list[float]) -> None:
    """The physical limit: the same rows through `sqlite3`, per command and in one transaction."""
    size = len(campaign.commands)
    path = bench.workdir / "raw.db"
    for per_command, label in ((True, "one transaction per command"), (False, "all in one transaction")):
        bench.say(f"  [sqlite {scale_of(size)}] raw sqlite3, {label}")
        samples = [size / baselines.raw_sqlite(path, shape, per_command=per_command) for _ in range(bench.runs)]
        bench.add(Row(
            "raw", "sqlite", campaign.ruleset, scale_of(size), f"raw `sqlite3`, same rows, {label}",
            "commands/s", samples, "Rollbook `run` / raw", [],
            [o / s for o, s in zip(ours, samples, strict=True)], status="info",
            note=f"{shape.events / size * statistics.median(samples):,.0f} rows/s",
        ))


# --- import ---------------------------------------------------------------------------------


def measure_import(bench: Bench, campaign: Campaign, kind: str, source: StoreRef, shape: baselines.Shape) -> None:
    """`rollbook import` of an exported history vs a bare Application saving 100 commands per save."""
    stores = bench.stores[kind]
    size = len(campaign.commands)
    why = bench.missing("export") or bench.missing("import")
    history = bench.workdir / f"export_{campaign.ruleset}_{size}.jsonl"
    if why is None:
        done = bench.cli("export", "--campaign", campaign.campaign, "--store", source.url)
        history.write_text(done.stdout)

    def rollbook(run: int) -> float:
        ref = stores.fresh("import")
        bench.say(f"  [{kind} {scale_of(size)}] rollbook import #{run + 1}")
        try:
            return size / bench.timed_cli("-q", "import", str(history), "--store", ref.url)["wall"]
        finally:
            stores.remove(ref)

    def bare(run: int) -> float:
        ref = stores.fresh("bare_batch")
        bench.say(f"  [{kind} {scale_of(size)}] bare eventsourcing, batches of 100 #{run + 1}")
        try:
            return size / baselines.bare_saves(ref.env, shape, batch=100)
        finally:
            stores.remove(ref)

    row = Row("import", kind, campaign.ruleset, scale_of(size), "`rollbook import` (batched)", "commands/s",
              baseline="bare eventsourcing, 100 commands' events per save")
    if why is None:
        row.values, row.baseline_values = side_by_side(bench.runs, rollbook, bare)
        row.ratios = [o / t for o, t in zip(row.values, row.baseline_values, strict=True)]
    else:
        row.baseline_values = [bare(run) for run in range(bench.runs)]
        row.status, row.note = "not available yet", why
    history.unlink(missing_ok=True)
    bench.add(row)


# --- projections ----------------------------------------------------------------------------


def measure_rebuild(bench: Bench, ref: StoreRef, ruleset: str, *, memory: bool) -> None:
    """Rebuilding every projection vs reading and decoding the same notifications; and peak RSS."""
    from rollbook.projections.queries import Reader
    from rollbook.store import Store

    events = 0

    def rollbook(run: int) -> float:
        nonlocal events
        bench.say(f"  [{ref.kind}] rollbook rebuild #{run + 1}")
        store = Store.open(ref.url)
        try:
            reader = Reader(store)
            started = time.perf_counter()
            events = reader.rebuild()
            return events / (time.perf_counter() - started)
        finally:
            store.close()

    def bare(run: int) -> float:
        bench.say(f"  [{ref.kind}] bare read-and-decode #{run + 1}")
        store = Store.open(ref.url)
        try:
            seconds, count = baselines.bare_read_decode(store.app)
            return count / seconds
        finally:
            store.close()

    ours, theirs = side_by_side(bench.runs, rollbook, bare)
    scale = scale_of(events, "events")
    row = bench.add(Row(
        "rebuild", ref.kind, ruleset, scale, "`rollbook rebuild` (all projections)", "events/s",
        ours, "bare read-and-decode of the same notifications", theirs,
        [o / t for o, t in zip(ours, theirs, strict=True)],
    ))
    if events < 1_000_000:
        row.note = "target is stated at 1M events"
    if memory:
        peaks = []
        for run in range(bench.runs):
            bench.say(f"  [{ref.kind}] peak RSS of `rollbook rebuild` #{run + 1}")
            peaks.append(bench.timed_cli("rebuild", "--store", ref.url)["peak_mb"])
        bench.add(Row("rebuild-memory", ref.kind, ruleset, scale, "peak RSS of `rollbook rebuild` (own process)", "MB",
                      peaks, note="" if events >= 1_000_000 else "target is stated at 1M events"))


# --- reading --------------------------------------------------------------------------------


def catch_up(ref: StoreRef) -> int:
    from rollbook.projections.queries import Reader
    from rollbook.store import Store

    store = Store.open(ref.url)
    try:
        return Reader(store).catch_up()
    finally:
        store.close()


def measure_startup(bench: Bench, ref: StoreRef, campaign: Campaign, events: int) -> None:
    """`rollbook sheet` and a one-command `rollbook post` as a user runs them: a new process, wall
    time, projections caught up; beside a process that only imports eventsourcing and pydantic."""
    args = ("sheet", campaign.sheet, "--campaign", campaign.campaign, "--json", "--store", ref.url)
    bench.cli(*args)  # warm the disk cache once, as a user's second look would be
    samples = max(bench.runs, 5)

    def imports(run: int) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", IMPORTS], check=True)
        return time.perf_counter() - started

    def row(what: str, verb: Callable[[int], float]) -> None:
        bench.say(f"  [{ref.kind}] start-up of {what} x{samples}")
        ours, theirs = side_by_side(samples, verb, imports)
        bench.add(Row(
            "startup", ref.kind, campaign.ruleset, scale_of(events, "events"), f"{what}, new process, wall", "s",
            ours, f"`python -c \"{IMPORTS}\"`", theirs, [o / t for o, t in zip(ours, theirs, strict=True)],
        ))

    row("`rollbook sheet NAME --json`", lambda run: bench.timed_cli(*args)["wall"])
    post = _a_post(campaign)
    if post is not None:
        def posted(run: int | str, minutes: int) -> float:
            return float(bench.timed_cli(
                "-q", "post", *post, "--campaign", campaign.campaign, "--id", f"bench-post-{run}",
                "--at", _after(campaign, minutes=minutes), "--allow-future", "--store", ref.url,
            )["wall"])

        from . import floor

        before = floor.head(ref.url)
        posted("warm", 1)  # as the sheet's: the disk cache, and the post's own modules compiled once
        row("one-command `rollbook post`", lambda run: posted(run, run + 2))
        floor.measure(bench, ref, campaign.ruleset, scale_of(events, "events"), before, imports, samples)


def _after(campaign: Campaign, *, minutes: int) -> str:
    """A time `minutes` after the campaign's last command: a long generated campaign's clock runs decades past
    today, and a post may not be earlier than the command before it."""
    from datetime import datetime, timedelta

    return (datetime.fromisoformat(campaign.commands[-1]["at"]) + timedelta(minutes=minutes)).isoformat()


def _a_post(campaign: Campaign) -> list[str] | None:
    """A command legal at any point of a generated pirate campaign, as `rollbook post` words."""
    ships = [c["name"] for c in campaign.commands if c["type"] == "create_ship"]
    return ["gain_money", f"to={ships[0]}", "chests=1", "reason=bench"] if ships else None


def measure_at(bench: Bench, ref: StoreRef, campaign: Campaign, events: int) -> None:
    """A sheet at random past positions vs the current sheet, the same verb in the same process."""
    row = Row("at", ref.kind, campaign.ruleset, scale_of(events, "events"),
              "`rollbook sheet --at POSITION`, random past points", "s",
              baseline="`rollbook sheet` (current)")
    why = bench.missing("sheet", "--at")
    if why is not None:
        row.status, row.note = "not available yet", why
        bench.add(row)
        return
    from typer.testing import CliRunner

    from rollbook.cli import app

    runner = CliRunner()
    base = ["sheet", campaign.sheet, "--campaign", campaign.campaign, "--json", "--store", ref.url]
    points = random.Random(11).sample(range(1, events + 1), k=max(bench.runs, 10))

    def invoke(args: list[str]) -> float:
        started = time.perf_counter()
        result = runner.invoke(app, args)
        if result.exit_code != 0:
            raise BenchError(f"rollbook {' '.join(args)}: {result.output.strip()[-300:]}")
        return time.perf_counter() - started

    invoke(base)
    bench.say(f"  [{ref.kind}] sheet --at x{len(points)}")
    ours, theirs = side_by_side(len(points), lambda i: invoke([*base, "--at", str(points[i])]), lambda i: invoke(base))
    row.values, row.baseline_values = ours, theirs
    row.ratios = [o / t for o, t in zip(ours, theirs, strict=True)]
    bench.add(row)


def measure_replay(bench: Bench, ref: StoreRef, campaign: Campaign) -> None:
    """`replay --verify` throughput, and `dispute --dry-run` of an early roll vs `replay`."""
    size = len(campaign.commands)
    replay = Row("replay", ref.kind, campaign.ruleset, scale_of(size),
                 "`rollbook replay --verify`, new process, wall", "commands/s")
    memory = Row("replay-rss", ref.kind, campaign.ruleset, scale_of(size),
                 "peak RSS of `rollbook replay --verify` (the `memory` row has its target, at 1M)", "MB",
                 status="info")
    replay.baseline = "parse and decide alone, in memory (`bench.ceiling`, new process)"
    why = bench.missing("replay", "--verify")
    if why is None:

        def verified(run: int) -> float:
            bench.say(f"  [{ref.kind}] replay --verify #{run + 1}")
            result = bench.timed_cli("replay", "--campaign", campaign.campaign, "--verify", "--store", ref.url)
            memory.values.append(result["peak_mb"])
            return size / result["wall"]

        def ceiling(run: int) -> float:
            bench.say(f"  [{ref.kind}] parse and decide alone #{run + 1}")
            done = subprocess.run([sys.executable, "-m", "bench.ceiling", ref.url, campaign.campaign],
                                  capture_output=True, text=True, cwd=Path(__file__).parent.parent, check=True)
            return float(json.loads(done.stdout)["rate"])

        replay.values, replay.baseline_values = side_by_side(bench.runs, verified, ceiling)
        replay.ratios = [o / t for o, t in zip(replay.values, replay.baseline_values, strict=True)]
    else:
        replay.status = memory.status = "not available yet"
        replay.note = memory.note = why
    bench.add(replay)
    bench.add(memory)

    dispute = Row("dispute", ref.kind, campaign.ruleset, scale_of(size),
                  "`rollbook dispute ROLL --dry-run`, a roll near the start", "s",
                  baseline="`rollbook replay` of the same campaign")
    why = bench.missing("dispute", "--dry-run") or bench.missing("replay")
    if why is None:
        roll = campaign.early_rolls[0]

        def disputed(run: int) -> float:
            bench.say(f"  [{ref.kind}] dispute --dry-run #{run + 1}")
            return bench.timed_cli(
                "dispute", roll, "--campaign", campaign.campaign, "--faces", "1,1", "--reason", "benchmark",
                "--actor", "auditor:bench", "--dry-run", "--store", ref.url,
            )["wall"]

        def replayed(run: int) -> float:
            bench.say(f"  [{ref.kind}] replay #{run + 1}")
            return bench.timed_cli("replay", "--campaign", campaign.campaign, "--store", ref.url)["wall"]

        dispute.values, dispute.baseline_values = side_by_side(bench.runs, disputed, replayed)
        dispute.ratios = [o / t for o, t in zip(dispute.values, dispute.baseline_values, strict=True)]
    else:
        dispute.status, dispute.note = "not available yet", why
    bench.add(dispute)
