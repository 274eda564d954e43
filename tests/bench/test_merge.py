"""Runs split across processes make one RESULTS.md: every row of each, refused when the builds differ."""

import json
from dataclasses import asdict

import pytest

from bench.merge import main, merged
from bench.report import as_json
from bench.targets import Row

FSYNC = {"median_ms": 0.1, "min_ms": 0.1, "max_ms": 0.2, "samples": 50}


def a_run(commit, rows, *, fsync_end=FSYNC):
    meta = {"date": "2026-12-01 15:00 UTC", "commit": commit, "python": "3.11.7", "eventsourcing": "9.5.6",
            "cpus": 2, "platform": "Linux", "fsync_start": FSYNC, "fsync_end": fsync_end}
    return json.loads(as_json(rows, f"python -m bench --rulesets {rows[0].ruleset}", meta))


def rows_of(ruleset, ratio):
    return [Row("run", "sqlite", ruleset, "1k commands", "`rollbook run`", "commands/s", [900.0], "bare", [1000.0],
                [ratio], target="≥ 0.85 × bare eventsourcing, same saves", met=ratio >= 0.85, fsync_ms=0.1)]


def test_the_rows_of_every_run_and_both_commands_are_written(tmp_path):
    later_fsync = {**FSYNC, "median_ms": 9.0}
    first, second = a_run("abc1234", rows_of("pirates", 0.9)), a_run("abc1234", rows_of("heroes", 0.5), fsync_end=later_fsync)
    rows, command, meta = merged([first, second])
    assert [asdict(r) for r in rows] == first["rows"] + second["rows"]
    assert command == "python -m bench --rulesets pirates ; python -m bench --rulesets heroes"
    assert meta["fsync_start"] == FSYNC and meta["fsync_end"] == later_fsync
    paths = []
    for number, run in enumerate((first, second)):
        paths.append(tmp_path / f"{number}.json")
        paths[-1].write_text(json.dumps(run))
    results = tmp_path / "RESULTS.md"
    results.write_text("# notes before\n\n<!-- bench:results:start -->\nthe previous run\n<!-- bench:results:end -->\n\nnotes after\n")
    assert main([*map(str, paths), "--results", str(results)]) == 0
    text = results.read_text()
    assert "the previous run" not in text and text.startswith("# notes before") and text.rstrip().endswith("notes after")
    assert "| pirates |" in text and "| heroes |" in text
    assert "0.10 ms (0.10–0.20) at the start, 9.00 ms (0.10–0.20) at the end" in text


def test_runs_of_two_commits_are_refused(tmp_path, capsys):
    paths = []
    for number, commit in enumerate(("abc1234", "def5678")):
        paths.append(tmp_path / f"{number}.json")
        paths[-1].write_text(json.dumps(a_run(commit, rows_of("pirates", 0.9))))
    results = tmp_path / "RESULTS.md"
    assert main([*map(str, paths), "--results", str(results)]) == 1
    assert "different commits (abc1234, def5678)" in capsys.readouterr().err and not results.exists()


@pytest.mark.parametrize("content", ["{not json", json.dumps({"rows": []})])
def test_a_file_that_is_not_a_run_is_refused_in_a_line(tmp_path, capsys, content):
    path = tmp_path / "run.json"
    path.write_text(content)
    assert main([str(path), "--results", str(tmp_path / "RESULTS.md")]) == 1
    assert capsys.readouterr().err.startswith("bench.merge: ")


def test_a_row_measured_again_replaces_the_earlier_and_mixed_commits_are_named():
    first = a_run("abc1234", rows_of("pirates", 0.5) + rows_of("heroes", 0.5))
    again = a_run("def5678", rows_of("pirates", 0.9))
    with pytest.raises(ValueError, match="different commits"):
        merged([first, again])
    rows, _, meta = merged([first, again], mixed_commits=True)
    assert [(r.ruleset, r.ratios) for r in rows] == [("heroes", [0.5]), ("pirates", [0.9])]
    assert meta["commit"] == "abc1234 (run), def5678 (run)"


def test_a_run_can_give_only_some_of_its_measures(tmp_path, capsys):
    run = a_run("abc1234", rows_of("pirates", 0.5))
    run["rows"].append({**run["rows"][0], "measure": "startup", "what": "sheet"})
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    results = tmp_path / "RESULTS.md"
    assert main([f"{path}@startup", "--results", str(results)]) == 0
    assert "(its startup rows)" in results.read_text() and "`rollbook run`" not in results.read_text()
    assert main([f"{path}@startup,memory", "--results", str(results)]) == 1
    assert "has no rows of memory" in capsys.readouterr().err


def test_a_published_table_is_read_back_as_the_run_it_shows(tmp_path):
    from bench.published import read_published
    from bench.report import write_results

    rows = [Row("run", "sqlite", "pirates", "1k commands", "`rollbook run`", "commands/s", [1390.0, 1385.2, 1350.0],
                "bare eventsourcing, same saves", [1850.0, 1853.0, 1877.0], [0.74, 0.73, 0.75],
                target="≥ 0.85 × bare eventsourcing, same saves (1k, 10k, 100k) (issue 22)", met=False, fsync_ms=0.14),
            Row("memory", "sqlite", "pirates", "1M commands", "peak RSS of `run`", "MB", [74.8],
                target="peak RSS ≤ 150 MB at 1M commands (issue 22)", met=True, note="`run` wall: 2981 s", fsync_ms=0.64),
            Row("memory", "sqlite", "pirates", "1M commands", "peak RSS of `replay`", "MB", [97.5],
                target="peak RSS ≤ 150 MB at 1M commands (issue 22)", met=True, note="`replay` wall: 314 s", fsync_ms=0.64)]
    published = tmp_path / "RESULTS.md"
    meta = {"date": "2026-12-01 15:00 UTC", "commit": "abc1234", "python": "3.11.7", "eventsourcing": "9.5.6",
            "cpus": 2, "platform": "Linux", "bytecode": "compiled", "fsync_start": FSYNC, "fsync_end": FSYNC}
    write_results(published, rows, "python -m bench", meta)
    run = read_published(published)
    assert run["command"] == "python -m bench" and run["machine"]["commit"] == "abc1234"
    back = [Row(**row) for row in run["rows"]]
    assert [(r.measure, r.what, r.met, r.note, r.fsync_ms) for r in back] == [
        ("run", "`rollbook run`", False, "", 0.14), ("memory", "peak RSS of `run`", True, "`run` wall: 2981 s", 0.64),
        ("memory", "peak RSS of `replay`", True, "`replay` wall: 314 s", 0.64)]
    assert back[0].values == [1350.0, 1385.0, 1390.0] and back[0].ratios == [0.73, 0.74, 0.75]
    # Written again, the table is the one published.
    again = tmp_path / "AGAIN.md"
    write_results(again, back, run["command"], run["machine"])
    block = published.read_text().split("### Targets")[1]
    assert again.read_text().split("### Targets")[1] == block
