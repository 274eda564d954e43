"""A group's evening on real `rollbook serve` processes (issue 32): campaigns side by side on PostgreSQL,
one of them shared by two processes, and hundreds of live pages and event streams open while posting.

Every post is applied exactly once, answered with what was decided (the same answer, byte for byte,
when its key is posted again to the other process), and `rollbook verify` passes on every campaign.
No time is asserted: a client gives up after GIVE_UP seconds, far above what an answer takes.
"""

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections import Counter

import httpx
import pytest
from rollbook.testing.plugin import postgres_schema
from tests.battle import CAMPAIGN, base_commands, prepare
from rollbook.testing.serving import RETRIED, applied_ids, serving

pytestmark = pytest.mark.slow
#: Campaigns each played by its own two clients, beside the shared one played by SHARED_CLIENTS.
PRIVATE, PRIVATE_CLIENTS, SHARED_CLIENTS = 4, 2, 4
MOVES = 5
#: Seconds a client keeps asking (a busy server, a store failing over) before the test fails.
GIVE_UP = 120.0


def prepare_group(url: str) -> tuple[dict[str, str], dict[str, int]]:
    """The shared campaign (`black-sails`) and PRIVATE others (`c0`, …), each with its players; the tokens,
    and how many players each campaign has."""
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.hosting.accounts import Accounts
    from rollbook.store import Store

    tokens = prepare(url, SHARED_CLIENTS)  # black-sails, the GM and players p0, p1, …
    players = {CAMPAIGN: SHARED_CLIENTS, **{f"c{n}": PRIVATE_CLIENTS for n in range(PRIVATE)}}
    store = Store.open(url)
    try:
        for name, count in players.items():
            if name == CAMPAIGN:
                continue
            lines = [{**c, "campaign": name, "id": f"{name}-{c['id']}"} for c in base_commands(count)]
            report = run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in lines).encode())
            assert report.error is None, report.error
            accounts = Accounts(store)
            accounts.grant(name, "gm", "gm", by="test")
            for n in range(count):
                accounts.grant(name, f"p{n}", "player", by="test")
    finally:
        store.close()
    return tokens, players


def post(http: httpx.Client, url: str, campaign: str, token: str, key: str, body: dict) -> httpx.Response:
    """POST one command, asking again with the same key while the server is busy or gone; bounded by GIVE_UP."""
    deadline = time.monotonic() + GIVE_UP
    while True:
        try:
            answer = http.post(f"{url}/campaigns/{campaign}/commands", json=body, timeout=GIVE_UP,
                               headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key})
            if answer.status_code not in RETRIED:
                return answer
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{key}: no answer within {GIVE_UP:.0f} s")
        time.sleep(0.05)


def move(campaign: str, player: int, n: int) -> tuple[str, dict]:
    faces = [(3, 4), (6, 2), (1, 1), (5, 5), (2, 6), (4, 3)][(player + n) % 6]
    return f"{campaign}-p{player}-{n}", {"type": "roll_move", "character": f"P{player}", "stat": "audacity",
                                         "dice": list(faces)}


def test_two_processes_play_many_campaigns_and_share_one_applying_every_post_once(tmp_path, monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    with postgres_schema() as url:
        tokens, players = prepare_group(url)
        clients = [(campaign, player) for campaign, count in players.items() for player in range(count)]
        answers: dict[str, tuple[str, httpx.Response]] = {}
        failures: list[BaseException] = []
        with serving(url, tmp_path, count=2) as servers:
            urls = [server.url for server in servers]
            barrier = threading.Barrier(len(clients))

            def client(number: int, campaign: str, player: int) -> None:
                try:
                    with httpx.Client() as http:
                        barrier.wait(GIVE_UP)
                        for n in range(MOVES):
                            key, body = move(campaign, player, n)
                            # The shared campaign's clients alternate between the processes, post by post;
                            # each other campaign is played on one process (c0 on the first, c1 on the second, …).
                            served = number + n if campaign == CAMPAIGN else int(campaign[1:])
                            answers[key] = (campaign, post(http, urls[served % 2], campaign,
                                                           tokens[f"p{player}"], key, body))
                except BaseException as error:  # noqa: BLE001 - said by the test's thread below
                    failures.append(error)

            threads = [threading.Thread(target=client, args=(n, c, p)) for n, (c, p) in enumerate(clients)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(GIVE_UP * MOVES)
            assert not failures, failures[0]
            assert not any(thread.is_alive() for thread in threads), "a client never finished"
            conflicts = sum(1 for s in servers for line in s.logs() if line.get("event") == "command.retry")

            assert len(answers) == len(clients) * MOVES
            assert all(answer.status_code == 201 for _, answer in answers.values()), \
                {key: answer.text[:200] for key, (_, answer) in answers.items() if answer.status_code != 201}
            # Each answer is what was decided: the other process, reading it back, answers the same bytes.
            with httpx.Client() as http:
                for number, (key, (campaign, first)) in enumerate(sorted(answers.items())[::7]):
                    player, n = (int(part) for part in key.removeprefix(f"{campaign}-p").split("-"))
                    again = post(http, urls[number % 2], campaign, tokens[f"p{player}"], key, move(campaign, player, n)[1])
                    assert again.headers.get("Idempotent-Replayed") == "true"
                    assert again.content == first.content, key

        recorded = Counter(applied_ids(url))
        assert all(recorded[key] == 1 for key in answers), {k: recorded[k] for k in answers if recorded[k] != 1}
        assert all(count == 1 for count in recorded.values()), [k for k, c in recorded.items() if c > 1]
        for campaign in players:
            verified = subprocess.run([sys.executable, "-m", "rollbook.cli", "verify", "--store", url, "-c", campaign],
                                      capture_output=True, text=True, timeout=300)
            assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]
        shared = sorted(a.elapsed.total_seconds() for c, a in answers.values() if c == CAMPAIGN)
        print(f"\n2 processes, {len(players)} campaigns, {len(clients)} clients: {len(answers)} posts applied once, "
              f"{conflicts} conflict retries; the shared campaign's slowest answer {1000 * shared[-1]:.0f} ms")


# --- 200 live pages and 200 event streams open while posting ----------------------------------------

#: Live pages and `/events` streams open at once, and how many are being opened at any moment.
PAGES, STREAMS, OPENING = 200, 200, 25
#: Posts made while they are open, a few at a time.
POSTS, POSTING = 30, 3


class Watcher:
    """One open stream (a live page's or the API's `/events`), counting what it has been sent."""

    def __init__(self, path: str, token: str, heard: str) -> None:
        self.path, self.token, self.heard = path, token, heard
        self.opened, self.told = asyncio.Event(), asyncio.Event()
        self.ids: set[int] = set()

    async def watch(self, client: httpx.AsyncClient, gate: asyncio.Semaphore) -> None:
        async with gate:
            stream = client.stream("GET", self.path, headers={"Authorization": f"Bearer {self.token}"})
            answer = await stream.__aenter__()
        try:
            assert answer.status_code == 200, answer.status_code
            self.opened.set()
            async for line in answer.aiter_lines():
                if line.startswith("id: "):
                    self.ids.add(int(line[4:]))
                if line.startswith(self.heard):
                    self.told.set()
        finally:
            await stream.__aexit__(None, None, None)


async def post_while_watched(base: str, tokens: dict[str, str]) -> tuple[list[httpx.Response], list[Watcher]]:
    limits = httpx.Limits(max_connections=PAGES + STREAMS + POSTING + 5)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=httpx.Timeout(GIVE_UP, read=None)) as client:
        gate = asyncio.Semaphore(OPENING)
        head = (await client.get("/health")).json()["position"]  # the streams follow from here, however late they start
        watchers = ([Watcher(f"/campaigns/{CAMPAIGN}/live", tokens[f"p{n % 2}"], "event: changed") for n in range(PAGES)]
                    + [Watcher(f"/campaigns/{CAMPAIGN}/events?from={head}", tokens[f"p{n % 2}"], "id: ")
                       for n in range(STREAMS)])
        tasks = [asyncio.create_task(w.watch(client, gate)) for w in watchers]
        try:
            await asyncio.wait_for(asyncio.gather(*(w.opened.wait() for w in watchers)), GIVE_UP)
            posting = asyncio.Semaphore(POSTING)

            async def one(n: int) -> httpx.Response:
                async with posting:
                    return await asyncio.wait_for(client.post(
                        f"/campaigns/{CAMPAIGN}/commands", json={"type": "roll_move", "character": f"P{n % 2}",
                                                                 "stat": "audacity", "dice": [3, 4]},
                        headers={"Authorization": f"Bearer {tokens[f'p{n % 2}']}", "Idempotency-Key": f"watched-{n}"}),
                        GIVE_UP)

            answers = await asyncio.gather(*(one(n) for n in range(POSTS)))
            await asyncio.wait_for(asyncio.gather(*(w.told.wait() for w in watchers)), GIVE_UP)
            stored = {event["position"] for answer in answers if answer.status_code == 201
                      for event in answer.json()["events"]}
            deadline = time.monotonic() + GIVE_UP
            while time.monotonic() < deadline and not all(stored <= w.ids for w in watchers if "/events" in w.path):
                await asyncio.sleep(0.1)  # the last events on their way down the streams
            assert all(not task.done() for task in tasks), "a stream ended"
            return answers, watchers
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def test_posts_are_answered_while_two_hundred_live_pages_and_two_hundred_event_streams_are_open(tmp_path, monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    url = f"sqlite:///{tmp_path / 'watched.db'}"
    tokens = prepare(url, players=2)
    with serving(url, tmp_path) as (server,):
        answers, watchers = asyncio.run(post_while_watched(server.url, tokens))
    assert [answer.status_code for answer in answers] == [201] * POSTS
    # Every /events stream was sent every event the posts stored (it opened before the first of them).
    stored = {event["position"] for answer in answers for event in answer.json()["events"]}
    assert all(stored <= w.ids for w in watchers if "/events" in w.path)
    assert Counter(applied_ids(url))["watched-0"] == 1
