"""Clients for the server's load rows: posts into one or many campaigns, readers beside them, open streams.

testing/serving.py starts the `rollbook serve` processes and posts into its one campaign; the
rows of issue 32 also need many campaigns (2 clients each), readers of sheets while others post,
and hundreds of live pages and `/events` streams held open. Every loop here is bounded: a post is
given up after `GIVE_UP` seconds (and counted unanswered, not raised), readers stop when the
posters are done, and the streams are closed at the end of the block that opened them.
"""

from __future__ import annotations

import json
import selectors
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import httpx

from rollbook.testing.serving import RETRIED, Server, client_thread

from .conditions import Conditions, measured

#: Seconds a client keeps retrying one post before it counts it unanswered and goes on.
GIVE_UP = 30.0
#: Seconds a reader waits for one GET before it counts it unanswered.
READ_TIMEOUT = 30.0


def campaign_names(count: int) -> list[str]:
    return [f"camp-{n}" for n in range(count)]


def base_commands(campaign: str, players: list[int]) -> list[dict[str, Any]]:
    """A pirate battle under way with one character (`P7` of `p7`, …) for each player, as testing/serving.py's."""
    commands: list[dict[str, Any]] = [
        {"type": "create_campaign", "campaign": campaign, "ruleset": "pirates", "title": campaign},
        {"type": "create_ship", "campaign": campaign, "name": "Chaika", "navigation": 2, "firepower": 1,
         "displacement": 1, "hull": 4, "secrets": ["X1", "X2"]},
    ]
    commands += [{"type": "create_character", "campaign": campaign, "name": f"P{n}", "player": f"p{n}",
                  "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1}
                 for n in players]
    commands += [{"type": "start_chapter", "campaign": campaign}, {"type": "start_scene", "campaign": campaign},
                 {"type": "start_battle", "campaign": campaign}]
    return [{**c, "id": f"{campaign}-base-{n}"} for n, c in enumerate(commands)]


def seating(campaigns: int, clients_each: int) -> dict[str, list[int]]:
    """Which players sit at which campaign: `clients_each` players of their own at every campaign."""
    return {name: list(range(n * clients_each, (n + 1) * clients_each))
            for n, name in enumerate(campaign_names(campaigns))}


def prepare(store_url: str, seats: dict[str, list[int]]) -> dict[str, str]:
    """Every campaign of `seats` in the store, a GM `gm` of all and each player a member of his own; the tokens."""
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.hosting.accounts import Accounts
    from rollbook.store import Store

    store = Store.open(store_url)
    try:
        lines = [c for campaign, players in seats.items() for c in base_commands(campaign, players)]
        report = run_file(Rollbook(store), "".join(json.dumps(c) + "\n" for c in lines).encode())
        assert report.error is None, report.error
        accounts = Accounts(store)
        players = sorted({p for seated in seats.values() for p in seated})
        tokens = {name: accounts.add(name) for name in ["gm", *(f"p{n}" for n in players)]}
        for campaign, seated in seats.items():
            accounts.grant(campaign, "gm", "gm", by="bench")
            for n in seated:
                accounts.grant(campaign, f"p{n}", "player", by="bench")
        return tokens
    finally:
        store.close()


@dataclass(frozen=True)
class Post:
    user: str
    campaign: str
    key: str
    body: dict[str, Any]

    def as_command(self) -> dict[str, Any]:
        """The same command as a line of a command file for `rollbook run`."""
        return {**self.body, "campaign": self.campaign, "id": self.key, "actor": f"player:{self.user}"}


def plan_moves(seats: dict[str, list[int]], moves: int) -> list[list[Post]]:
    """One client per player: its character's `moves` rolled moves, dice given, all valid."""
    faces = [(3, 4), (6, 2), (1, 1), (5, 5), (2, 6), (4, 3)]
    return [[Post(f"p{n}", campaign, f"{campaign}-p{n}-{m}",
                  {"type": "roll_move", "character": f"P{n}", "stat": "audacity",
                   "dice": list(faces[(n + m) % len(faces)])}) for m in range(moves)]
            for campaign, seated in seats.items() for n in seated]


@dataclass
class Answer:
    post: Post
    status: int  # 0: no server answered within GIVE_UP
    seconds: float
    retries: int


def send(client: httpx.Client, urls: list[str], token: str, post: Post, first: int) -> Answer:
    """POST one command, retrying with its Idempotency-Key while the servers are busy or away, for GIVE_UP s."""
    started, retries, turn = time.perf_counter(), 0, first
    while True:
        try:
            answer = client.post(f"{urls[turn % len(urls)]}/campaigns/{post.campaign}/commands", json=post.body,
                                 timeout=GIVE_UP,
                                 headers={"Authorization": f"Bearer {token}", "Idempotency-Key": post.key})
            if answer.status_code not in RETRIED:
                return Answer(post, answer.status_code, time.perf_counter() - started, retries)
        except httpx.TransportError:
            pass  # timed out or went away: the same key again, on this or another server
        if time.perf_counter() - started > GIVE_UP:
            return Answer(post, 0, time.perf_counter() - started, retries)
        retries += 1
        turn += 1
        time.sleep(0.05)


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


@dataclass
class Load:
    answers: list[Answer] = field(default_factory=list)
    reads: list[tuple[int, float]] = field(default_factory=list)  # (status, seconds); status 0: no answer
    seconds: float = 0.0
    conditions: Conditions = field(default_factory=Conditions)

    def figures(self) -> dict[str, Any]:
        posted = [a.seconds for a in self.answers if 200 <= a.status < 300]
        read = [s for status, s in self.reads if status == 200]
        return {
            "posts": len(self.answers), "answered": len(posted),
            "posts_per_s": len(posted) / self.seconds if self.seconds else 0.0,
            "p50_ms": 1000 * statistics.median(posted) if posted else float("nan"),
            "p99_ms": 1000 * percentile(posted, 0.99),
            "refused": sum(1 for a in self.answers if a.status >= 300),
            "unanswered": sum(1 for a in self.answers if a.status == 0),
            "client_retries": sum(a.retries for a in self.answers),
            "reads": len(self.reads), "reads_ok": len(read),
            "reads_per_s": len(read) / self.seconds if self.seconds else 0.0,
            "read_p50_ms": 1000 * statistics.median(read) if read else float("nan"),
            "read_p99_ms": 1000 * percentile(read, 0.99),
            **self.conditions.as_dict(),
        }


def load(servers: list[Server], tokens: dict[str, str], plans: list[list[Post]], *, readers: int = 0,
         by_campaign: bool = False) -> Load:
    """One thread per plan posting one post after another, and `readers` threads GETting their players' sheets
    until the last post is answered; all start together. Client n posts to server n mod count, or with
    `by_campaign` to the server of its campaign (the campaigns dealt out in turn), as a proxy routing on the
    URL's campaign would send it: each campaign is then written by one process."""
    run, lock, done = Load(), threading.Lock(), threading.Event()
    urls = [s.url for s in servers]
    barrier = threading.Barrier(len(plans) + readers + 1)
    failures: list[BaseException] = []

    campaigns = list(dict.fromkeys(plan[0].campaign for plan in plans))

    def poster(n: int, posts: list[Post], http: httpx.Client) -> None:
        first = campaigns.index(posts[0].campaign) if by_campaign else n
        for post in posts:
            answer = send(http, urls, tokens[post.user], post, first=first)
            with lock:
                run.answers.append(answer)

    def reader(n: int, http: httpx.Client) -> None:
        post = plans[n % len(plans)][0]  # a sheet someone is posting to, read by its own player
        url = f"{urls[n % len(urls)]}/campaigns/{post.campaign}/sheets/{post.body['character']}"
        headers = {"Authorization": f"Bearer {tokens[post.user]}"}
        while not done.is_set():
            started = time.perf_counter()
            try:
                status = http.get(url, headers=headers, timeout=READ_TIMEOUT).status_code
            except httpx.TransportError:
                status = 0
            with lock:
                run.reads.append((status, time.perf_counter() - started))

    posters = [client_thread(barrier, failures, partial(poster, n, p)) for n, p in enumerate(plans)]
    reading = [client_thread(barrier, failures, partial(reader, n)) for n in range(readers)]
    for thread in posters + reading:
        thread.start()
    with measured() as conditions:
        barrier.wait()
        started = time.perf_counter()
        for thread in posters:
            thread.join()
        run.seconds = time.perf_counter() - started
        done.set()
        for thread in reading:
            thread.join()
    run.conditions = conditions
    if failures:
        raise failures[0]
    return run


def lost_posts(answers: list[Answer], applied: list[str]) -> int:
    """Posts answered as stored but not stored exactly once, stored more than once, or never answered."""
    counts: dict[str, int] = {}
    for key in applied:
        counts[key] = counts.get(key, 0) + 1
    lost = 0
    for answer in answers:
        stored = counts.get(answer.post.key, 0)
        if answer.status == 0 or stored > 1 or (200 <= answer.status < 300 and stored != 1):
            lost += 1
    return lost


# --- streams held open ------------------------------------------------------------------------


@dataclass
class Streams:
    asked: int = 0
    opened: int = 0  # answered 200 before the load started
    bytes_read: int = 0
    changes: int = 0  # `event: changed` (pages) and `id:` lines (events) read while they were open


@contextmanager
def open_streams(server: Server, token: str, paths: list[str], *, settle: float = 30.0) -> Iterator[Streams]:
    """A socket per path, each a GET held open as a browser's EventSource holds it; a thread reads what arrives
    (so no server waits on a full buffer) until the block ends. `settle` bounds the wait for their answers."""
    host, port = server.url.removeprefix("http://").split(":")
    streams, chooser = Streams(asked=len(paths)), selectors.DefaultSelector()
    heads: dict[socket.socket, bytes] = {}
    for path in paths:
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        heads[sock] = b""
        chooser.register(sock, selectors.EVENT_READ)
    stop = threading.Event()

    def drain() -> None:
        while not stop.is_set():
            for key, _ in chooser.select(timeout=0.2):
                sock = key.fileobj
                try:
                    chunk = sock.recv(65536)  # type: ignore[union-attr]
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    chunk = b""
                if not chunk:
                    chooser.unregister(sock)
                    continue
                streams.bytes_read += len(chunk)
                if sock in heads and b"\r\n" not in heads[sock]:
                    heads[sock] += chunk
                    if heads[sock].startswith(b"HTTP/1.1 200"):
                        streams.opened += 1
                streams.changes += chunk.count(b"event: changed") + chunk.count(b"\nid:") + chunk.startswith(b"id:")

    reading = threading.Thread(target=drain, name="bench-streams", daemon=True)
    reading.start()
    deadline = time.monotonic() + settle
    while streams.opened < len(paths) and time.monotonic() < deadline:
        time.sleep(0.1)
    try:
        yield streams
    finally:
        stop.set()
        reading.join(timeout=5)
        for sock in heads:
            sock.close()
        chooser.close()
