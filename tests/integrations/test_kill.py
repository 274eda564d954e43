"""`rollbook serve` killed (SIGKILL) ten times while its mirror delivers a 500-command campaign to a fake
Discord: nothing is lost, the thread reads in order, and the messages sent twice are counted.

A message can be sent twice only when the server dies between Discord's answer and the ledger's
record of it; the ledger knows (its `sending` survives the kill), sends it again, and counts it in
`resent`. Discord's `enforce_nonce` (which the fake applies) keeps such a repeat out of the thread.
"""

import json
import re
import time

import pytest

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.config import Settings, keeper_for
from rollbook.integrations.members import Members
from rollbook.integrations.mirror import status
from rollbook.store import Store
from tests.battle import CAMPAIGN, prepare
from rollbook.testing.serving import start

from .fake_discord import BOT_TOKEN, FakeDiscord, Running
from .support import APPLICATION, CHANNEL, PUBLIC_KEY

# Kills and races at chosen moments: one after another on one worker under xdist (tests/conftest.py).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("timing")]
COMMANDS = 500
KILLS = 10
ID = re.compile(r"· `([^`]+)`")


def test_a_server_killed_ten_times_while_delivering_loses_nothing(tmp_path):
    url = f"sqlite:///{tmp_path / 'killed.db'}"
    prepare(url, players=1)
    running = Running(FakeDiscord(delay=0.01))
    with running as fake:
        store = Store.open(url)
        try:
            keeper_for(store).save(Settings(application_id=APPLICATION, public_key=PUBLIC_KEY, bot_token=BOT_TOKEN,
                                            api_base=running.base))
            Members(store).bind(CAMPAIGN, CHANNEL, by="test")
            lines = [{"type": "roll_move", "campaign": CAMPAIGN, "id": f"m{n}", "actor": "player:p0", "character": "P0",
                      "stat": "guile", "salt": f"post {n}"} for n in range(COMMANDS)]
            assert run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in lines).encode()).error is None
        finally:
            store.close()
        env = {"ROLLBOOK_MIRROR_LEASE": "1", "ROLLBOOK_MIRROR_BACKOFF": "0.05"}
        for kill in range(KILLS):
            server = start(url, tmp_path / f"server-{kill}.log", env=env)
            seen = len(fake.sent("message"))
            deadline = time.monotonic() + 60
            while len(fake.sent("message")) < seen + 20 + 3 * kill and time.monotonic() < deadline:
                time.sleep(0.005 * (kill % 4))
            server.kill()  # SIGKILL: between any two instructions, also between sending and recording
        server = start(url, tmp_path / "server-last.log", env=env)
        try:
            deadline = time.monotonic() + 240
            while len(fake.channel(CHANNEL)) < COMMANDS and time.monotonic() < deadline:
                time.sleep(0.1)
        finally:
            server.stop()
        thread = [ID.findall(message)[-1] for message in fake.channel(CHANNEL)]
        assert thread == [f"m{n}" for n in range(COMMANDS)]  # nothing lost, in order, each once in the thread
        sent = [d["body"]["nonce"] for d in fake.sent("message") if d["status"] == 200]
        duplicates = len(sent) - len(set(sent))
    store = Store.open(url)
    try:
        [lane] = status(store, keeper_for(store), CAMPAIGN)["targets"]
    finally:
        store.close()
    print(f"\nkilled {KILLS} times delivering {COMMANDS} messages: {duplicates} sent twice "
          f"(the ledger counted {lane['resent']} sent again), none in the thread twice")
    assert lane["delivered"] == COMMANDS and lane["backlog"] == 0  # each recorded delivered once
    assert duplicates <= lane["resent"] <= KILLS  # at most one message in flight when each kill came
