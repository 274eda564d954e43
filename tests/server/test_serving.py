"""Real `rollbook serve` processes: 20 clients at once, two servers on PostgreSQL, a server killed mid-post.

Every command is applied exactly once however the posts interleave, and the once-only limit
every client races for is won once. A client whose server dies mid-request posts again with
the same Idempotency-Key and gets the first answer (if it was stored) or a fresh application:
never two. The figures are printed (bench/RESULTS.md has the bench's).
"""

import json
import threading
from collections import Counter

import httpx
import pytest
from rollbook.testing.plugin import postgres_schema
from tests.battle import CAMPAIGN, plan, planned, prepare
from rollbook.testing.serving import applied_ids, load, post, serving, start

CLIENTS = 20
MOVES = 5


@pytest.fixture(params=["sqlite", "postgres"])
def served_store(request, tmp_path, monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    if request.param == "sqlite":
        yield "sqlite", f"sqlite:///{tmp_path / 'served.db'}"
    else:
        with postgres_schema() as url:
            yield "postgres", url


def check_exactly_once(url, plans, run):
    recorded = Counter(applied_ids(url))
    assert all(count == 1 for count in recorded.values()), [k for k, c in recorded.items() if c > 1]
    moves = [p for plan in plans for p in plan if p.body["type"] == "roll_move"]
    assert all(recorded[m.key] == 1 for m in moves)
    assert all(p.status == 201 for p in run.posted if p.planned.body["type"] == "roll_move")
    bids = [p for p in run.posted if p.planned.body["type"] == "take_breakdown"]
    winners = [b for b in bids if b.status == 201]
    assert len(winners) == 1, [(b.planned.key, b.status) for b in bids]
    assert all(b.status == 422 and "once per battle" in b.body["error"]["reason"] or b.status == 422
               for b in bids if b is not winners[0])
    assert sum(recorded[b.planned.key] for b in bids) == 1


@pytest.mark.slow
def test_twenty_clients_at_once_apply_every_command_exactly_once(served_store, tmp_path):
    kind, url = served_store
    tokens = prepare(url, CLIENTS)
    plans = plan(CLIENTS, MOVES)
    with serving(url, tmp_path, count=1 if kind == "sqlite" else 2) as servers:
        run = load(servers, tokens, plans)
        conflicts = sum(1 for s in servers for line in s.logs() if line.get("event") == "command.retry")
    check_exactly_once(url, plans, run)
    figures = run.figures()
    print(f"\n{kind}, {len(servers)} server(s), {CLIENTS} clients: {figures['posts']} posts, "
          f"{figures['posts_per_s']:.0f} posts/s, p50 {figures['p50_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms, "
          f"{figures['client_retries']} client retries, {conflicts} conflict retries in the servers")


@pytest.mark.slow
def test_a_server_killed_mid_post_loses_nothing_and_applies_nothing_twice(served_store, tmp_path):
    kind, url = served_store
    tokens = prepare(url, 1)
    moves = [planned("p0", f"k{n}", {"type": "roll_move", "character": "P0", "stat": "audacity", "dice": [3, 4]})
             for n in range(60)]
    log = tmp_path / "killed.log"
    server = start(url, log)
    address, port = server.url, server.url.rsplit(":", 1)[1]
    answers: dict = {}
    # After every tenth answer the client asks for a kill and goes on posting (so the kill usually lands
    # mid-request), but at most three posts further before it waits for the kill: under load the whole
    # run must not outpace the killer.
    wanted, killed = [threading.Event() for _ in range(3)], [threading.Event() for _ in range(3)]

    def client():
        with httpx.Client() as http:
            for n, item in enumerate(moves):
                for k in range(3):
                    if n == 10 * (k + 1) + 3:
                        killed[k].wait(timeout=120)
                answers[item.key] = post(http, [address], tokens["p0"], item)
                if len(answers) % 10 == 0 and len(answers) <= 30:
                    wanted[len(answers) // 10 - 1].set()

    poster = threading.Thread(target=client)
    poster.start()
    kills = 0
    try:
        for k in range(3):
            if not wanted[k].wait(timeout=180):
                break
            server.kill()  # whatever request is in flight dies with it
            kills += 1
            server = start(url, log, port=int(port))
            killed[k].set()
        poster.join(timeout=180)
    finally:
        for event in killed:
            event.set()
        server.stop()
    assert kills == 3 and len(answers) == len(moves)
    recorded = Counter(applied_ids(url))
    assert all(recorded[m.key] == 1 for m in moves), {m.key: recorded[m.key] for m in moves if recorded[m.key] != 1}
    assert all(a.status == 201 for a in answers.values())
    retried = [a for a in answers.values() if a.retries]
    # A retried post's answer is the stored one: the position its command really has.
    with serving(url, tmp_path / "..", count=1) as (again,):
        for answer in retried:
            repeat = post(httpx.Client(), [again.url], tokens["p0"], answer.planned)
            assert repeat.body == answer.body
    print(f"\n{kind}: 3 kills, {len(retried)} posts retried across them, {len(moves)} applied once each")


def sse_events(lines, count):
    """The next `count` events of a server-sent events stream's lines: (id, data)."""
    found, event = [], {}
    for line in lines:
        if line.startswith("id: "):
            event["id"] = int(line[4:])
        elif line.startswith("data: "):
            event["data"] = json.loads(line[6:])
        elif not line and event:
            found.append((event["id"], event["data"]))
            event = {}
            if len(found) == count:
                return found
    return found


@pytest.mark.slow
def test_the_live_stream_resumes_after_last_event_id_and_carries_posts_from_any_server(served_store, tmp_path):
    kind, url = served_store
    tokens = prepare(url, 1)
    with serving(url, tmp_path, count=2) as (first, second), httpx.Client(timeout=60) as http:
        headers = {"Authorization": f"Bearer {tokens['gm']}"}
        log = http.get(f"{first.url}/campaigns/{CAMPAIGN}/log", headers=headers).json()
        middle = log[len(log) // 2]["position"]
        with http.stream("GET", f"{first.url}/campaigns/{CAMPAIGN}/events",
                         headers={**headers, "Last-Event-ID": str(middle)}) as stream:
            lines = stream.iter_lines()
            resumed = sse_events(lines, len([e for e in log if e["position"] > middle]))
            assert resumed == [(e["position"], e) for e in log if e["position"] > middle]
            move = planned("p0", "live-1", {"type": "roll_move", "character": "P0", "stat": "audacity", "dice": [6, 6]})
            answer = post(http, [second.url], tokens["p0"], move)  # stored by the other process
            live = sse_events(lines, len(answer.body["events"]))
        assert live == [(e["position"], e) for e in answer.body["events"]]


@pytest.mark.slow
def test_serve_demo_prints_tokens_and_curl_lines_that_work(tmp_path):
    import re
    import subprocess
    import sys
    import time

    from rollbook.testing.serving import free_port

    port = free_port()
    logged = (tmp_path / "stderr").open("w")
    process = subprocess.Popen([sys.executable, "-m", "rollbook.cli", "serve", "--demo", "--port", str(port)],
                               cwd=tmp_path, stdout=subprocess.PIPE, stderr=logged, text=True)
    try:
        printed = ""
        while "/openapi.json" not in printed:
            printed += process.stdout.readline()
        gm, anna = re.search(r"GM=(\S+)", printed)[1], re.search(r"ANNA=(\S+)", printed)[1]
        base = f"http://127.0.0.1:{port}/campaigns/black-sails"
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the demo server never answered"
                time.sleep(0.2)
        assert httpx.get(f"{base}/sheets/Anna", headers={"Authorization": f"Bearer {anna}"}).json()["name"] == "Anna"
        posted = [line for line in printed.splitlines() if "-d '" in line]
        for line, expected in zip(posted, (201, 403), strict=True):
            body = json.loads(line.split("-d '")[1].split("'")[0])
            key = re.search(r"Idempotency-Key: (\S+)\"", printed.split(line)[0].splitlines()[-1])[1]
            answer = httpx.post(f"{base}/commands", json=body, headers={"Authorization": f"Bearer {anna}",
                                                                      "Idempotency-Key": key})
            assert answer.status_code == expected, answer.text
        assert httpx.get(f"{base}/rolls", headers={"Authorization": f"Bearer {gm}"}).json()[-1]["id"] == "anna-demo-1"
        # The pages have something to show: rolls verified from an ended chapter's seed, rolls still pending.
        page = httpx.get(f"{base}/rolls", headers={"Authorization": f"Bearer {gm}", "Accept": "text/html"}).text
        assert "proof-verified" in page and "proof-pending" in page and "proof-typed" in page
        assert "Auditor token (user audrey)" in printed and "In a browser: open" in printed
    finally:
        process.terminate()
        process.wait(timeout=30)
        logged.close()
    # The demo's own commands are not logged (they would bury the banner); the one post served is.
    assert (tmp_path / "stderr").read_text().count("command.applied") == 1

