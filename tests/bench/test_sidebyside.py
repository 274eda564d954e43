"""`bench.sidebyside`: the rows of several runs, a column each, with the conditions each was taken in."""

from __future__ import annotations

from dataclasses import asdict

from bench.sidebyside import conditions, table
from bench.targets import Row, judge


def _run(commit: str, p99: float, note: str) -> dict:
    row = judge(Row("serve-p99", "sqlite", "pirates", "1 campaign", "p99 of a post", "ms", [p99, p99 + 2], note=note))
    return {"command": "python -m bench --measures serve", "machine": {"date": "today", "commit": commit},
            "rows": [asdict(row)]}


def test_each_run_is_a_column_of_the_same_row_with_its_verdict_and_conditions():
    note = "run 1: load 3.20→4.10; clients' CPU 0.50 s in 2.00 s (25% of a core)"
    shown = table([("before", _run("aaa", 120.0, note)), ("after", _run("bbb", 30.0, ""))])
    lines = shown.splitlines()
    assert "commit aaa" in lines[0] and "commit bbb" in lines[1]
    row = next(line for line in lines if line.startswith("| p99 of a post"))
    before, after = row.split(" | ")[3:5]
    assert "**not met**" in before and "load 3.2–4.1, CPU here 25–25 % of a core" in before
    assert "**met**" in after


def test_a_note_without_conditions_says_none():
    assert conditions("the same runs as serve-sqlite's") == ""
