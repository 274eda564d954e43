"""`python -m bench`: generate campaigns, measure every target side by side, write RESULTS.md.

    python -m bench                                  # 1k, 10k, 100k commands; 3 runs; SQLite and PostgreSQL
    python -m bench --quick                          # smoke run: 1k commands, 1 run, SQLite; writes no RESULTS.md
    python -m bench --only-targets                   # the rows with a target only, for pirates and heroes
    python -m bench --sizes 10000 --runs 5 --stores sqlite --json

Every target (bench/targets.py, with the issue that set it) gets a row per store, ruleset and
scale, and a line of the summary: met, not met, or information.
"""

from __future__ import annotations

import argparse
import os
import shlex
import signal
import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from . import flat, measures, memory, odds, serve, suite, tlog, userrun, web
from .baselines import Shape
from .big import big_store
from .conditions import busy_core
from .disk import PROBE, fsync_latency
from .generate import Campaign, available, generate
from .sampling import Bench, BenchError, quiet_logging, scale_of
from .report import as_json, header, machine, table, write_results
from .stores import DEFAULT_POSTGRES, StoreRef, Stores
from .targets import Row

HERE = Path(__file__).parent
#: Seconds `--busy-core`'s spinning process lives at most, should the bench die without stopping it.
WHOLE_RUN_LIMIT = 2 * 3600.0


MEASURES = ("run", "loaded", "flat", "odds", "page", "import", "startup", "at", "replay", "rebuild", "memory", "serve",
            "suite", "tlog")
#: The measures that play their own campaigns (or none): asked alone, no `run` store is built for them.
OWN_CAMPAIGNS = ("flat", "loaded", "memory", "serve", "suite", "tlog")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default=None, help="campaign sizes in commands (default 1000,10000,100000)")
    parser.add_argument("--runs", type=int, default=None, help="runs per measure; medians and min–max (default 3)")
    parser.add_argument("--stores", default=None, help="sqlite,postgres (default both)")
    parser.add_argument("--rulesets", default=None,
                        help="rulesets to generate (default: every one with a generator); the first gets every "
                             "measure, the others `rollbook run`")
    parser.add_argument("--all-sizes", default="pirates,heroes",
                        help="rulesets whose `run` is measured at every size (default %(default)s: issue 22's)")
    parser.add_argument("--other-max-size", type=int, default=10_000,
                        help="largest size measured for the other rulesets (default %(default)s)")
    parser.add_argument("--measures", default=None,
                        help=f"only these measures, comma-separated ({','.join(MEASURES)}; default every one): "
                             "`run` runs unless only measures that play their own campaigns are asked "
                             f"({', '.join(OWN_CAMPAIGNS)}): the others after it need its store")
    parser.add_argument("--only-targets", action="store_true",
                        help="measure and show only rows with a target: no raw sqlite3 rows, no informational "
                             "peak RSS at the campaign's size, no ruleset outside --all-sizes")
    parser.add_argument("--flat", default="pirates,heroes",
                        help="rulesets whose cost per command, first tenth against last, is measured at the largest "
                             "size (default %(default)s; - for none)")
    parser.add_argument("--flat-store", default="sqlite", choices=("sqlite", "memory"),
                        help="the store those campaigns are played on (default %(default)s; see bench/flat.py on memory)")
    parser.add_argument("--busy-core", action="store_true",
                        help="keep one core busy beside the whole run (a bounded spinning process): the `loaded` "
                             "conditions, for measures that have no loaded column of their own")
    parser.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 1k commands, 1 run, SQLite, no 1M store, a small memory file, the fast tier "
                             "of tests/bench only, 2 moves a client; every target gets a row, at smaller scales")
    parser.add_argument("--rebuild-events", type=int, default=None,
                        help="events in the store the rebuild measures use (default 1,000,000; "
                             "0: the largest campaign's store)")
    parser.add_argument("--memory-commands", type=int, default=None,
                        help="commands in the file of the memory measure (default 1,000,000, the target's size; "
                             "2,000 with --quick)")
    parser.add_argument("--memory-runs", type=int, default=1, help="runs of the memory measure (default %(default)s)")
    parser.add_argument("--suite-runs", type=int, default=None,
                        help="runs of the fast tier (default 2; 1 with --quick)")
    parser.add_argument("--tlog-size", type=int, default=None,
                        help="commands of the transparency log's proof and checkpoint rows (default 1,000,000; "
                             "1,000 with --quick)")
    parser.add_argument("--clients", type=int, default=20, help="clients of the serve measure (default %(default)s)")
    parser.add_argument("--moves", type=int, default=None, help="moves each client posts (default 10; 2 with --quick)")
    parser.add_argument("--streams", type=int, default=None,
                        help="live pages, and as many `/events` streams, held open by the serve measure (default "
                             f"{serve.STREAMS}; 10 with --quick)")
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES", DEFAULT_POSTGRES),
                        help="PostgreSQL URL; each measure gets its own schema (default %(default)s)")
    parser.add_argument("--workdir", type=Path, default=HERE / ".work", help="where stores are kept (%(default)s)")
    parser.add_argument("--results", default=None,
                        help="file to write (default bench/RESULTS.md; with --quick, none); - for none")
    args = parser.parse_args(argv)
    quick = args.quick
    args.sizes = [int(s) for s in (args.sizes or ("1000" if quick else "1000,10000,100000")).split(",")]
    args.runs = args.runs or (1 if quick else 3)
    args.stores = (args.stores or ("sqlite" if quick else "sqlite,postgres")).split(",")
    args.rebuild_events = args.rebuild_events if args.rebuild_events is not None else (0 if quick else 1_000_000)
    args.memory_commands = args.memory_commands or (2_000 if quick else memory.STATED)
    args.suite_runs = args.suite_runs or (1 if quick else 2)
    args.suite_paths = suite.QUICK if quick else []
    args.moves = args.moves or (2 if quick else 10)
    args.streams = args.streams if args.streams is not None else (10 if quick else serve.STREAMS)
    args.tlog_size = args.tlog_size or (1_000 if quick else 1_000_000)
    args.measures = None if args.measures is None else set(args.measures.split(","))
    if args.measures is not None and args.measures - set(MEASURES):
        parser.error(f"unknown measures: {', '.join(sorted(args.measures - set(MEASURES)))}")
    args.all_sizes = args.all_sizes.split(",")
    args.results = args.results or ("-" if quick else str(HERE / "RESULTS.md"))
    return args


def attempt(bench: Bench, measure: str, where: tuple[str, str, str], call: Any, *args: Any, **kwargs: Any) -> Any:
    """Run one measure with the disk's fsync latency just before it; if it fails, a row says why and the run
    goes on with the next one."""
    probe = fsync_latency(bench.workdir, samples=PROBE)["median_ms"]
    before = len(bench.rows)
    try:
        return call(*args, **kwargs)
    except Exception as error:  # a refused campaign, a verb that crashed, a lost server...
        bench.say(f"  {measure} failed: {error}")
        kind, ruleset, scale = where
        bench.add(Row(measure, kind, ruleset, scale, f"`{measure}`", "", status="failed",
                      note=f"{type(error).__name__}: {str(error)[:300]}"))
        return None
    finally:
        for row in bench.rows[before:]:
            row.fsync_ms = probe


def main(argv: list[str]) -> int:
    args = parse(argv)
    # A bench stopped with SIGTERM still stops what it started (servers, a busy core): their `finally` blocks run.
    signal.signal(signal.SIGTERM, lambda number, frame: sys.exit(128 + number))
    with busy_core(seconds=WHOLE_RUN_LIMIT) if args.busy_core else nullcontext():
        return measure_all(args, argv)


def measure_all(args: argparse.Namespace, argv: list[str]) -> int:

    def measuring(measure: str) -> bool:
        return args.measures is None or measure in args.measures

    needs_run = args.measures is None or not set(args.measures) <= set(OWN_CAMPAIGNS)
    command = "python -m bench " + shlex.join(argv) if argv else "python -m bench"
    args.workdir.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("ROLLBOOK_SECRETS", str(args.workdir / "secrets"))
    quiet_logging()

    bench = Bench(runs=args.runs, workdir=args.workdir, stores={}, info=not args.only_targets)
    # New processes keep their compiled modules, as an installed package does (pip compiles a wheel's at
    # install). Under PYTHONDONTWRITEBYTECODE (some sandboxes set it) every Rollbook process would compile
    # its own sources again while the baselines' libraries kept their bytecode: start-up rows would time
    # the compiler. (The first, warming run of each verb writes the cache.)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    meta = {**machine(), "bytecode": "new processes write and reuse compiled modules",
            **({"busy_core": "one core kept busy beside the whole run"} if args.busy_core else {})}
    meta["fsync_start"] = fsync_latency(args.workdir)
    for kind in args.stores:
        stores = Stores(kind, args.workdir, postgres=args.postgres)
        why = stores.available()
        if why is None:
            bench.stores[kind] = stores
            if kind == "postgres":
                meta["postgres"] = stores._sql("SHOW server_version")[0][0]
                meta["postgres"] = f"PostgreSQL {meta['postgres']}"
        else:
            bench.add(Row("run", kind, "—", "—", "every measure", "", status="not available yet", note=why))

    rulesets = available()
    if args.rulesets:
        wanted = args.rulesets.split(",")
        for name in sorted(set(wanted) - set(rulesets)):
            bench.add(Row("run", "—", name, "—", "every measure", "", status="not available yet",
                          note=f"no generator or no commands for {name} in this build yet"))
        rulesets = [r for r in rulesets if r in wanted]
    if args.only_targets:
        rulesets = [r for r in rulesets if r in args.all_sizes]

    for number, ruleset in enumerate(rulesets):
        # The first ruleset gets every measure; those of --all-sizes `rollbook run` at every size, the others up
        # to --other-max-size.
        every = number == 0 or ruleset in args.all_sizes
        sizes = sorted(args.sizes) if every else [s for s in sorted(args.sizes) if s <= args.other_max_size]
        # The page's target is stated at 10k commands: the size nearest to it.
        page_size = min(sizes, key=lambda s: abs(s - web.STATED), default=None)
        bench.say(f"{ruleset}: {', '.join(map(str, sizes)) or 'no size'}")
        kept: dict[str, tuple[StoreRef, Shape, Campaign]] = {}
        if ruleset in args.all_sizes and "sqlite" in bench.stores and page_size is not None and measuring("loaded"):
            # The pipelined writer exists on SQLite only; the quiet/loaded figures are at 10k.
            attempt(bench, "loaded", ("sqlite", ruleset, scale_of(page_size)), userrun.measure_loaded, bench,
                    generate(ruleset, page_size), "sqlite")
        if ruleset in args.flat.split(",") and measuring("flat"):
            largest = max(args.sizes)
            attempt(bench, "flat", (args.flat_store, ruleset, scale_of(largest)), flat.measure_flat, bench,
                    generate(ruleset, largest), args.flat_store)
        for size in sizes if needs_run else ():
            campaign = generate(ruleset, size)
            for kind in bench.stores:
                where = (kind, ruleset, scale_of(size))
                ran = attempt(bench, "run", where, measures.measure_run, bench, campaign, kind, keep=True)
                if ran is None:
                    continue
                ref, shape = ran
                if size == sizes[-1] and measuring("odds"):
                    attempt(bench, "odds", where, odds.measure_odds, bench, ref, campaign)
                if number == 0 and size == page_size and kind == "sqlite" and measuring("page"):
                    attempt(bench, "page", where, web.measure_page, bench, ref, campaign)
                if number == 0 and measuring("import"):
                    attempt(bench, "import", where, measures.measure_import, bench, campaign, kind, ref, shape)
                if number == 0 and size == sizes[-1]:
                    kept[kind] = (ref, shape, campaign)
                else:
                    bench.stores[kind].remove(ref)
        for kind, (ref, shape, campaign) in kept.items():
            where = (kind, ruleset, scale_of(len(campaign.commands)))
            events = measures.catch_up(ref)
            if measuring("startup"):
                attempt(bench, "startup", where, measures.measure_startup, bench, ref, campaign, events)
            if measuring("at"):
                attempt(bench, "at", where, measures.measure_at, bench, ref, campaign, events)
            if measuring("replay"):
                attempt(bench, "replay", where, measures.measure_replay, bench, ref, campaign)
            big: StoreRef | None = ref
            if not measuring("rebuild"):
                big = None
            elif args.rebuild_events and events < args.rebuild_events:
                big = attempt(bench, "rebuild", where, big_store, bench, kind, ruleset, args.rebuild_events,
                              shape.events / len(shape.saves))
            if big is not None:
                attempt(bench, "rebuild", where, measures.measure_rebuild, bench, big, ruleset, memory=True)
            bench.stores[kind].remove(ref)
        if number == 0 and measuring("memory"):
            attempt(bench, "memory", ("sqlite", ruleset, scale_of(args.memory_commands)),
                    memory.measure_memory, bench, ruleset, args.memory_commands, args.memory_runs)

    if measuring("serve"):
        for kind in bench.stores:
            attempt(bench, "serve", (kind, "pirates", f"{args.clients} clients"), serve.measure_serve, bench, kind,
                    args.clients, args.moves, args.streams)
    if measuring("tlog"):
        scale = scale_of(args.tlog_size)
        attempt(bench, "tlog-append", ("memory", "pirates", "20k commands"), tlog.measure_append, bench, args.runs)
        for kind in bench.stores:
            attempt(bench, "tlog-proof", (kind, "—", scale), tlog.measure_proofs, bench, kind, args.tlog_size, args.runs)
        attempt(bench, "tlog-checkpoint", ("sqlite", "pirates", scale), tlog.measure_checkpoint, bench, "sqlite",
                "pirates", args.tlog_size, args.runs)
    if measuring("suite"):
        attempt(bench, "suite", ("memory", "—", "fast tier"), suite.measure_suite, bench, args.suite_runs,
                args.suite_paths)

    meta["fsync_end"] = fsync_latency(args.workdir)
    rows = [r for r in bench.rows if r.target or not args.only_targets]
    if args.json:
        print(as_json(rows, command, meta))
    else:
        print(header(meta) + "\n\n" + table(rows))
    if args.results != "-":
        write_results(Path(args.results), rows, command, meta)
        bench.say(f"wrote {args.results}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as error:
        print(f"bench: {error}", file=sys.stderr)
        sys.exit(1)
