"""An in-process Rollbook server (FastAPI's test client) with a GM, a player, an auditor and an outsider."""

from dataclasses import dataclass, field
from itertools import count

import pytest
from fastapi.testclient import TestClient
from rollbook.replay.replayer import replay
from rollbook.bootstrap import create_app

ANNA = {"type": "create_character", "name": "Anna", "player": "anna",
        "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1}
BO = {**ANNA, "name": "Bo", "player": "bo"}


@dataclass
class Table:
    client: TestClient
    tokens: dict[str, str]
    keys: count = field(default_factory=lambda: count(1))

    @property
    def state(self):
        return self.client.app.state.rollbook

    def headers(self, user, key=None, **more):
        headers = {"Authorization": f"Bearer {self.tokens[user]}"} if user else {}
        if key is not None:
            headers["Idempotency-Key"] = key
        return {**headers, **more}

    def post(self, user, body, campaign="bs", key=None, **headers):
        key = key or f"k{next(self.keys)}"
        return self.client.post(f"/campaigns/{campaign}/commands", json=body, headers=self.headers(user, key, **headers))

    def get(self, user, path, **params):
        return self.client.get(path, headers=self.headers(user), params=params)

    def stored(self):
        return self.state.store.app.recorder.max_notification_id() or 0


def table_on(url, **options):
    client = TestClient(create_app(url, **options))
    accounts = client.app.state.rollbook.accounts
    tokens = {name: accounts.add(name) for name in ("gm1", "anna", "bo", "aud", "carl")}
    table = Table(client, tokens)
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "title": "Black Sails"}).status_code == 201
    for user, role in (("anna", "player"), ("bo", "player"), ("aud", "auditor")):
        assert client.put(f"/campaigns/bs/members/{user}", json={"role": role}, headers=table.headers("gm1")).status_code == 200
    for body in (ANNA, BO, {"type": "start_chapter"}):
        assert table.post("gm1", body).status_code == 201
    return table


@pytest.fixture
def table(rollbook_store):
    made = table_on(rollbook_store, posts_per_minute=0)
    with made.client:
        yield made
        # What the server stored replays identically, as every campaign the tests build must.
        report = replay(made.state.store, "bs", verify=True)
        assert report.difference is None, report.difference


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes tens of seconds (processes, kills, servers); runs in CI too")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A real `rollbook serve` of testing.serving's campaign, two players signed up, for a module's remote
    clients: (its store URL, the server, every user's token)."""
    from tests.battle import prepare
    from rollbook.testing.serving import serving

    folder = tmp_path_factory.mktemp("remote")
    url = f"sqlite:///{folder / 'remote.db'}"
    tokens = prepare(url, 2)
    with serving(url, folder, env={"ROLLBOOK_SECRETS": str(folder / "secrets")}) as (server,):
        yield url, server, tokens
