"""A server with Discord set up (a test key for Discord's, a fake Discord API on 127.0.0.1), its
campaign `bs` bound to a thread, and anna, bo, the GM and the auditor linked to Discord members."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from rollbook.integrations import outbound
from rollbook.integrations.config import Settings, keeper_for
from rollbook.integrations.members import Members
from tests.server.conftest import Table, table_on

from .fake_discord import BOT_TOKEN, FakeDiscord, Running
from .fake_telegram import FakeTelegram, RunningTelegram
from .support import APPLICATION, CHANNEL, MEMBERS, PUBLIC_KEY, Interaction, send


@dataclass
class Thread:
    """The table, seen from Discord: interactions in, the mirror out."""

    table: Table
    fake: FakeDiscord

    @property
    def app(self) -> Any:
        return self.table.client.app

    def send(self, interaction: Interaction | bytes, headers: dict[str, str] | None = None) -> Any:
        answer = send(self.table.client, interaction, headers)
        if isinstance(interaction, Interaction) and answer.status_code == 200:
            self.fake.tokens.add(interaction.token)  # Discord took the answer: the token may be edited
        return answer

    def mirror(self) -> int:
        """Run the mirror until it has nothing more to send now; how many passes delivered."""
        passes = 0
        while self.app.state.mirror.run_once():
            passes += 1
        return passes

    def stored(self) -> int:
        return self.table.stored()


#: The names these tests give webhooks, and the public addresses they stand for (documentation ranges are not global,
#: so these are addresses of the public internet; nothing is ever sent to them).
PUBLIC_NAMES = {"bridge.example.org": ["93.184.215.14"], "b.example.org": ["93.184.215.14", "2606:2800:21f:cb07::1"]}


@pytest.fixture(autouse=True)
def resolver_without_network(monkeypatch):
    """Webhooks' names resolved from PUBLIC_NAMES, never by DNS: a test asks no network."""

    def resolve(host, port):
        if host not in PUBLIC_NAMES:
            raise OSError(f"no such name in the tests: {host}")
        return PUBLIC_NAMES[host]

    monkeypatch.setattr(outbound, "system_resolver", resolve)


@pytest.fixture(scope="session")
def fake_discord():
    """One fake Discord for the run (starting a server for each test costs more than the test)."""
    running = Running(FakeDiscord())
    with running:
        yield running


@pytest.fixture(scope="session")
def fake_telegram():
    """One fake Telegram Bot API for the run, as the fake Discord."""
    running = RunningTelegram(FakeTelegram())
    with running:
        yield running


@pytest.fixture
def thread(rollbook_store, tmp_path, monkeypatch, fake_discord):
    monkeypatch.setenv("ROLLBOOK_MIRROR", "0")  # the tests run the mirror's passes themselves
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    running = fake_discord
    running.fake.reset()
    running_fake = running.fake
    table = table_on(rollbook_store, posts_per_minute=0, allow_webhook_networks=("127.0.0.0/8",))  # the receivers
    with table.client:
        store = table.state.store
        keeper_for(store).save(Settings(application_id=APPLICATION, public_key=PUBLIC_KEY, bot_token=BOT_TOKEN,
                                        api_base=running.base))
        members = Members(store)
        for user in ("anna", "bo", "gm1", "aud"):
            members.link(user, MEMBERS[user], by="test")
        members.bind("bs", CHANNEL, by="test")
        table.client.app.state.mirror.grace = 0.2
        table.client.app.state.mirror.backoff = 0.01
        yield Thread(table, running_fake)
