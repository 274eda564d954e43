"""Real `rollbook serve` processes and clients posting to them, for the server's tests and its bench.

    tokens = prepare(url, CAMPAIGN, commands, ["p0", "p1"])  # the campaign, a GM `gm` and its players
    with serving(url, count=2) as servers:                     # two processes on one store
        run = load(servers, tokens, plans)                     # a client per plan at once, then the figures

What is played is the caller's: the server's tests play a battle of their own (tests/battle.py).
"""

from __future__ import annotations

import json
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from ..settings import environment_with

#: The statuses a client retries with the same Idempotency-Key: the server was busy or the store failed.
RETRIED = (429, 503)


@dataclass
class Server:
    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()

    def logs(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.startswith("{")]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(store_url: str, log: Path, *, port: int | None = None, env: dict[str, str] | None = None) -> Server:
    """`rollbook serve` in a process of its own, answering /health."""
    port = port or free_port()
    command = [sys.executable, "-m", "rollbook.cli", "--log-format", "json", "serve", "--store", store_url,
               "--port", str(port), "--posts-per-minute", "0"]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=output, env=environment_with(env))
    server = Server(f"http://127.0.0.1:{port}", process, log)
    return answering(server, "/health", 200)


def answering(server: Server, path: str, status: int) -> Server:
    """`server` once `GET path` answers `status` (within 60 s; else it is killed and its log said)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"{server.process.args} exited with {server.process.returncode}: "
                               f"{server.log.read_text()[-2000:]}")
        try:
            if httpx.get(f"{server.url}{path}", timeout=1).status_code == status:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.kill()
    raise RuntimeError(f"{server.process.args} did not answer within 60 s: {server.log.read_text()[-2000:]}")


def start_witness(state: Path, log: Path) -> Server:
    """`rollbook witness serve` on its state file, in a process of its own, answering add-checkpoint."""
    port = free_port()
    command = [sys.executable, "-m", "rollbook.cli", "witness", "serve", "--state", str(state), "--port", str(port)]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=output)
    return answering(Server(f"http://127.0.0.1:{port}", process, log), "/add-checkpoint", 405)


@contextmanager
def serving(store_url: str, folder: Path, *, count: int = 1, env: dict[str, str] | None = None) -> Iterator[list[Server]]:
    servers = [start(store_url, folder / f"server-{n}.log", env=env) for n in range(count)]
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


# --- a campaign with a player for each client ----------------------------------------------


def prepare(store_url: str, campaign: str, commands: list[dict[str, Any]], players: list[str]) -> dict[str, str]:
    """The campaign's commands run in the store, a GM `gm` and the players; every user's token."""
    from ..commands.runner import run_file
    from ..hosting.accounts import Accounts
    from ..bootstrap import open_store, service_for

    store = open_store(store_url)
    try:
        report = run_file(service_for(store), "".join(json.dumps(c) + "\n" for c in commands).encode())
        assert report.error is None, report.error
        accounts = Accounts(store)
        tokens = {name: accounts.add(name) for name in ["gm", *players]}
        for name in tokens:
            accounts.grant(campaign, name, "gm" if name == "gm" else "player", by="test")
        return tokens
    finally:
        store.close()


@dataclass(frozen=True)
class Planned:
    """A command a client posts: as `user`, under the Idempotency-Key `key`, to `campaign`."""

    user: str
    key: str
    body: dict[str, Any]
    campaign: str

    def as_command(self) -> dict[str, Any]:
        """The same command as a line of a command file for `rollbook run`."""
        actor = "gm" if self.user == "gm" else f"player:{self.user}"
        return {**self.body, "campaign": self.campaign, "id": self.key, "actor": actor}


# --- posting --------------------------------------------------------------------------------


@dataclass
class Posted:
    planned: Planned
    status: int
    body: dict[str, Any]
    seconds: float
    retries: int


def post(client: httpx.Client, urls: list[str], token: str, planned: Planned, *, first: int = 0,
         give_up: float = 120.0) -> Posted:
    """POST one command, retrying with the same Idempotency-Key while no server answers or one is busy."""
    started, retries, turn = time.perf_counter(), 0, first
    while True:
        url = urls[turn % len(urls)]
        try:
            answer = client.post(f"{url}/campaigns/{planned.campaign}/commands", json=planned.body, timeout=60,
                                 headers={"Authorization": f"Bearer {token}", "Idempotency-Key": planned.key})
            if answer.status_code not in RETRIED:
                return Posted(planned, answer.status_code, answer.json(), time.perf_counter() - started, retries)
        except httpx.TransportError:
            pass  # the server went away mid-request: the same key again, on this or another server
        if time.perf_counter() - started > give_up:
            raise TimeoutError(f"{planned.key}: no server answered for {give_up:.0f} s")
        retries += 1
        turn += 1
        time.sleep(0.05)


@dataclass
class LoadRun:
    posted: list[Posted] = field(default_factory=list)
    seconds: float = 0.0

    def latencies(self) -> list[float]:
        return sorted(p.seconds for p in self.posted)

    def figures(self) -> dict[str, float]:
        times = self.latencies()
        return {
            "posts": len(self.posted), "posts_per_s": len(self.posted) / self.seconds,
            "p50_ms": 1000 * statistics.median(times), "p99_ms": 1000 * times[min(len(times) - 1, int(len(times) * 0.99))],
            "client_retries": sum(p.retries for p in self.posted),
        }


def client_thread(barrier: threading.Barrier, failures: list[BaseException],
                  work: Callable[[httpx.Client], None]) -> threading.Thread:
    """A client's thread: `work` with an HTTP client of its own, started when every thread is ready (`barrier`);
    what it raises is kept in `failures`, for the caller to raise once all are joined."""

    def run() -> None:
        try:
            with httpx.Client() as http:
                barrier.wait()
                work(http)
        except BaseException as error:
            failures.append(error)

    return threading.Thread(target=run)


def load(servers: list[Server], tokens: dict[str, str], plans: list[list[Planned]]) -> LoadRun:
    """One client thread per plan, all starting together; client n talks to server n mod count."""
    run, lock = LoadRun(), threading.Lock()
    urls = [s.url for s in servers]
    barrier = threading.Barrier(len(plans) + 1)
    failures: list[BaseException] = []

    def client(n: int, planned: list[Planned], http: httpx.Client) -> None:
        for item in planned:
            done = post(http, urls, tokens[item.user], item, first=n)
            with lock:
                run.posted.append(done)

    threads = [client_thread(barrier, failures, partial(client, n, p)) for n, p in enumerate(plans)]
    for thread in threads:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    run.seconds = time.perf_counter() - started
    if failures:
        raise failures[0]
    return run


def applied_ids(store_url: str) -> list[str]:
    """The id of every command recorded in the campaign, in order (a command applied twice shows twice)."""
    from ..bootstrap import open_store
    from ..store.reads import logged
    from ..store.unit_of_work import APPLIED_TOPIC

    store = open_store(store_url)
    try:
        return [event.command_id for _, _, _, event in logged(store, page=1000, topics=(APPLIED_TOPIC,))]
    finally:
        store.close()
