"""`python -m bench.sidebyside LABEL=RUN.json ...`: the rows of several runs in one table, a column each.

For figures taken before and after a change, or on a quiet machine and with a busy core: each row
(measure, store, ruleset, what) gets, per run, its median (min–max), the ratio where it has one,
met or not met against its target, and the load average and clients' CPU its note recorded
(bench/conditions.py), so a column is never read without the conditions it was taken in.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from .report import spread

_CONDITIONS = re.compile(r"load ([\d.]+)→([\d.]+); [^;]*?CPU [\d.]+ s in [\d.]+ s \((\d+)% of a core\)")


def conditions(note: str) -> str:
    """The load averages and the clients' share of a core over the runs a note tells of: `load 3.1–5.2, clients 20–45 %`."""
    found = _CONDITIONS.findall(note)
    if not found:
        return ""
    loads = [float(x) for start, end, _ in found for x in (start, end)]
    shares = [int(share) for *_, share in found]
    return (f"load {min(loads):.1f}–{max(loads):.1f}, CPU here {min(shares)}–{max(shares)} % of a core"
            if shares and max(shares) else f"load {min(loads):.1f}–{max(loads):.1f}")


def cell(row: dict[str, Any]) -> str:
    figure = f"{spread(row['values'], row['unit'])} {row['unit']}" if row["values"] else row["status"]
    if row["ratios"]:
        figure += f"; ratio {spread(row['ratios'], 'ratio')}"
    verdict = {True: "**met**", False: "**not met**"}.get(row["met"], "info" if row["status"] == "info" else "")
    said = conditions(row.get("note", ""))
    return " · ".join(part for part in (figure, verdict, said) if part)


def key(row: dict[str, Any]) -> tuple[str, str, str, str]:
    return row["measure"], row["store"], row["ruleset"], row["what"]


def table(runs: list[tuple[str, dict[str, Any]]]) -> str:
    order: list[tuple[str, str, str, str]] = []
    found: dict[tuple[str, str, str, str], dict[str, dict[str, Any]]] = {}
    for label, run in runs:
        for row in run["rows"]:
            if key(row) not in found:
                order.append(key(row))
                found[key(row)] = {}
            found[key(row)][label] = row
    labels = [label for label, _ in runs]
    lines = ["| row | store | target | " + " | ".join(labels) + " |",
             "|---|---|---|" + "---|" * len(labels)]
    for k in order:
        mine = found[k]
        any_row = next(iter(mine.values()))
        target = any_row["target"] or "—"
        cells = [cell(mine[label]) if label in mine else "—" for label in labels]
        lines.append(f"| {k[3]} ({k[2]}, {any_row['scale']}) | {k[1]} | {target} | " + " | ".join(cells) + " |")
    heads = [f"- {label}: `{run['command']}` · {run['machine']['date']} · commit {run['machine']['commit']}"
             + (f" · {run['machine']['busy_core']}" if run["machine"].get("busy_core") else "")
             for label, run in runs]
    return "\n".join(heads) + "\n\n" + "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sidebyside", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", metavar="LABEL=RUN.json", help="a column's label and a --json output")
    arguments = parser.parse_args(argv)
    runs = []
    for given in arguments.runs:
        label, _, path = given.partition("=")
        runs.append((label, json.loads(Path(path).read_text())))
    print(table(runs), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
