"""`verify` of a store another process is writing (issue 44, item 4): an auditor checks a live server's store.

Each verify reads one state of the store (store/one_state.py): no claim read before its command, no command
read without its events, however `rollbook run` writes meanwhile. The loops are bounded by counts, and
nothing is timed: a verify that happens to run after the writer ended proves nothing more, and is not counted."""

import json
import subprocess
import sys
from contextlib import ExitStack

import pytest

from rollbook.testing.plugin import postgres_schema


def lines(start, end):
    made = [{"type": "create_campaign", "ruleset": "pirates", "title": "Live"},
            {"type": "create_ship", "name": "Chaika", "navigation": 2, "firepower": 1, "displacement": 1, "hull": 4}]
    return "".join(json.dumps({"campaign": "live", "id": f"c{n}", **(made[n] if n < len(made) else {
        "type": "gain_money", "to": "Chaika", "chests": 1, "reason": f"loot {n}"})}) + "\n" for n in range(start, end))


def rollbook(*args):
    return [sys.executable, "-m", "rollbook.cli", "-q", *args]


def verifies_while_written(tmp_path, url, commands, verifies):
    """Verify `live` up to `verifies` times while `rollbook run` appends `commands` commands; the verifies made
    while it still ran, and every finding any verify reported."""
    subprocess.run(rollbook("run", "-", "--store", url), input=lines(0, 2), text=True, check=True,
                   capture_output=True)
    (tmp_path / "more.jsonl").write_text(lines(2, commands))
    during, findings = 0, []
    with subprocess.Popen(rollbook("run", str(tmp_path / "more.jsonl"), "--store", url),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as writer:
        for _ in range(verifies):
            if writer.poll() is not None:
                break
            result = subprocess.run(rollbook("verify", "-c", "live", "--json", "--store", url), capture_output=True,
                                    text=True)
            running = writer.poll() is None
            assert "Traceback" not in result.stderr, result.stderr
            findings += [f["problem"] for report in json.loads(result.stdout).values() for f in report["findings"]]
            during += running
        writer.wait()
    return during, findings


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request, tmp_path):
    with ExitStack() as stack:
        yield (f"sqlite:///{tmp_path / 'live.db'}" if request.param == "sqlite"
               else stack.enter_context(postgres_schema()))


def test_verify_reads_one_state_while_a_run_writes(tmp_path, store_url):
    during, findings = verifies_while_written(tmp_path, store_url, 1500, 3)
    assert findings == []
    assert during >= 1  # at least one verify overlapped the writer (1,500 commands outlast a verify's start)


@pytest.mark.slow
def test_eight_verifies_during_a_ten_thousand_command_run_find_nothing(tmp_path, store_url):
    during, findings = verifies_while_written(tmp_path, store_url, 10_000, 8)
    assert findings == [] and during == 8


def test_a_servers_verify_pins_its_own_thread_only(tmp_path, store_url):
    """A server verifies in one thread while others post: their reads and writes are not the verify's snapshot."""
    import threading

    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.replay.verify_campaign import verified
    from rollbook.store import Store

    store = Store.open(store_url)
    try:
        assert run_file(Rollbook(store), lines(0, 40).encode()).error is None
        reports, done = [], threading.Event()

        def verify_thrice():
            for _ in range(3):
                reports.append(verified(store, "live", None, []))
            done.set()

        checker = threading.Thread(target=verify_thrice)
        checker.start()
        posted = run_file(Rollbook(store), lines(40, 240).encode())
        checker.join()
        assert posted.error is None and done.is_set()
        assert all(not r.findings for made in reports for r in made.values())
        assert verified(store, "live", None, [])["live"].commands == 240
    finally:
        store.close()
