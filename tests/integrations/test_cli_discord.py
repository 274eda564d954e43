"""The command line: `rollbook discord setup|bind|commands|register|status`, `users link|link-code`,
`webhook add|list|remove`; each with --json, secrets beside the store (0600) and never printed."""

import json
import stat

import pytest
from typer.testing import CliRunner

from rollbook.cli import app as cli
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.slash import application_commands
from rollbook.hosting.accounts import Accounts
from rollbook.store import Store

from .fake_discord import BOT_TOKEN, FakeDiscord, Running
from .support import APPLICATION, CHANNEL, PUBLIC_KEY


@pytest.fixture
def store(tmp_path):
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    opened = Store.open(url)
    lines = [{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"},
             {"type": "create_character", "campaign": "bs", "name": "Anna", "player": "anna",
              "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1}]
    assert run_file(Rollbook(opened), "".join(json.dumps(line) + "\n" for line in lines).encode()).error is None
    Accounts(opened).add("anna")
    opened.close()
    return url


def rollbook(*words):
    return CliRunner().invoke(cli, [*words])


def test_setup_keeps_the_secrets_beside_the_store_and_never_prints_them(store, tmp_path):
    token = tmp_path / "token.txt"
    token.write_text("very-secret-token\n")
    made = rollbook("discord", "setup", "--application-id", APPLICATION, "--public-key", PUBLIC_KEY,
                    "--bot-token-file", str(token), "--store", store, "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.output)["bot_token"] == "set" and "very-secret-token" not in made.output
    kept = tmp_path / "cli.db.secrets" / "discord" / "config.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert json.loads(kept.read_text())["bot_token"] == "very-secret-token"
    again = rollbook("discord", "setup", "--public-url", "https://rb.example.org/", "--store", store, "--json")
    shown = json.loads(again.output)
    assert shown["application_id"] == APPLICATION and shown["public_url"] == "https://rb.example.org"
    for words, reason in ((["--public-key", "xyz"], "64 hex digits"), (["--application-id", "abc"], "Discord id"),
                          (["--bot-token-file", str(tmp_path / "none")], "cannot read")):
        refused = rollbook("discord", "setup", *words, "--store", store)
        assert refused.exit_code == 1 and reason in refused.output and "Traceback" not in refused.output
    memory = rollbook("discord", "setup", "--application-id", APPLICATION, "--store", "memory://")
    assert memory.exit_code == 1 and "memory:// keeps nothing" in memory.output


def test_bind_link_and_link_code(store):
    bound = rollbook("discord", "bind", "bs", "--channel", CHANNEL, "--store", store, "--json")
    assert bound.exit_code == 0 and json.loads(bound.output)["channel"] == CHANNEL
    assert "no campaign 'nope'" in rollbook("discord", "bind", "nope", "--channel", CHANNEL, "--store", store).output
    Store.open(store).close()
    other = rollbook("post", "create_campaign", "campaign=two", "ruleset=pirates", "--store", store)
    assert other.exit_code == 0, other.output
    taken = rollbook("discord", "bind", "two", "--channel", CHANNEL, "--store", store)
    assert taken.exit_code == 1 and "bound to bs already" in taken.output
    linked = rollbook("users", "link", "anna", "--discord", "1400000000000000001", "--store", store, "--json")
    assert json.loads(linked.output) == {"user": "anna", "discord": "1400000000000000001"}
    assert "no user 'bo'" in rollbook("users", "link", "bo", "--discord", "1400000000000000001", "--store", store).output
    assert "Discord id" in rollbook("users", "link", "anna", "--discord", "@anna", "--store", store).output
    code = json.loads(rollbook("users", "link-code", "anna", "--store", store, "--json").output)
    assert code["user"] == "anna" and len(code["code"]) == 14
    from rollbook.integrations.members import Members

    opened = Store.open(store)
    try:
        assert Members(opened).redeem(code["code"], "1400000000000000008") == "anna"
    finally:
        opened.close()
    unbound = rollbook("discord", "bind", "bs", "--unbind", "--store", store, "--json")
    assert json.loads(unbound.output) == {"campaign": "bs", "channel": None}


def test_commands_json_is_what_register_puts(store, tmp_path):
    printed = rollbook("discord", "commands", "--json")
    assert json.loads(printed.output) == application_commands()
    token = tmp_path / "token.txt"
    token.write_text(BOT_TOKEN)
    running = Running(FakeDiscord())
    with running as fake:
        rollbook("discord", "setup", "--application-id", APPLICATION, "--public-key", PUBLIC_KEY, "--bot-token-file",
                 str(token), "--api-base", running.base, "--store", store)
        put = rollbook("discord", "register", "--guild", "1200000000000000001", "--store", store, "--json")
        assert put.exit_code == 0, put.output
        assert fake.commands["1200000000000000001"] == application_commands()
        assert json.loads(put.output)["commands"][0] == "/rb"
        token.write_text("not the token")
        rollbook("discord", "setup", "--bot-token-file", str(token), "--store", store)
        refused = rollbook("discord", "register", "--store", store)
        assert refused.exit_code == 1 and "Discord answered 401" in refused.output


def test_status_and_webhooks(store, tmp_path):
    rollbook("discord", "bind", "bs", "--channel", CHANNEL, "--store", store)
    added = rollbook("webhook", "add", "-c", "bs", "--url", "https://bridge.example.org/in", "--store", store, "--json")
    hook = json.loads(added.output)
    assert hook["url"] == "https://bridge.example.org/in" and len(hook["secret"]) == 64
    secret = tmp_path / "secret.txt"
    secret.write_text("shared secret")
    quiet = rollbook("webhook", "add", "-c", "bs", "--url", "http://127.0.0.1:9/x", "--secret-file", str(secret),
                     "--allow-webhook-network", "127.0.0.0/8", "--store", store, "--json")
    assert "secret" not in json.loads(quiet.output) and "shared secret" not in quiet.output
    listed = json.loads(rollbook("webhook", "list", "-c", "bs", "--store", store, "--json").output)
    assert [w["url"] for w in listed] == ["https://bridge.example.org/in", "http://127.0.0.1:9/x"]
    assert all("secret" not in w for w in listed)
    assert "is https://" in rollbook("webhook", "add", "-c", "bs", "--url", "ftp://x", "--store", store).output
    rollbook("post", "take_damage", "character=Anna", "harm=1", "-c", "bs", "--store", store)
    shown = json.loads(rollbook("discord", "status", "-c", "bs", "--store", store, "--json").output)
    assert shown["channel"] == CHANNEL and shown["backlog"] == 3  # one command, for each of three targets
    assert {t["target"] for t in shown["targets"]} == {"discord", f"webhook:{hook['id']}", f"webhook:{listed[1]['id']}"}
    removed = rollbook("webhook", "remove", hook["id"], "-c", "bs", "--store", store)
    assert removed.exit_code == 0 and "no webhook" in rollbook("webhook", "remove", hook["id"], "-c", "bs",
                                                                "--store", store).output
