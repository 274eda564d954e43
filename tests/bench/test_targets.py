"""The harness judges each row by the issue's own targets, and a quick run gives every target a verdict."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.report import header, table
from bench.serve import POSTGRES_ONLY
from bench.targets import TARGETS, Row, judge, summary

ROOT = Path(__file__).parents[2]

#: Issue 22's "Targets", as (measure, on, low, high, rulesets); and the older issues' that still hold.
ISSUE_22 = {
    "run": ("run", "ratio", 0.85, None, ("pirates", "heroes")),
    "flat": ("flat", "ratio", 0.9, 1.1, ("pirates", "heroes")),
    "replay": ("replay", "ratio", 0.8, None, ()),
    "memory": ("memory", "value", None, 150, ()),
    "startup": ("startup", "ratio", None, 2.5, ()),
    # Shown beside it: the floor the fixed stack sets under that start-up (bench/floor.py), no bound.
    "startup-floor": ("startup-floor", "ratio", None, None, ()),
    "serve": ("serve", "ratio", None, None, ()),
    "suite": ("suite", "value", None, 120, ()),
}
OLDER = {
    "run-others": (7, "run", 0.8, None),
    "import": (7, "import", 0.5, None),
    "rebuild": (7, "rebuild", 0.6, None),
    "rebuild-memory": (7, "rebuild-memory", None, 300),
    "at": (7, "at", None, 10),
    "dispute": (7, "dispute", None, 2),
    "odds": (20, "odds", None, 0.05),
    "page": (21, "page", None, 0.3),
    "tlog-append": (34, "tlog-append", None, None),
    "tlog-proof": (34, "tlog-proof", None, None),
    "tlog-checkpoint": (34, "tlog-checkpoint", None, None),
}
#: Issue 32's: the server under load (on the ratio or the value, as the issue states each) and `run`'s two columns.
ISSUE_32 = {
    "serve-sqlite": ("ratio", 0.5, None),
    "serve-p99": ("value", None, 50),
    "serve-reads": ("value", None, 30),
    "serve-pg-1": ("value", None, None),
    "serve-pg-2": ("ratio", 1.6, None),
    "serve-pg-4": ("ratio", 2.5, None),
    "serve-pg-2-by-player": ("ratio", 1.6, None),
    "serve-pg-4-by-player": ("ratio", 2.5, None),
    "serve-shared": ("ratio", None, 4),
    "serve-lost": ("value", None, 0),
    "serve-streams-posts": ("value", None, 50),
    "serve-streams-reads": ("value", None, 30),
    "run-quiet": ("ratio", 0.85, None),
    "run-loaded": ("ratio", 0.85, None),
}


def test_the_targets_are_the_issues_numbers():
    assert set(TARGETS) == set(ISSUE_22) | set(OLDER) | set(ISSUE_32)
    for name, (measure, on, low, high, rulesets) in ISSUE_22.items():
        target = TARGETS[name]
        assert (target.issue, target.measure, target.on, target.low, target.high, target.rulesets) == (
            22, measure, on, low, high, rulesets), name
    for name, (issue, measure, low, high) in OLDER.items():
        target = TARGETS[name]
        assert (target.issue, target.measure, target.low, target.high) == (issue, measure, low, high), name
    for name, (on, low, high) in ISSUE_32.items():
        target = TARGETS[name]
        assert (target.issue, target.measure, target.on, target.low, target.high) == (32, name, on, low, high), name


def row(measure, ruleset="pirates", **numbers):
    return judge(Row(measure, "sqlite", ruleset, "1k commands", "what", "x", **numbers))


def test_a_row_is_judged_by_its_rulesets_target_on_its_median():
    assert row("run", ratios=[0.80, 0.86, 0.90]).met is True
    assert row("run", "heroes", ratios=[0.84]).met is False
    # Another ruleset's run keeps issue 7's target.
    other = row("run", "gladiators", ratios=[0.82])
    assert other.met is True and "issue 7" in other.target
    assert row("memory", values=[151.0]).met is False and row("memory", values=[149.0]).met is True


def test_flat_is_within_ten_percent_either_way():
    assert [row("flat", ratios=[r]).met for r in (0.89, 0.95, 1.10, 1.11)] == [False, True, True, False]


def test_a_target_without_a_bound_is_information_and_a_row_without_a_target_too():
    served = row("serve", values=[60.0])
    assert (served.status, served.met) == ("info", None) and "issue 22" in served.target
    raw = row("raw", values=[5000.0])
    assert (raw.status, raw.met, raw.target) == ("measured", None, "")
    grouped = row("group-commit", ratios=[2.0])  # `run --group-commit N`: the issue sets it no target
    assert (grouped.met, grouped.target) == (None, "")


def test_the_summary_gives_every_target_a_verdict():
    rows = [row("run", ratios=[0.9]), row("run", "heroes", ratios=[0.5]), row("memory", values=[100.0]),
            row("serve", values=[1.0]), row("odds", status="failed")]
    verdicts = {name: result for name, _, result in summary(rows)}
    assert set(verdicts) == set(TARGETS)
    assert verdicts["run"].startswith("**not met** (1 of 2")
    assert verdicts["memory"].startswith("**met**")
    assert verdicts["serve"] == "info"
    assert verdicts["odds"].startswith("failed")
    assert verdicts["page"] == "not measured in this run"


def test_the_table_shows_the_fsync_of_each_row_and_of_the_run():
    measured = row("run", ratios=[0.9])
    measured.fsync_ms = 3.25
    text = table([measured])
    assert "| fsync ms |" in text and "| 3.25 |" in text and "### Targets" in text
    meta = {"date": "d", "commit": "c", "python": "3", "eventsourcing": "9", "cpus": 2, "platform": "p",
            "fsync_start": {"median_ms": 1.0, "min_ms": 0.5, "max_ms": 2.0},
            "fsync_end": {"median_ms": 4.0, "min_ms": 3.0, "max_ms": 9.0}}
    assert "1.00 ms (0.50–2.00) at the start, 4.00 ms (3.00–9.00) at the end" in header(meta)


@pytest.mark.slow
def test_a_quick_run_gives_every_target_a_row_met_or_not(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--json", "--rulesets", "pirates,heroes,gladiators",
         "--workdir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=1800,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["machine"]["fsync_start"]["median_ms"] > 0 and result["machine"]["fsync_end"]["median_ms"] > 0
    rows = [Row(**r) for r in result["rows"]]
    assert not [r for r in rows if r.status == "failed"], [r.note for r in rows if r.status == "failed"]
    verdicts = {t["target"]: t["result"] for t in result["targets"]}
    for name, target in TARGETS.items():
        if name in POSTGRES_ONLY:  # --quick measures SQLite only
            continue
        mine = [r for r in rows if target.applies(r) and r.target]
        assert mine, f"no row for {name}"
        if target.low is None and target.high is None:
            assert verdicts[name] == "info"
        else:
            assert all(r.met in (True, False) for r in mine), name
            assert verdicts[name].startswith(("met", "not met")), (name, verdicts[name])
    assert all(r.fsync_ms is not None for r in rows if r.status != "not available yet")


@pytest.mark.slow
def test_a_fast_tier_that_ran_no_tests_is_no_measure(tmp_path):
    from bench.sampling import BenchError
    from bench.suite import fast_tier

    with pytest.raises(BenchError, match="pytest exit 4"):
        fast_tier([str(tmp_path / "no-such-tests")])


@pytest.mark.slow
def test_flat_asked_alone_builds_no_run_store(tmp_path):
    """`flat` plays its own campaign: asked alone, the 100k `run` rows (an hour) are not measured for it."""
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--measures", "flat", "--flat", "pirates", "--rulesets", "pirates",
         "--sizes", "300", "--runs", "1", "--stores", "sqlite", "--json", "--results", "-", "--workdir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [Row(**r) for r in json.loads(done.stdout)["rows"]]
    assert [(r.measure, r.ruleset, r.scale) for r in rows] == [("flat", "pirates", "300 commands")], rows
