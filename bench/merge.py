"""`python -m bench.merge RUN.json[@MEASURES] ... [--results FILE]`: one RESULTS.md from runs split across processes.

A whole `python -m bench` takes hours on a shared 2-core machine. Its parts can run as separate
processes (`--rulesets`, `--measures`, each with `--json --results -` and its own `--workdir`),
and their JSON outputs are combined here: every row as it was measured, the commands that made
them, the machine of the first run, the fsync latency at the start of the first run given and at
the end of the last (each row keeps the `fsync ms` taken just before it). A row measured again by a
later run (same measure, store, ruleset, scale and what) replaces the earlier one. Runs of different
commits are refused, their rows would not describe one build, unless `--mixed-commits`: then the
header names each run's commit and the measures it gave. `RUN.json@startup,memory` takes only those
measures of that run (say, the rows a later run re-measured after a fix), and the header says so.
A published `RESULTS.md[@MEASURES]` stands for the run its table shows (bench/published.py): the rows
of an earlier run whose JSON is gone, kept beside those measured again.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .published import read_published
from .report import table, write_results
from .targets import Row

HERE = Path(__file__).parent


def merged(runs: list[dict[str, Any]], *, mixed_commits: bool = False) -> tuple[list[Row], str, dict[str, Any]]:
    """(rows, command, meta) of the runs, in the order given; a later run's row replaces an earlier one's."""
    commits = {run["machine"]["commit"] for run in runs}
    if len(commits) != 1 and not mixed_commits:
        raise ValueError(f"the runs are of different commits ({', '.join(sorted(commits))}): run them on one build "
                         "(or say --mixed-commits)")
    kept: dict[tuple[str, ...], Row] = {}
    for run in runs:
        for row in run["rows"]:
            row = Row(**row)
            kept.pop(key := (row.measure, row.store, row.ruleset, row.scale, row.what), None)
            kept[key] = row
    command = " ; ".join(run["command"] for run in runs)
    meta = {**runs[0]["machine"], "fsync_end": runs[-1]["machine"]["fsync_end"]}
    if len(commits) != 1:
        meta["commit"] = ", ".join(
            f"{run['machine']['commit']} ({', '.join(sorted({r['measure'] for r in run['rows']}))})" for run in runs)
    return list(kept.values()), command, meta


def read_run(spec: str) -> dict[str, Any]:
    """A run's JSON; with `@MEASURES`, only those measures' rows, and its command says which were taken."""
    path, _, wanted = spec.partition("@")
    run = read_published(Path(path)) if path.endswith(".md") else json.loads(Path(path).read_text())
    if wanted:
        measures = set(wanted.split(","))
        unknown = measures - {row["measure"] for row in run["rows"]}
        if unknown:
            raise ValueError(f"{path} has no rows of {', '.join(sorted(unknown))}")
        run["rows"] = [row for row in run["rows"] if row["measure"] in measures]
        run["command"] += f" (its {', '.join(sorted(measures))} rows)"
    return run


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.merge", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+",
                        help="the JSON outputs of `python -m bench --json`, each FILE or FILE@MEASURE,MEASURE")
    parser.add_argument("--results", type=Path, default=HERE / "RESULTS.md", help="file to write (%(default)s)")
    parser.add_argument("--mixed-commits", action="store_true",
                        help="accept runs of different commits; the header names each run's commit and measures")
    args = parser.parse_args(argv)
    try:
        runs = [read_run(spec) for spec in args.runs]
        rows, command, meta = merged(runs, mixed_commits=args.mixed_commits)
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"bench.merge: {error}", file=sys.stderr)
        return 1
    write_results(args.results, rows, command, meta)
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
