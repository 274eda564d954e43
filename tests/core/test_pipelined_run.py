"""`rollbook run` of a file on SQLite decides each command while the one before is committed.

Pipelined (`commands/transactions.py`, `Pipelined`) against one command after the other (`Alone`), on
the same generated pirates campaigns (typed and the campaign's own seeded dice, repeated lines,
a refusal): the same events at the same positions, the same report, the same lines in words in
the same order. And where a write fails after the next command was decided on it (another
writer got there first, the disk is gone), each command is still stored once and told once, in
order, and the campaign verifies.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError

from rollbook.bench.generate import generate
from rollbook.cli.posting import told
from rollbook.commands.parse import parse_command
from rollbook.commands.runner import run_file
from rollbook.commands.transactions import Pipelined
from rollbook.commands.service import Rollbook
from rollbook.replay.replayer import replay
from rollbook.replay.verify import verify
from rollbook.store import Store
from rollbook.store.own_connection import OwnConnection
from rollbook.store.sqlite_recorder import SQLiteCommandRecorder
from tests.core.test_group_commit import (
    SOURCE, campaign_file, fresh_store, prizes_file, refused_at, stored_events, summary,
)


#: The pipeline writes SQLite stores (`store/writer.py` says why not PostgreSQL): these tests make
#: their own, whatever stores the run was asked for (`test_only_a_file_on_sqlite_is_pipelined` covers those).
SQLITE = "sqlite"


def run_into(store: Store, text: bytes, *, pipelined: bool, service: Rollbook | None = None,
             said: list[tuple[int, str, str]] | None = None) -> dict[str, Any]:
    service = service or Rollbook(store)

    def tell(line: int, command: Any, outcome: Any) -> None:
        if said is not None:
            words = told(service, command.campaign, outcome.command_id, "en") if outcome.status == "applied" else "skipped"
            said.append((line, str(outcome.position), words))

    return summary(run_file(service, text, source=SOURCE, on_command=tell, pipelined=pipelined))


@dataclass
class Commits:
    """The background commits of a run: how many were begun, and which of them failed."""

    begun: int = 0
    failed: list[int] = field(default_factory=list)


@contextmanager
def failing_commits(fail: dict[int, type[Exception]], *, then_every_write: bool = False) -> Iterator[Commits]:
    """Background COMMIT number n (from 1) fails with `fail[n]`, its transaction rolled back; with
    `then_every_write`, every write after it fails too, committed in the background or not (the disk is gone)."""
    commits = Commits()
    original_commit = OwnConnection.commit
    original_insert = SQLiteCommandRecorder._insert_events

    def commit(self: OwnConnection) -> None:
        commits.begun += 1
        if commits.begun in fail or (then_every_write and commits.failed):
            commits.failed.append(commits.begun)
            error = next(iter(fail.values()))(f"commit {commits.begun} failed (the test's)")
            self.rollback()
            raise error
        original_commit(self)

    def insert(self: Any, cursor: Any, stored: Any, **kwargs: Any) -> Any:
        if then_every_write and commits.failed:
            raise next(iter(fail.values()))("the disk is gone (the test's)")
        return original_insert(self, cursor, stored, **kwargs)

    OwnConnection.commit = commit  # type: ignore[method-assign]
    SQLiteCommandRecorder._insert_events = insert  # type: ignore[method-assign]
    try:
        yield commits
    finally:
        OwnConnection.commit = original_commit  # type: ignore[method-assign]
        SQLiteCommandRecorder._insert_events = original_insert  # type: ignore[method-assign]


@pytest.mark.parametrize("case", range(3))
def test_pipelined_and_alone_runs_store_report_and_tell_the_same(tmp_path: Path, case: int) -> None:
    rng = random.Random(4100 + case)
    text, campaign = campaign_file(rng, rng.randint(80, 200))
    with fresh_store(SQLITE, tmp_path, "alone") as alone, fresh_store(SQLITE, tmp_path, "piped") as piped:
        said_alone: list[tuple[int, str, str]] = []
        said_piped: list[tuple[int, str, str]] = []
        expected = run_into(alone, text, pipelined=False, said=said_alone)
        assert expected["skips"], "the file repeats lines: some must be skipped"
        assert run_into(piped, text, pipelined=True, said=said_piped) == expected
        assert said_piped == said_alone, "each command told once stored, in order, with its position"
        assert stored_events(piped) == stored_events(alone)
        assert verify(piped.app, campaign).findings == []
        assert replay(piped, campaign, verify=True).difference is None
        # A rerun skips every stored command, as one after the other does.
        again = run_into(piped, text, pipelined=True)
        assert again == run_into(alone, text, pipelined=False)
        assert again["applied"] == 0


@pytest.mark.parametrize("failing", [2, 7, 30])
def test_a_commit_that_fails_is_applied_again_alone_and_the_command_decided_on_it_again(
    tmp_path: Path, failing: int,
) -> None:
    text = generate("pirates", 60, seed=9).jsonl()
    with fresh_store(SQLITE, tmp_path, "alone") as alone, fresh_store(SQLITE, tmp_path, "piped") as piped:
        said_alone: list[tuple[int, str, str]] = []
        said_piped: list[tuple[int, str, str]] = []
        expected = run_into(alone, text, pipelined=False, said=said_alone)
        with failing_commits({failing: OperationalError}) as commits:
            assert run_into(piped, text, pipelined=True, said=said_piped) == expected
        assert commits.failed == [failing] and commits.begun > failing, "the run went on pipelined after the failure"
        assert said_piped == said_alone
        assert stored_events(piped) == stored_events(alone)
        assert verify(piped.app, "bench-pirates").findings == []


def test_a_store_that_stops_taking_writes_ends_the_run_at_that_line(tmp_path: Path) -> None:
    text = generate("pirates", 40, seed=4).jsonl()
    with fresh_store(SQLITE, tmp_path, "piped") as piped:
        said: list[tuple[int, str]] = []
        with failing_commits({12: OperationalError}, then_every_write=True):
            report = run_file(Rollbook(piped), text, source=SOURCE,
                              on_command=lambda line, command, outcome: said.append((line, outcome.status)))
        assert report.store_failed and report.error is not None and report.error.field == "store"
        stopped = report.error.line
        assert stopped is not None and report.applied == stopped - 1
        assert said == [(line, "applied") for line in range(1, stopped)], "told: only what is stored, in order"
        assert Rollbook(piped).campaign("bench-pirates").seq == stopped - 1
        # The disk is back: a rerun skips what was stored and applies the rest.
        again = run_into(piped, text, pipelined=True)
        assert again["error"] is None and again["applied"] == 40 - (stopped - 1)
        assert verify(piped.app, "bench-pirates").findings == []


def test_a_refusal_after_a_failed_write_is_told_after_it(tmp_path: Path) -> None:
    made = generate("pirates", 30, seed=11)
    text = refused_at(made, 21)
    with fresh_store(SQLITE, tmp_path, "piped") as piped:
        said: list[tuple[int, str]] = []
        with failing_commits({20: OperationalError}):  # the commit of line 20, the line before the refusal
            report = run_file(Rollbook(piped), text, source=SOURCE,
                              on_command=lambda line, command, outcome: said.append((line, outcome.status)))
        assert report.error is not None and report.error.line == 21 and report.applied == 20
        assert said == [(line, "applied") for line in range(1, 21)]
        assert verify(piped.app, made.campaign).findings == []


def test_another_writer_overtaking_the_run_is_stored_between_its_commands(tmp_path: Path) -> None:
    """Another process stores prizes of the same campaign while the run's next write is in flight:
    the run's command decided on the state before them fails its write and is decided again."""
    campaign = "overtaken"
    lines, text = prizes_file(campaign, 20)
    with fresh_store(SQLITE, tmp_path, "overtaken") as store, ExitStack() as closing:
        other = Rollbook(closing.enter_context(contextlib.closing(Store.open(store.url))))
        prizes: list[str] = []

        def tell(line: int, command: Any, outcome: Any) -> None:
            if line >= 3 and line % 4 == 0:  # the next line's write is in flight
                prizes.append(f"other-{line}")
                other.execute(parse_command({**lines[-1], "id": prizes[-1]}, ruleset_of=other.ruleset_of))

        retried: list[str] = []
        service = Rollbook(store)
        attempt = service._attempt
        service._attempt = lambda command, *args: retried.append(command.id) or attempt(command, *args)  # type: ignore[method-assign]
        report = run_file(service, text, source=SOURCE, on_command=tell)
        assert report.error is None and report.applied == len(lines)
        assert len(retried) > len(lines), "some of the run's commands were overtaken at their insert, and decided again"
        stored = closing.enter_context(contextlib.closing(Store.open(store.url)))
        assert Rollbook(stored).campaign(campaign).seq == len(lines) + len(prizes)
        assert verify(stored.app, campaign).findings == []


def test_only_a_file_on_sqlite_is_pipelined(rollbook_store: str, tmp_path: Path) -> None:
    text = generate("pirates", 12, seed=2).jsonl()
    with fresh_store(rollbook_store, tmp_path, "which") as store:
        service = Rollbook(store)
        assert Pipelined.serves(service) is rollbook_store.startswith("sqlite")
        writing: list[bool] = []

        def tell(line: int, command: Any, outcome: Any) -> None:
            writing.append(any(t.name == "rollbook-writer" for t in threading.enumerate()))

        run_file(service, text, source=None, on_command=tell)  # standard input: each told at once
        assert writing and not any(writing)
        if rollbook_store.startswith("sqlite"):
            more = generate("pirates", 24, seed=2).jsonl()
            run_file(service, more, source=SOURCE, on_command=tell)
            assert any(writing[12:])
        assert not any(t.name == "rollbook-writer" for t in threading.enumerate()), "the writer ends with its run"
