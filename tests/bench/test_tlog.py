"""`bench.tlog`: the transparency log's rows, at a small scale: proofs from stored tiles, the tree's cost."""

from __future__ import annotations

from bench import tlog
from bench.sampling import Bench
from bench.stores import Stores


def test_the_proof_rows_measure_proofs_of_the_tiles_of_any_size(tmp_path):
    bench = Bench(runs=1, workdir=tmp_path, stores={"sqlite": Stores("sqlite", tmp_path)}, say=lambda _: None)
    tlog.measure_proofs(bench, "sqlite", 70_000, 1)
    inclusion, consistency, catch_up = bench.rows
    assert inclusion.values[0] > 0 and consistency.values[0] > 0 and catch_up.values[0] > 0
    # 70,000 leaves: a path of at most 17 hashes; the stores it used are gone.
    assert "max 17" in inclusion.note and not list(tmp_path.glob("bench_tlog_*.db"))


def test_the_append_row_sets_the_tree_against_the_same_aggregate_without_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tlog, "APPEND_COMMANDS", 2000)
    bench = Bench(runs=2, workdir=tmp_path, stores={}, say=lambda _: None)
    tlog.measure_append(bench, 2)
    (row,) = bench.rows
    assert len(row.values) == len(row.baseline_values) == len(row.ratios) == 2 and row.status == "info"
