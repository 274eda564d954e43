"""`run` timed as the user runs it, and its quiet and loaded columns. Small campaigns; no speed is asserted."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.conditions import busy_core, measured
from bench.generate import generate
from bench.sampling import Bench, BenchError
from bench.measures import rollbook_run
from bench.stores import Stores
from bench.userrun import measure_loaded, one_after_the_other, run_as_user


def test_the_run_row_runs_the_verb_itself_and_prints_nothing_into_the_bench_s_output(tmp_path, capsys):
    campaign = generate("pirates", 120)
    url = f"sqlite:///{tmp_path / 'store.db'}"
    assert rollbook_run(url, campaign.jsonl()) > 0
    assert capsys.readouterr().out == ""
    # The same file again: its ids are the file's, so everything is skipped, as the user's rerun is.
    path = campaign.write(tmp_path / "again.jsonl")
    assert run_as_user(url, path) > 0


def test_a_refused_file_is_an_error_of_the_bench(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type": "take_damage", "campaign": "nowhere", "character": "Nobody", "harm": 1}\n')
    with pytest.raises(BenchError):
        run_as_user(f"sqlite:///{tmp_path / 'store.db'}", path)


def test_one_after_the_other_switches_the_pipeline_off_only_inside_its_block():
    from rollbook.commands.transactions import Pipelined

    serves = Pipelined.serves
    with one_after_the_other():
        assert Pipelined.serves(object()) is False
    assert Pipelined.serves is serves


def test_measured_conditions_say_the_load_and_the_clients_cpu():
    with measured() as conditions:
        sum(range(10_000))
    assert conditions.wall >= 0 and conditions.client_cpu >= 0
    assert "load" in conditions.described() and "clients' CPU" in conditions.described()


@pytest.mark.slow
def test_a_busy_core_is_stopped_at_the_end_of_its_block():
    with busy_core(seconds=30) as spinner:
        assert spinner.poll() is None
    assert spinner.poll() is not None


@pytest.mark.slow
def test_the_quiet_and_loaded_rows_of_both_writers(tmp_path: Path):
    bench = Bench(runs=1, workdir=tmp_path, stores={"sqlite": Stores("sqlite", tmp_path)}, say=lambda text: None)
    measure_loaded(bench, generate("pirates", 100), "sqlite")
    rows = {row.measure: row for row in bench.rows}
    assert set(rows) == {"run-quiet", "run-loaded", "run-quiet-sequential", "run-loaded-sequential"}
    for row in rows.values():
        assert len(row.values) == len(row.baseline_values) == len(row.ratios) == 1
        assert "load" in row.note
    assert rows["run-quiet"].target and rows["run-loaded"].target
    assert not rows["run-quiet-sequential"].target
