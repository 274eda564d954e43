"""Profile one Rollbook measure with cProfile: where its time goes.

    python -m bench.profile run --size 10000 --store sqlite     # command handling
    python -m bench.profile rebuild --size 10000                # projections from scratch
    python -m bench.profile sheet --size 10000                  # one `rollbook sheet` (imports included)
    python -m bench.profile replay --size 10000                 # `replay --verify`, in process

Prints the functions with the most time of their own and the most time below them;
`--output FILE` also keeps the raw profile for snakeviz/pstats.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import sys
from pathlib import Path

from . import measures
from .sampling import quiet_logging
from .generate import generate
from .stores import DEFAULT_POSTGRES, Stores


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("run", "rebuild", "sheet", "replay"))
    parser.add_argument("--ruleset", default="pirates")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--store", default="sqlite", choices=("sqlite", "postgres", "memory"))
    parser.add_argument("--postgres", default=os.environ.get("BENCH_POSTGRES", DEFAULT_POSTGRES))
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--output", type=Path)
    args = parser.parse_args(argv)

    workdir = Path(__file__).parent / ".work"
    workdir.mkdir(exist_ok=True)
    os.environ.setdefault("ROLLBOOK_SECRETS", str(workdir / "secrets"))
    quiet_logging()
    stores = Stores(args.store, workdir, postgres=args.postgres)
    ref = stores.fresh("profile")
    raw = generate(args.ruleset, args.size).jsonl()
    profiler = cProfile.Profile()
    try:
        if args.what == "run":
            profiler.runcall(measures.rollbook_run, ref.url, raw)
        else:
            measures.rollbook_run(ref.url, raw)
            if args.what == "replay":
                from rollbook.replay.replayer import replay
                from rollbook.store import Store

                store = Store.open(ref.url)
                profiler.runcall(replay, store, f"bench-{args.ruleset}", verify=True)
                store.close()
            elif args.what == "rebuild":
                from rollbook.projections.queries import Reader
                from rollbook.store import Store

                store = Store.open(ref.url)
                profiler.runcall(Reader(store).rebuild)
                store.close()
            else:
                measures.catch_up(ref)
                sheet = ["sheet", "Pirate1", "-c", f"bench-{args.ruleset}", "--json", "--store", ref.url]
                profiler.runcall(_cli_in_fresh_modules, sheet)
    finally:
        stores.remove(ref)
    if args.output:
        profiler.dump_stats(args.output)
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(args.top)
        print(out.getvalue())
    return 0


def _cli_in_fresh_modules(args: list[str]) -> None:
    """`rollbook ARGS` as a new process would run it: Rollbook's modules imported afresh."""
    for name in [m for m in sys.modules if m == "rollbook" or m.startswith("rollbook.")]:
        del sys.modules[name]
    from rollbook.cli import app

    app(args, standalone_mode=False)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
