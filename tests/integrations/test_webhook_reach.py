"""Issue 46, 1: a webhook reaches public addresses over https only, unless the server's operator allowed a range.

The attack of December 7 (notes/attacks-december-7/webhook_ssrf_config.sh) added webhooks to the cloud's metadata
address, a private network, the store's port on localhost, a unique-local IPv6 address and 127.0.0.1 spelled as a
number, and `webhook list` printed a URL's password. Each is refused here, at add and at delivery; names are resolved
by a resolver the test holds (no network); the receivers are on 127.0.0.1, with 127.0.0.0/8 allowed.
"""

import json
import time

import pytest
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse, RedirectResponse

from rollbook.domain.errors import CommandRejected
from rollbook.integrations.config import Settings, Webhook, keeper_for
from rollbook.integrations.mirror import status
from rollbook.integrations import outbound
from rollbook.integrations.outbound import Reach, networks
from rollbook.integrations.webhook import add

from .conftest import PUBLIC_NAMES
from .test_cli_discord import rollbook, store  # noqa: F401 - the CLI's campaign `bs` in a SQLite store
from .test_mirror import Receiver

#: Names as a hostile DNS would answer them: the cloud's metadata name, a name for the store's host.
NAMES = {"metadata.google.internal": ["169.254.169.254"], "localhost": ["127.0.0.1", "::1"],
         "inside.example.org": ["93.184.215.14", "10.1.2.3"], "receiver.test": ["127.0.0.1"]}


def resolver(host, port):
    return NAMES.get(host) or PUBLIC_NAMES[host]


#: Each URL the attack added, with the range its address is refused as.
ATTACK = [("http://169.254.169.254/latest/meta-data/", "link-local"), ("http://10.0.0.1/", "private"),
          ("http://localhost:5432/", "loopback"), ("http://[fd00::1]/", "private"),
          ("http://2130706433/", "127.0.0.1 (loopback)"), ("http://0x7f.1/", "127.0.0.1 (loopback)"),
          ("http://metadata.google.internal/computeMetadata/v1/", "169.254.169.254 (link-local)")]
#: The same over https (the scheme is not what refuses them), and the other spellings of a private address.
SPELLINGS = [*((url.replace("http://", "https://"), why) for url, why in ATTACK),
             ("https://0177.0.0.1/", "127.0.0.1 (loopback)"), ("https://127.1/", "127.0.0.1 (loopback)"),
             ("https://0x7f000001/", "127.0.0.1 (loopback)"), ("https://[::1]/", "::1 (loopback)"),
             ("https://[::ffff:127.0.0.1]/", "127.0.0.1, loopback"), ("https://[::ffff:a9fe:a9fe]/", "link-local"),
             ("https://[2002:7f00:1::]/", "127.0.0.1, loopback"), ("https://[fe80::1%25eth0]/", "link-local"),
             ("https://0.0.0.0/", "unspecified"), ("https://0/", "unspecified"), ("https://[::]/", "unspecified"),
             ("https://224.0.0.1/", "multicast"), ("https://[ff02::1]/", "multicast"),
             ("https://240.0.0.1/", "reserved"), ("https://100.64.0.1/", "not global"),
             ("https://192.168.1.1:8443/", "private"), ("https://172.16.0.1/", "private"),
             ("https://inside.example.org/", "10.1.2.3 (private)")]


@pytest.mark.parametrize(("url", "why"), SPELLINGS)
def test_every_spelling_of_an_address_not_public_is_refused(url, why):
    with pytest.raises(CommandRejected) as refused:
        Reach(resolve=resolver).addresses(url)
    assert why in refused.value.message and "--allow-webhook-network" in refused.value.message


def test_a_public_address_over_https_is_taken_and_http_only_to_an_allowed_range():
    reach = Reach(resolve=lambda host, port: ["93.184.215.14"])
    assert [str(a) for a in reach.addresses("https://bridge.example.org/in")[1]] == ["93.184.215.14"]
    with pytest.raises(CommandRejected, match="is https://"):
        reach.addresses("http://bridge.example.org/in")
    allowed = Reach(networks(["127.0.0.0/8", "::1/128", "fd00::/8"]), resolve=resolver)
    for url in ("http://127.0.0.1:9/x", "http://2130706433/", "http://[fd00::1]/", "https://localhost/"):
        assert allowed.addresses(url)
    with pytest.raises(CommandRejected, match=r"10\.0\.0\.1 \(private\)"):
        allowed.addresses("https://10.0.0.1/")
    with pytest.raises(CommandRejected, match="is not a network"):
        networks(["localhost"])


@pytest.mark.parametrize("url", ["https://user:pw@bridge.example.org/in", "https://token@bridge.example.org/",
                                 "https://:pw@[2606:2800:21f:cb07::1]/"])
def test_credentials_in_a_url_are_refused_and_never_quoted(url):
    with pytest.raises(CommandRejected, match="no user or password") as refused:
        Reach(resolve=lambda host, port: ["93.184.215.14"]).addresses(url)
    assert "pw" not in refused.value.message and "token" not in refused.value.message


def test_the_attack_adds_nothing_and_the_list_prints_no_password(store, monkeypatch):  # noqa: F811
    monkeypatch.setattr(outbound, "system_resolver", resolver)
    for url, why in [*ATTACK, ("http://user:pw@bridge.example.org/", "no user or password")]:
        added = rollbook("webhook", "add", "-c", "bs", "--url", url, "--store", store)
        assert added.exit_code == 1 and "Traceback" not in added.output, added.output
        assert why.split(" (")[-1].rstrip(")") in added.output and "pw" not in added.output
    assert json.loads(rollbook("webhook", "list", "-c", "bs", "--store", store, "--json").output) == []
    # A webhook an older version kept with a password: listed without it.
    from rollbook.store import Store

    opened = Store.open(store)
    keeper_for(opened).save(Settings(webhooks=(Webhook("wh-old", "bs", "https://u:hunter2@b.example.org/h?x=1",
                                                       "s", 0),)))
    opened.close()
    for words in (["--json"], []):
        listed = rollbook("webhook", "list", "-c", "bs", "--store", store, *words).output
        assert "hunter2" not in listed and "u:" not in listed and "b.example.org/h?x=1" in listed


def test_over_http_the_gm_is_refused_a_private_address(thread):
    table = thread.table
    for url in ("http://169.254.169.254/latest/meta-data/", "https://[::ffff:10.0.0.1]/", "https://u:p@b.example.org/"):
        refused = table.client.post("/campaigns/bs/webhooks", json={"url": url}, headers=table.headers("gm1"))
        assert refused.status_code == 422 and refused.json()["error"]["field"] == "url", refused.text
    assert table.get("gm1", "/campaigns/bs/webhooks").json() == []


class Answering(Receiver):
    """A receiver on 127.0.0.1 that answers 500 with a body, or redirects, as told."""

    def __init__(self, answer):
        super().__init__()
        self.app = app = FastAPI()
        self.hosts = []

        @app.post("/hook")
        async def hook(request: Request):
            self.received.append((await request.body(), dict(request.headers)))
            self.hosts.append(request.headers.get("host"))
            return answer()

        @app.post("/elsewhere")
        async def elsewhere(request: Request):
            self.received.append((b"redirected", {}))
            return PlainTextResponse("ok")

        self.server.config.app = app


def deliver_until(thread, done):
    deadline = time.monotonic() + 20
    while not done() and time.monotonic() < deadline:
        thread.app.state.mirror.run_once()
        time.sleep(0.02)


def test_a_failed_delivery_tells_the_gm_its_status_never_the_answer_and_players_nothing(thread):
    store, table = thread.table.state.store, thread.table
    thread.app.state.mirror.backoff = 60.0  # one try in this test
    answer = lambda: PlainTextResponse("db password is hunter2", status_code=500)  # noqa: E731
    with Answering(answer) as receiver:
        add(keeper_for(store), store, "bs", f"http://127.0.0.1:{receiver.port}/hook", None,
            thread.app.state.webhook_reach)
        table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
        deliver_until(thread, lambda: receiver.received)
    gm = table.get("gm1", "/campaigns/bs/discord").json()
    assert "500: Internal Server Error" in gm["last_error"] and "hunter2" not in json.dumps(gm)
    for member in ("anna", "aud"):
        seen = table.get(member, "/campaigns/bs/discord").json()
        assert seen["last_error"] is None and all(t["last_error"] is None for t in seen["targets"])
        assert "hunter2" not in json.dumps(seen) and seen["backlog"] == gm["backlog"]


def test_a_redirect_is_not_followed(thread):
    store = thread.table.state.store
    thread.app.state.mirror.backoff = 60.0
    with Answering(lambda: RedirectResponse("/elsewhere", status_code=307)) as receiver:
        add(keeper_for(store), store, "bs", f"http://127.0.0.1:{receiver.port}/hook", None,
            thread.app.state.webhook_reach)
        thread.table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
        deliver_until(thread, lambda: receiver.received)
        thread.app.state.mirror.run_once()
    assert len(receiver.received) == 1 and receiver.received[0][0] != b"redirected"
    assert "307" in status(store, keeper_for(store), "bs")["last_error"]


def test_each_delivery_checks_again_and_connects_to_the_address_it_checked(thread):
    """The name is resolved once per delivery, by the check, and the connection goes there with the name as Host:
    a resolver that answers 127.0.0.1 then (rebound) 10.0.0.1 gets one delivery, then a refusal."""
    store = thread.table.state.store
    answers = [["127.0.0.1"], ["10.0.0.1"]]
    asked = []

    def rebinding(host, port):
        asked.append(host)
        return answers[0] if len(asked) <= 2 else answers[1]  # the add's look-up, the first delivery's; then rebound

    reach = Reach(networks(["127.0.0.0/8"]), resolve=rebinding)
    thread.app.state.mirror.reach = reach
    thread.app.state.mirror.backoff = 60.0
    with Answering(lambda: PlainTextResponse("ok")) as receiver:
        add(keeper_for(store), store, "bs", f"http://receiver.test:{receiver.port}/hook", None, reach)
        thread.table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
        deliver_until(thread, lambda: receiver.received)
        assert receiver.hosts == [f"receiver.test:{receiver.port}"] and asked == ["receiver.test"] * 2
        thread.table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
        thread.app.state.mirror.run_once()
    assert len(receiver.received) == 1 and asked == ["receiver.test"] * 3
    assert "10.0.0.1 (private)" in status(store, keeper_for(store), "bs")["last_error"]


def test_a_range_allowed_when_the_webhook_was_added_but_not_by_the_server_is_refused_at_delivery(thread):
    store = thread.table.state.store
    thread.app.state.mirror.backoff = 60.0
    with Answering(lambda: PlainTextResponse("ok")) as receiver:
        add(keeper_for(store), store, "bs", f"http://127.0.0.1:{receiver.port}/hook", None,
            thread.app.state.webhook_reach)
        thread.app.state.mirror.reach = Reach()
        thread.table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1})
        thread.app.state.mirror.run_once()
    assert receiver.received == []
    assert "127.0.0.1 (loopback)" in status(store, keeper_for(store), "bs")["last_error"]
