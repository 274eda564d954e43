"""`rollbook follow` keeps the projections caught up while other processes write.

On PostgreSQL through the library's subscription (LISTEN/NOTIFY), on SQLite by pulling.
Commands are written by another process that never catches the projections up itself; the
follower must bring them to the last position, equal to a rebuild from the events, also
while one-shot verbs catch up at the same time; it stops cleanly on SIGTERM.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.projections.projector import Projector
from rollbook.projections.queries import Reader
from rollbook.store.views import MemoryViews
from rollbook.store import Store

from tests.reliability.support import CAMPAIGN, cli, json_lines, kinds, long_pirate_file


class Following:
    """`rollbook follow` in its own process, its JSON log lines collected as they come."""

    def __init__(self, url: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "follow", "--store", url,
             "--interval", "0.2"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        self.lines: list[str] = []
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read)
        self.reader.start()
        assert self.started.wait(60), "".join(self.lines)

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            if '"follow.started"' in line:
                self.started.set()
        self.started.set()

    def stop(self) -> list[dict[str, object]]:
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(30) == 0, "".join(self.lines[-10:])
        self.reader.join()
        return json_lines("".join(self.lines))


def write_without_catching_up(url: str, text: str) -> int:
    store = Store.open(url)
    try:
        report = run_file(Rollbook(store), text.encode())
        assert report.error is None, report.error
        return int(store.app.recorder.max_notification_id() or 0)
    finally:
        store.close()


def projected_position(url: str) -> int:
    store = Store.open(url)
    try:
        return Reader(store).views.position()
    finally:
        store.close()


def wait_for(url: str, position: int, seconds: float = 60) -> float:
    started = time.perf_counter()
    while projected_position(url) < position:
        assert time.perf_counter() - started < seconds, f"the follower did not reach position {position}"
        time.sleep(0.05)
    return time.perf_counter() - started


def same_as_a_rebuild(url: str) -> None:
    store = Store.open(url)
    try:
        views = Reader(store).views
        rebuilt = MemoryViews()
        Projector(store.app, rebuilt).catch_up()
        assert views.position() == rebuilt.position()
        for kind in ("sheet", "campaign", "limits", "roll", "timeline", "command"):
            assert views.all(CAMPAIGN, kind) == rebuilt.all(CAMPAIGN, kind), kind
    finally:
        store.close()


def follow_while_writing(url: str, how: str) -> None:
    text = long_pirate_file(40)
    lines = text.splitlines(keepends=True)
    follower = Following(url)
    try:
        first = write_without_catching_up(url, "".join(lines[:30]))
        wait_for(url, first)
        # Writes and one-shot verbs catching up at the same time as the follower.
        readers = [subprocess.Popen([sys.executable, "-m", "rollbook.cli", "limits", "-c", CAMPAIGN,
                                     "--store", url, "--json"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                   for _ in range(2)]
        last = write_without_catching_up(url, text)
        for reader in readers:
            assert reader.wait(60) == 0, reader.stderr.read() if reader.stderr else ""
        waited = wait_for(url, last)
    finally:
        logs = follower.stop()
    same_as_a_rebuild(url)
    batches = kinds(logs, "follow.projected")
    assert batches and all(b["by"] in (how, "pull") for b in batches)
    assert any(b["by"] == how for b in batches)
    assert kinds(logs, "follow.stopped")[0]["position"] == last
    print(f"\nfollow ({how}): {len(batches)} batches to position {last}, caught up {waited:.2f} s after the writer")


@pytest.mark.slow
@pytest.mark.xdist_group("timing")  # waits for the follower within a bound: after one another with the kill tests (tests/conftest.py)
def test_follow_on_postgresql_uses_the_subscription(pg_store: str) -> None:
    follow_while_writing(pg_store, "subscription")


@pytest.mark.slow
@pytest.mark.xdist_group("timing")  # waits for the follower within a bound: after one another with the kill tests (tests/conftest.py)
def test_follow_on_sqlite_pulls(tmp_path: Path) -> None:
    follow_while_writing(f"sqlite:///{tmp_path / 'followed.db'}", "pull")


def test_follow_refuses_a_memory_store() -> None:
    result = cli("follow", store="memory://")
    assert result.returncode == 1 and "memory://" in result.stderr and "Traceback" not in result.stderr


def test_a_stopped_follower_says_where_the_projections_stand_even_if_another_caught_them_up(tmp_path: Path) -> None:
    from rollbook.projections.follow import Follower

    url = f"sqlite:///{tmp_path / 'followed.db'}"
    store = Store.open(url)
    try:
        follower = Follower(store, interval=3600)  # it polls once, then not again before it is stopped
        projected: list[int] = []
        follower.on_batch = projected.append
        following = threading.Thread(target=lambda: projected.append(follower.run()))
        following.start()
        last = write_without_catching_up(url, long_pirate_file(10))
        other = Store.open(url)
        try:
            assert Reader(other).catch_up() == last  # a one-shot verb in another process catches up meanwhile
        finally:
            other.close()
        follower.stop()
        following.join(30)
        assert projected[-1] == last
    finally:
        store.close()
