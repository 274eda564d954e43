"""The results table (Markdown), its JSON form, and bench/RESULTS.md.

RESULTS.md keeps whatever is written outside the markers (the profile notes); the harness
replaces only what is between them with the latest run and the command that produced it.
"""

from __future__ import annotations

import json
import platform
import statistics
import subprocess
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .disk import PROBE, described
from .targets import Row, summary

START, END = "<!-- bench:results:start -->", "<!-- bench:results:end -->"
HEADER = "# Benchmark results\n\nWritten by `python -m bench` (see README, \"Benchmarks\").\n\n"


def number(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.3f}"
    if unit == "ratio":
        return f"{value:.2f}"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.1f}"


def spread(samples: list[float], unit: str) -> str:
    if not samples:
        return "—"
    median = number(statistics.median(samples), unit)
    if len(samples) == 1:
        return median
    return f"{median} ({number(min(samples), unit)}–{number(max(samples), unit)})"


def verdict(row: Row) -> str:
    if row.status in ("not available yet", "failed"):
        return row.status
    if row.status == "info" or not row.target:
        return "info"
    return {True: "**met**", False: "**not met**", None: "—"}[row.met]


def targets(rows: list[Row]) -> str:
    """One line per target: met when every row of it is, with the issue that set it."""
    lines = ["| target | issue | measure | result |", "|---|---|---|---|"]
    for name, target, result in summary(rows):
        lines.append(f"| {target.text} | {target.issue} | `{name}` | {result} |")
    return "\n".join(lines) + "\n"


def table(rows: list[Row]) -> str:
    lines = [
        "| measure | store | ruleset | scale | Rollbook: median (min–max) | baseline: median (min–max) "
        "| ratio (min–max) | target | result | fsync ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ours = f"{spread(r.values, r.unit)} {r.unit}" if r.values else "—"
        theirs = f"{r.baseline}: {spread(r.baseline_values, r.unit)}" if r.baseline and r.baseline_values else (
            r.baseline or "—")
        fsync = "—" if r.fsync_ms is None or r.store == "memory" else f"{r.fsync_ms:.2f}"
        lines.append(
            f"| {r.what} | {r.store} | {r.ruleset} | {r.scale} | {ours} | {theirs} "
            f"| {spread(r.ratios, 'ratio')} | {r.target or '—'} | {verdict(r)} | {fsync} |"
        )
    notes = [f"- {r.measure} ({r.store}, {r.ruleset}, {r.scale}): {r.note}" for r in rows if r.note]
    return ("### Targets\n\n" + targets(rows) + "\n### Rows\n\n" + "\n".join(lines)
            + ("\n\nNotes:\n" + "\n".join(notes) if notes else "") + "\n")


def header(meta: dict[str, Any]) -> str:
    """The machine, and the disk's fsync latency at the start and the end of the run."""
    return (
        f"{meta['date']} · commit {meta['commit']} · Python {meta['python']} · eventsourcing "
        f"{meta['eventsourcing']} · {meta['cpus']} CPUs · {meta['platform']}"
        + (f" · {meta['postgres']}" if meta.get("postgres") else "")
        + (f" · {meta['bytecode']}" if meta.get("bytecode") else "")
        + (f" · {meta['busy_core']}" if meta.get("busy_core") else "")
        + f"\n\nfsync of 4 KiB in the stores' folder, median (min–max) of 50: {described(meta['fsync_start'])} "
        f"at the start, {described(meta['fsync_end'])} at the end; the rows' `fsync ms` column is the median of "
        f"{PROBE} taken just before each measure"
    )


def machine() -> dict[str, Any]:
    import os
    from importlib.metadata import version

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], capture_output=True, text=True, cwd=Path(__file__).parent)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD")
    if commit:
        commit += " (with uncommitted changes)" if git("status", "--porcelain", "--untracked-files=no") else ""
    else:  # run from an exported tree (git archive): the exporter says which commit it was
        commit = os.environ.get("BENCH_COMMIT", "unknown")
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": commit,
        "python": platform.python_version(),
        "eventsourcing": version("eventsourcing"),
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
    }


def as_json(rows: list[Row], command: str, meta: dict[str, Any]) -> str:
    verdicts = [{"target": name, "issue": t.issue, "text": t.text, "result": result.replace("*", "")}
                for name, t, result in summary(rows)]
    return json.dumps({"command": command, "machine": meta, "targets": verdicts, "rows": [asdict(r) for r in rows]},
                      indent=2)


def write_results(path: Path, rows: list[Row], command: str, meta: dict[str, Any]) -> None:
    body = (
        f"{START}\n## Latest run\n\n`{command}`\n\n"
        + header(meta)
        + "\n\nRates are medians over the runs with min–max; each ratio is Rollbook ÷ its baseline "
        "measured side by side in the same run (for times, the ratio is of times: lower is better).\n\n"
        f"{table(rows)}\n{END}"
    )
    old = path.read_text() if path.exists() else HEADER + START + "\n" + END + "\n"
    if START in old and END in old:
        text = old[: old.index(START)] + body + old[old.index(END) + len(END):]
    else:
        text = old.rstrip() + "\n\n" + body + "\n"
    path.write_text(text)
