"""`verify` of a store another process is writing (issue 44, item 4): an auditor checks a live server's store.

Each verify reads one state of the store (store/one_state.py): no claim read before its command, no command
read without its events, however `rollbook run` writes meanwhile. The loops are bounded by counts, and
nothing is timed: the writer is fed a share of its commands before each verify and runs until its input ends."""

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
    """Verify `live` `verifies` times while one `rollbook run -` appends `commands` commands, a share of them
    handed to it just before each verify (so it is storing them as the verify reads, however busy the machine:
    the writer stays running until its input ends, and no clock decides what overlapped); every finding any
    verify reported, and the commands each verify found."""
    subprocess.run(rollbook("run", "-", "--store", url), input=lines(0, 2), text=True, check=True,
                   capture_output=True)
    findings, counts = [], []
    share = (commands - 2) // verifies
    with subprocess.Popen(rollbook("run", "-", "--store", url), stdin=subprocess.PIPE, text=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as writer:
        for n in range(verifies):
            end = commands if n == verifies - 1 else 2 + share * (n + 1)
            writer.stdin.write(lines(2 + share * n, end))
            writer.stdin.flush()
            result = subprocess.run(rollbook("verify", "-c", "live", "--json", "--store", url), capture_output=True,
                                    text=True)
            assert "Traceback" not in result.stderr, result.stderr
            reports = json.loads(result.stdout).values()
            findings += [f["problem"] for report in reports for f in report["findings"]]
            counts.append(max(report["commands"] for report in reports))
        writer.stdin.close()
        assert writer.wait() == 0
    return findings, counts


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request, tmp_path):
    with ExitStack() as stack:
        yield (f"sqlite:///{tmp_path / 'live.db'}" if request.param == "sqlite"
               else stack.enter_context(postgres_schema()))


def test_verify_reads_one_state_while_a_run_writes(tmp_path, store_url):
    findings, counts = verifies_while_written(tmp_path, store_url, 1500, 3)
    assert findings == []
    assert counts == sorted(counts) and counts[-1] <= 1500


@pytest.mark.slow
def test_eight_verifies_during_a_ten_thousand_command_run_find_nothing(tmp_path, store_url):
    findings, counts = verifies_while_written(tmp_path, store_url, 10_000, 8)
    assert findings == [] and len(counts) == 8 and counts == sorted(counts)


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
