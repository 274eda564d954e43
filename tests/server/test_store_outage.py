"""PostgreSQL going away under a running `rollbook serve` and coming back: posts wait, nothing lost or doubled."""

import threading
import time
from collections import Counter

import httpx
import pytest
from tests.battle import planned, prepare
from rollbook.testing.serving import applied_ids, post, start


@pytest.mark.slow
def test_postgresql_stopped_and_started_under_a_serving_process(private_postgres, tmp_path, monkeypatch):
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    url = private_postgres.url
    tokens = prepare(url, 1)
    moves = [planned("p0", f"k{n}", {"type": "roll_move", "character": "P0", "stat": "audacity", "dice": [3, 4]})
             for n in range(30)]
    server = start(url, tmp_path / "server.log")
    answers, statuses = {}, Counter()

    def client():
        with httpx.Client() as http:
            for item in moves:
                answers[item.key] = post(http, [server.url], tokens["p0"], item)

    poster = threading.Thread(target=client)
    try:
        poster.start()
        while len(answers) < 10:
            time.sleep(0.01)
        private_postgres.stop()  # every connection cut, as in a crash
        outage = httpx.get(f"{server.url}/health", timeout=30)
        statuses[outage.status_code] += 1
        time.sleep(2)
        private_postgres.start()
        poster.join(timeout=180)
    finally:
        server.stop()
    assert statuses == {503: 1}, f"while the database is away the server says so: {statuses}, {outage.text[:300]}"
    assert len(answers) == len(moves), f"{len(answers)} of {len(moves)} posts answered; log: {server.log.read_text()[-1500:]}"
    assert all(a.status == 201 for a in answers.values()), {k: (a.status, a.body) for k, a in answers.items()
                                                            if a.status != 201}
    recorded = Counter(applied_ids(url))
    assert all(recorded[m.key] == 1 for m in moves)
    retried = sum(a.retries for a in answers.values())
    assert retried >= 1, "the post in flight when the database went away was answered 503 or cut, and retried"
    print(f"\nPostgreSQL away ~2 s: {retried} retries (503 or no answer), {len(moves)} posts applied once each")
