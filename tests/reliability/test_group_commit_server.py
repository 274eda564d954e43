"""Twenty clients posting into one campaign of one `rollbook serve` (issue 48): the posts that arrive while
the disk writes one COMMIT are committed together in the next (store/grouped.py), each answered once stored.

Every post is applied exactly once, at the position its answer gives, in the order the answers' positions
say; `rollbook verify` passes. A server killed (SIGKILL) while posts are in flight has stored every post it
answered; started again, the clients' retries (the same Idempotency-Key) finish the rest, each applied once.
No time is asserted: a client gives up after two minutes, far above what an answer takes.
"""

from __future__ import annotations

import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from rollbook.testing.plugin import postgres_schema
from rollbook.testing.serving import Posted, Server, applied_ids, load, serving, start
from tests.battle import CAMPAIGN, plan, prepare

pytestmark = pytest.mark.slow

CLIENTS, MOVES = 20, 4
#: Answers the killed server gives before it is killed.
ANSWERED_BEFORE_KILL = 25


@contextmanager
def store_of(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "postgres":
        with postgres_schema() as url:
            yield url
    else:
        yield f"sqlite:///{tmp_path / 'rollbook.db'}"


def verified(url: str) -> None:
    done = subprocess.run([sys.executable, "-m", "rollbook.cli", "verify", "--store", url, "-c", CAMPAIGN],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def each_applied_once(url: str, posted: list[Posted]) -> None:
    """Every key in the store once, the once-only breakdown won by one client, and each answer's position
    the place its command holds in the record."""
    recorded = [key for key in applied_ids(url) if not key.startswith("base-")]
    assert all(count == 1 for count in Counter(recorded).values()), Counter(recorded).most_common(3)
    applied = {p.planned.key: p for p in posted if p.status == 201}
    refused = [p for p in posted if p.status != 201]
    assert all(p.status == 422 and p.planned.key.startswith("breakdown-") for p in refused), refused[:3]
    assert len(refused) == CLIENTS - 1, "the once-only breakdown goes to exactly one client"
    assert sorted(recorded) == sorted(applied)
    by_position = sorted(applied, key=lambda key: applied[key].body["position"])
    assert by_position == recorded, "the answers' positions are not the order the record holds"


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_twenty_clients_on_one_campaign_each_post_applied_once_and_answered_where_it_is_stored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    with store_of(kind, tmp_path) as url:
        tokens = prepare(url, CLIENTS)
        with serving(url, tmp_path) as servers:
            run = load(servers, tokens, plan(CLIENTS, MOVES))
        assert len(run.posted) == CLIENTS * (MOVES + 1)
        each_applied_once(url, run.posted)
        verified(url)


def test_a_server_killed_while_posts_are_in_flight_has_stored_every_post_it_answered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    url = f"sqlite:///{tmp_path / 'rollbook.db'}"
    tokens = prepare(url, CLIENTS)
    server = start(url, tmp_path / "before.log")
    port = int(server.url.rpartition(":")[2])
    answered_at_kill: set[str] = set()
    restarted: list[Server] = []
    stored_at_kill: list[str] = []

    def kill_then_restart(run_posted: list[Posted]) -> None:
        for _ in range(100_000):  # until enough answers came (bounded: the clients give up far sooner)
            if len(run_posted) >= ANSWERED_BEFORE_KILL:
                break
            threading.Event().wait(0.01)
        answered_at_kill.update(p.planned.key for p in list(run_posted) if p.status == 201)
        server.kill()  # SIGKILL: posts decided and in flight are lost, never answered
        stored_at_kill.extend(applied_ids(url))
        restarted.append(start(url, tmp_path / "after.log", port=port))

    from rollbook.testing import serving as harness

    real_load_run = harness.LoadRun

    class Watched(real_load_run):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__()
            threading.Thread(target=kill_then_restart, args=(self.posted,), daemon=True).start()

    monkeypatch.setattr(harness, "LoadRun", Watched)
    try:
        run = load([server], tokens, plan(CLIENTS, MOVES))
    finally:
        for each in restarted:
            each.stop()
        server.stop()
    assert answered_at_kill, "the server was killed before it answered"
    assert answered_at_kill <= set(stored_at_kill), f"answered, then lost: {sorted(answered_at_kill - set(stored_at_kill))}"
    assert len(run.posted) == CLIENTS * (MOVES + 1)
    each_applied_once(url, run.posted)
    verified(url)
