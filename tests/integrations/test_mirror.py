"""The mirror: every command of a bound campaign in its thread, in order, whatever made it, once; a
fake Discord on 127.0.0.1 that answers 429 and 500 on demand; the generic webhook, signed."""

import json
import re
import threading
import time

import pytest
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.checkpoint import parse
from rollbook.integrations.config import keeper_for
from rollbook.integrations.mirror import Mirror, status
from rollbook.integrations.webhook import add, signed_by
from rollbook.testing.serving import free_port

from .support import CHANNEL, move

ID = re.compile(r"· `([^`]+)`")


def ids(messages):
    return [ID.findall(m)[-1] for m in messages]


def rolls(thread, count, start=0):
    lines = [{"type": "roll_move", "campaign": "bs", "id": f"r{start + n}", "character": "Anna",
              "stat": ("audacity", "guile", "foresight", "reputation")[n % 4], "salt": f"post {start + n}"}
             for n in range(count)]
    report = run_file(Rollbook(thread.table.state.store), "".join(json.dumps(line) + "\n" for line in lines).encode())
    assert report.error is None, report.error
    return [line["id"] for line in lines]


def test_commands_from_the_cli_and_the_api_are_posted_into_the_thread_in_order(thread):
    made = rolls(thread, 3)
    assert thread.table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile"}, key="api-1").status_code == 201
    thread.mirror()
    messages = thread.fake.channel(CHANNEL)
    assert ids(messages) == [*made, "api-1"]
    assert "Anna — Audacity" in messages[0] and "salt `post 0`" in messages[0] and "-# gm" in messages[0]
    assert all(d["body"]["enforce_nonce"] and d["body"]["allowed_mentions"] == {"parse": []}
               for d in thread.fake.sent("message"))
    assert status(thread.table.state.store, keeper_for(thread.table.state.store), "bs")["backlog"] == 0


def test_what_was_stored_before_the_binding_is_not_posted(thread):
    assert thread.mirror() == 0 and thread.fake.channel(CHANNEL) == []  # the campaign's set-up came before


def test_a_discord_command_is_its_interactions_answer_not_posted_twice(thread):
    answered = move("pirates-move", character="Anna", stat="audacity")
    thread.send(answered)
    rolls(thread, 1)
    thread.mirror()
    assert ids(thread.fake.channel(CHANNEL)) == ["r0"]
    assert thread.fake.sent("edit") == []


def test_an_answer_not_known_to_be_given_is_edited_in_and_an_expired_one_posted(thread):
    """The server stopped between storing a Discord command and recording its answer: its answer is edited
    in (no second message can come of it); an interaction whose token expired is posted as a message."""
    given, lost = move("pirates-move", character="Anna", stat="audacity"), move("pirates-move", character="Anna",
                                                                               stat="guile")
    for interaction in (given, lost):
        thread.send(interaction)
    outbox = thread.app.state.mirror.outbox
    for said in ("anna-1", "anna-2"):
        outbox.mark("bs", said, "unknown")  # as if never recorded: not "answered"
    thread.fake.tokens.discard(lost.token)  # Discord no longer knows this one
    time.sleep(0.3)  # past the grace a Discord command waits for its answer to be recorded
    thread.mirror()
    assert thread.fake.originals[given.token].startswith("Anna — Audacity")
    assert ids(thread.fake.channel(CHANNEL)) == ["anna-2"]


def test_429_retry_after_is_obeyed_and_500_retried_with_backoff(thread):
    made = rolls(thread, 4)
    thread.fake.answer(429, retry_after=0.3)
    thread.fake.answer(500, count=2)
    started = time.monotonic()
    deadline = started + 20
    while len(thread.fake.channel(CHANNEL)) < 4 and time.monotonic() < deadline:
        thread.app.state.mirror.run_once()
        time.sleep(0.01)
    assert ids(thread.fake.channel(CHANNEL)) == made
    tries = thread.fake.sent("message")
    assert [t["status"] for t in tries[:4]] == [429, 500, 500, 200]
    assert tries[1]["at"] - tries[0]["at"] >= 0.3  # Discord's retry_after, not the backoff's 0.01
    shown = status(thread.table.state.store, keeper_for(thread.table.state.store), "bs")
    assert shown["targets"][0]["delivered"] == 4 and "500" in shown["last_error"]


def test_a_down_discord_loses_nothing_and_the_thread_reads_in_order(thread):
    made = rolls(thread, 3)
    thread.fake.answer(500, count=1000)
    for _ in range(5):
        thread.app.state.mirror.run_once()
    assert thread.fake.channel(CHANNEL) == []
    shown = status(thread.table.state.store, keeper_for(thread.table.state.store), "bs")
    assert shown["backlog"] == 3 and "500" in shown["last_error"]
    thread.fake.failures.clear()
    made += rolls(thread, 2, start=3)
    deadline = time.monotonic() + 30
    while len(thread.fake.channel(CHANNEL)) < 5 and time.monotonic() < deadline:
        thread.app.state.mirror.run_once()
        time.sleep(0.05)
    assert ids(thread.fake.channel(CHANNEL)) == made


@pytest.mark.parametrize("count", [60, pytest.param(500, marks=pytest.mark.slow)])
def test_every_command_of_a_500_command_campaign_arrives_in_order(thread, count):
    made = rolls(thread, count)
    for n in range(0, 60, 7):
        thread.fake.answer(429 if n % 2 else 500, retry_after=0.01)
    deadline = time.monotonic() + 240
    while len(thread.fake.channel(CHANNEL)) < count and time.monotonic() < deadline:
        if not thread.app.state.mirror.run_once():
            time.sleep(0.01)
    assert ids(thread.fake.channel(CHANNEL)) == made
    assert status(thread.table.state.store, keeper_for(thread.table.state.store), "bs")["backlog"] == 0


def test_a_chapters_checkpoint_is_posted_with_its_signed_note(thread):
    rolls(thread, 1)
    assert thread.table.post("gm1", {"type": "end_chapter"}, key="end-1").status_code == 201
    thread.mirror()
    last = thread.fake.channel(CHANNEL)[-1]
    note = parse(last, where="the thread")
    assert note.commands == 5 and note.signed_by(thread.table.state.service.campaign("bs").public_key)


def test_a_disputes_new_revision_is_not_posted_again_but_its_ruling_is(thread):
    made = rolls(thread, 3)
    thread.mirror()
    ruled = thread.table.client.post("/campaigns/bs/disputes", headers=thread.table.headers("gm1", "ruling-1"),
                                     json={"roll": "r1", "reason": "a typo", "drop": True})
    assert ruled.status_code == 201, ruled.text
    assert thread.table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile"}, key="after").status_code == 201
    thread.mirror()
    messages = thread.fake.channel(CHANNEL)
    assert ids(messages) == [*made, "ruling-1", "after"]
    assert "gm strikes r1 (a typo): the campaign is now revision 2" in messages[3]


def test_rebinding_starts_the_mirror_from_the_binding(thread):
    from rollbook.integrations.members import Members

    members = Members(thread.table.state.store)
    rolls(thread, 1)
    members.unbind("bs", by="test")
    rolls(thread, 1, start=1)
    thread.mirror()
    assert thread.fake.channel(CHANNEL) == []
    members.bind("bs", "1300000000000000002", by="test")
    rolls(thread, 1, start=2)
    thread.mirror()
    assert ids(thread.fake.channel("1300000000000000002")) == ["r2"]


def test_two_mirrors_on_one_store_deliver_each_message_once(thread):
    made = rolls(thread, 20)
    other = Mirror(thread.table.state.store, keeper_for(thread.table.state.store), lease=30)
    first = thread.app.state.mirror
    runs = [threading.Thread(target=lambda m=m: [m.run_once() for _ in range(5)]) for m in (first, other)]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    while first.run_once() or other.run_once():
        pass
    assert ids(thread.fake.channel(CHANNEL)) == made


def test_the_servers_own_worker_posts_what_a_player_posts(rollbook_store, tmp_path, monkeypatch):
    """Not the tests' passes: `rollbook serve`'s worker thread, started with the server, rung by the post."""
    from rollbook.integrations.config import Settings
    from rollbook.integrations.members import Members
    from tests.server.conftest import table_on

    from .fake_discord import BOT_TOKEN, FakeDiscord, Running
    from .support import APPLICATION, PUBLIC_KEY

    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    running = Running(FakeDiscord())
    with running as fake:
        table = table_on(rollbook_store, posts_per_minute=0)
        store = table.state.store
        keeper_for(store).save(Settings(application_id=APPLICATION, public_key=PUBLIC_KEY, bot_token=BOT_TOKEN,
                                        api_base=running.base))
        Members(store).bind("bs", CHANNEL, by="test")
        with table.client:
            assert table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile"}, key="live-1").status_code == 201
            deadline = time.monotonic() + 20
            while not fake.channel(CHANNEL) and time.monotonic() < deadline:
                time.sleep(0.05)
        assert ids(fake.channel(CHANNEL)) == ["live-1"]


class Receiver:
    """A bridge on 127.0.0.1 taking the webhook's deliveries (and failing the first ones on demand)."""

    def __init__(self, fail_first=0):
        self.received, self.fail_first = [], fail_first
        app = FastAPI()

        @app.post("/hook")
        async def hook(request: Request):
            body = await request.body()
            self.received.append((body, dict(request.headers)))
            if len(self.received) <= self.fail_first:
                return JSONResponse({"down": True}, status_code=503)
            return JSONResponse({"ok": True})

        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)
        return self

    def __exit__(self, *_):
        self.server.should_exit = True
        self.thread.join(timeout=10)


def test_a_webhook_gets_the_same_lines_as_json_signed_like_githubs(thread):
    store = thread.table.state.store
    with Receiver(fail_first=1) as receiver:
        webhook = add(keeper_for(store), store, "bs", f"http://127.0.0.1:{receiver.port}/hook", "s3cret",
                      thread.app.state.webhook_reach)
        made = rolls(thread, 2)
        thread.send(move("pirates-move", character="Anna", stat="guile"))
        deadline = time.monotonic() + 20
        while len(receiver.received) < 4 and time.monotonic() < deadline:
            thread.app.state.mirror.run_once()
            time.sleep(0.02)
    bodies = [json.loads(body) for body, _ in receiver.received[1:]]
    assert [b["command_id"] for b in bodies][:2] == made and bodies[2]["command_id"] == "anna-1"
    assert "via" not in bodies[0] and bodies[2]["via"].startswith("discord:")
    for body, headers in receiver.received:
        assert signed_by(webhook.secret, body, headers["x-rollbook-signature"])
        assert headers["x-rollbook-signature"].startswith("sha256=") and headers["x-rollbook-event"] == "command"
    assert not signed_by("another secret", receiver.received[0][0], receiver.received[0][1]["x-rollbook-signature"])
    assert receiver.received[0][0] == receiver.received[1][0]  # the failed delivery, sent again the same
    assert bodies[0]["line"].startswith("Anna — Audacity") and bodies[0]["rolls"][0]["salt"] == "post 0"


def test_the_mirror_tells_a_players_roll_with_his_own_salt_and_the_campaigns_dice(thread):
    who = "anna"
    thread.table.post(who, {"type": "roll_move", "character": "Anna", "stat": "guile", "salt": "forum 7"}, key="own")
    thread.mirror()
    [message] = thread.fake.channel(CHANNEL)
    assert "campaign dice" in message and "salt `forum 7`" in message and "player:anna" in message
    refused = thread.table.post(who, {"type": "roll_move", "character": "Bo", "stat": "guile"}, key="bos")
    assert refused.status_code == 403
    thread.mirror()
    assert len(thread.fake.channel(CHANNEL)) == 1  # a refused command is no entry of the outbox


def test_another_campaigns_commands_are_read_past_once(thread):
    table = thread.table
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "title": "Other"},
                      campaign="other").status_code == 201
    thread.mirror()
    [lane] = [lane for lane in thread.app.state.mirror.outbox.lanes() if lane.campaign == "bs"]
    assert lane.cursor == table.stored() and thread.fake.channel(CHANNEL) == []  # not bound: nothing posted
