"""Issue 32's server rows: the clients' plans, the lost-post count, the targets they are judged by, and the rows
a small load gives. Small sizes; nothing here asserts a speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import serve
from bench.sampling import Bench
from bench.serveload import Answer, Post, lost_posts, plan_moves, seating
from bench.stores import Stores
from bench.targets import Row, judge


def test_every_client_posts_its_own_character_s_moves_in_its_own_campaign():
    seats = seating(3, 2)
    assert seats == {"camp-0": [0, 1], "camp-1": [2, 3], "camp-2": [4, 5]}
    plans = plan_moves(seats, 4)
    assert len(plans) == 6 and all(len(plan) == 4 for plan in plans)
    keys = [post.key for plan in plans for post in plan]
    assert len(set(keys)) == len(keys)
    for plan in plans:
        for post in plan:
            assert int(post.user.removeprefix("p")) in seats[post.campaign]
            assert post.body["character"] == post.user.upper()
            assert post.as_command()["actor"] == f"player:{post.user}"


def _answer(key: str, status: int) -> Answer:
    return Answer(Post("p0", "camp-0", key, {}), status, 0.01, 0)


def test_a_post_is_lost_when_it_is_answered_as_stored_but_not_stored_once_or_never_answered():
    answers = [_answer("stored", 201), _answer("missing", 201), _answer("twice", 201), _answer("unanswered", 0),
               _answer("refused", 422)]
    assert lost_posts(answers, ["stored", "twice", "twice"]) == 3
    assert lost_posts(answers[:1] + answers[-1:], ["stored"]) == 0


@pytest.mark.parametrize(("measure", "samples", "met"), [
    ("serve-sqlite", {"ratios": [0.4, 0.6, 0.7]}, True),
    ("serve-sqlite", {"ratios": [0.3, 0.45, 0.7]}, False),
    ("serve-p99", {"values": [40.0]}, True),
    ("serve-reads", {"values": [31.0]}, False),
    ("serve-pg-2", {"ratios": [1.7]}, True),
    ("serve-pg-4", {"ratios": [1.7]}, False),
    ("serve-shared", {"ratios": [3.9]}, True),
    ("serve-lost", {"values": [0.0, 0.0, 0.0]}, True),
    ("serve-lost", {"values": [0.0, 1.0, 1.0]}, False),
    ("serve-streams-posts", {"values": [60.0]}, False),
    ("run-loaded", {"ratios": [0.9]}, True),
])
def test_issue_32_s_targets_judge_their_rows(measure, samples, met):
    row = judge(Row(measure, "sqlite", "pirates", "1 campaign", "what", "ms", **samples))
    assert "(issue 32)" in row.target and row.met is met


def test_the_one_after_the_other_writer_and_1_process_are_shown_not_judged():
    for measure in ("run-quiet-sequential", "run-loaded-sequential", "serve-pg-1"):
        row = judge(Row(measure, "sqlite", "pirates", "10k commands", "what", "commands/s", [1.0], ratios=[1.0]))
        assert row.met is None


@pytest.mark.slow
def test_the_sqlite_rows_of_a_small_load(tmp_path: Path, monkeypatch):
    """Two clients posting one move each, two reading, two live pages and two `/events` streams: every row of the
    measure, each post answered and none lost, the streams open, the load and the clients' CPU in the notes."""
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    bench = Bench(runs=1, workdir=tmp_path, stores={"sqlite": Stores("sqlite", tmp_path)}, say=lambda text: None)
    serve.measure_serve(bench, "sqlite", clients=2, moves=1, streams=2)
    rows = {row.measure: row for row in bench.rows}
    assert set(rows) == {"serve-sqlite", "serve-p99", "serve", "serve-reads", "serve-streams-posts",
                         "serve-streams-reads"}
    posting = rows["serve-sqlite"]
    assert len(posting.values) == len(posting.baseline_values) == len(posting.ratios) == 1
    assert "2 of 2 posts answered" in posting.note and "lost 0" in posting.note and "clients' CPU" in posting.note
    assert "4 of 4 streams answered 200" in rows["serve-streams-posts"].note
    assert all(row.values for row in bench.rows)


@pytest.mark.slow
def test_the_postgres_rows_of_a_small_load(tmp_path: Path, monkeypatch):
    """Two campaigns of one client on 1 and 2 processes, one campaign shared by 2: the ratio rows and no post lost."""
    stores = Stores("postgres", tmp_path)
    reason = stores.available()
    if reason is not None:
        pytest.skip(reason)
    monkeypatch.setattr(serve, "CAMPAIGNS", 2)
    monkeypatch.setattr(serve, "CLIENTS_EACH", 1)
    monkeypatch.setattr(serve, "PROCESSES", (1, 2))
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    bench = Bench(runs=1, workdir=tmp_path, stores={"postgres": stores}, say=lambda text: None)
    serve.measure_serve(bench, "postgres", clients=2, moves=1)
    rows = {row.measure: row for row in bench.rows}
    assert set(rows) == {"serve-pg-1", "serve-pg-2", "serve-pg-2-by-player", "serve-shared", "serve-lost"}
    assert len(rows["serve-pg-2"].ratios) == 1 and len(rows["serve-shared"].ratios) == 1
    assert rows["serve-lost"].values == [0.0]
