"""A run read back from a published RESULTS.md, for `bench.merge RESULTS.md@MEASURES`.

A run's JSON is gone with the machine that made it; its table stays in RESULTS.md. Each row is
read back as the table shows it: the median and the min–max, which `spread` prints again the
same (samples `[min, median, max]`, or the one value of a single run); its measure is that of the
target its `target` column names; its note from the notes under the table. The machine is the
table's header. Only rows with a target are read (an `--only-targets` table has no others).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from .report import END, START
from .targets import TARGETS, Row

_SPREAD = re.compile(r"^(?P<median>[\d,.]+)(?: \((?P<low>[\d,.]+)–(?P<high>[\d,.]+)\))?(?: (?P<unit>.+))?$")
_LATENCY = re.compile(r"([\d.]+) ms \(([\d.]+)–([\d.]+)\)")


def _samples(text: str) -> tuple[list[float], str]:
    found = _SPREAD.match(text.strip())
    if found is None:
        raise ValueError(f"not a median (min–max): {text!r}")
    median = float(found["median"].replace(",", ""))
    unit = found["unit"] or ""
    if found["low"] is None:
        return [median], unit
    return [float(found["low"].replace(",", "")), median, float(found["high"].replace(",", ""))], unit


def _measure(target: str) -> str:
    text, _, issue = target.rpartition(" (issue ")
    for named in TARGETS.values():
        if named.text == text and f"{named.issue})" == issue:
            return named.measure
    raise ValueError(f"no target reads {target!r}")


def _row(cells: list[str], notes: dict[tuple[str, str, str, str], list[str]]) -> Row:
    what, store, ruleset, scale, ours, theirs, ratio, target, result, fsync = cells
    values, unit = _samples(ours) if ours != "—" else ([], "")
    baseline, baseline_values = None, []
    if theirs != "—":
        baseline, _, spread = theirs.rpartition(": ")
        if not baseline:
            baseline, spread = theirs, ""
        try:
            baseline_values = _samples(spread)[0] if spread else []
        except ValueError:
            baseline, baseline_values = theirs, []
    measure = _measure(target)
    return Row(
        measure, store, ruleset, scale, what, unit, values, baseline, baseline_values,
        _samples(ratio)[0] if ratio != "—" else [], target, {"**met**": True, "**not met**": False}.get(result),
        "info" if result == "info" else "measured", _next_note(notes, (measure, store, ruleset, scale)),
        None if fsync == "—" else float(fsync),
    )


def _next_note(notes: dict[tuple[str, str, str, str], list[str]], key: tuple[str, str, str, str]) -> str:
    """Rows of the same measure, store, ruleset and scale (two peak RSS rows) take their notes in order."""
    waiting = notes.get(key)
    return waiting.pop(0) if waiting else ""


def read_published(path: Path) -> dict[str, Any]:
    """The run a RESULTS.md's latest block shows, as `python -m bench --json` gives one."""
    text = path.read_text()
    if START not in text or END not in text:
        raise ValueError(f"{path} has no results block")
    block = text[text.index(START):text.index(END)]
    command = re.search(r"^`(.+)`$", block, re.MULTILINE)
    stamp = re.search(r"^(\d{4}-\d\d-\d\d \d\d:\d\d UTC) · (.+)$", block, re.MULTILINE)
    latency = _LATENCY.findall(block.split("fsync of 4 KiB", 1)[1].split("\n", 1)[0]) if "fsync of 4 KiB" in block else []
    if command is None or stamp is None or len(latency) < 2:
        raise ValueError(f"{path}: its results block has no command, header or fsync line")
    parts = stamp[2].split(" · ")
    machine: dict[str, Any] = {"date": stamp[1], "commit": parts[0].removeprefix("commit "),
                               "python": parts[1].removeprefix("Python "),
                               "eventsourcing": parts[2].removeprefix("eventsourcing "),
                               "cpus": int(parts[3].split()[0]), "platform": parts[4],
                               "bytecode": parts[5] if len(parts) > 5 else ""}
    machine["fsync_start"], machine["fsync_end"] = (
        {"median_ms": float(a), "min_ms": float(b), "max_ms": float(c)} for a, b, c in latency[:2])
    rows_part = block.split("### Rows", 1)[1]
    notes: dict[tuple[str, str, str, str], list[str]] = {}
    for line in rows_part.splitlines():
        note = re.match(r"^- (\S+) \((\w+), ([^,]+), ([^)]+)\): (.+)$", line)
        if note:
            notes.setdefault((note[1], note[2], note[3], note[4]), []).append(note[5])
    rows = []
    for line in rows_part.splitlines():
        if not line.startswith("| ") or line.startswith("| measure |"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        rows.append(_row(cells, notes))
    return {"command": command[1], "machine": machine, "rows": [vars(row) for row in rows]}
