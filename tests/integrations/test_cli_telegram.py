"""The command line with Telegram, against the fake Bot API: `rollbook telegram setup|bind|status|register|poll`,
`users link --telegram`; and the mirror: a command posted by the CLI sent into the bound topic, in order through
a 429, a hostile name shown as text, the checkpoint at a chapter's end."""

import json
import stat
import time

import pytest
from typer.testing import CliRunner

from rollbook.cli import app as cli
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.config import keeper_for
from rollbook.integrations import mirror as mirror_module
from rollbook.integrations.mirror import Mirror
from rollbook.integrations.telegram.config import telegram_keeper
from rollbook.integrations.telegram.texts import COMMANDS
from rollbook.hosting.accounts import Accounts
from rollbook.store import Store

from .fake_telegram import BOT_TOKEN
from .test_telegram import CHAT, TOPIC, message

HOSTILE = "<b>Bad</b> </code> &amp;"


@pytest.fixture
def store(tmp_path, monkeypatch, fake_telegram):
    monkeypatch.setenv("ROLLBOOK_TELEGRAM_API", fake_telegram.base)
    fake_telegram.fake.reset()
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    opened = Store.open(url)
    lines = [{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"},
             {"type": "create_character", "campaign": "bs", "name": "Anna", "player": "anna",
              "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1},
             {"type": "start_chapter", "campaign": "bs"}]
    assert run_file(Rollbook(opened), "".join(json.dumps(line) + "\n" for line in lines).encode()).error is None
    accounts = Accounts(opened)
    accounts.add("anna")
    accounts.grant("bs", "anna", "player", by="test")
    opened.close()
    return url


def rollbook(*words):
    return CliRunner().invoke(cli, [*words])


def _set_up(store, tmp_path, *more):
    token = tmp_path / "token.txt"
    token.write_text(BOT_TOKEN + "\n")
    made = rollbook("telegram", "setup", "--bot-token-file", str(token), "--store", store, "--json", *more)
    assert made.exit_code == 0, made.output
    return made


def test_setup_keeps_the_token_and_a_secret_beside_the_store_and_never_prints_them(store, tmp_path):
    made = _set_up(store, tmp_path)
    shown = json.loads(made.output)
    assert shown["bot_token"] == "set" and shown["secret_token"] == "set" and BOT_TOKEN not in made.output
    kept = tmp_path / "cli.db.secrets" / "telegram" / "config.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600 and stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    secret = json.loads(kept.read_text())["secret_token"]
    assert json.loads(kept.read_text())["bot_token"] == BOT_TOKEN and len(secret) >= 32 and secret not in made.output
    again = rollbook("telegram", "setup", "--public-url", "https://rb.example.org/", "--store", store, "--json")
    assert json.loads(again.output)["webhook"] == "https://rb.example.org/telegram/webhook"
    assert json.loads(kept.read_text())["secret_token"] == secret  # kept: the webhook Telegram has still holds
    for words, reason in ((["--public-url", "http://rb.example.org"], "https://"),
                          (["--bot-token-file", str(tmp_path / "none")], "cannot read")):
        refused = rollbook("telegram", "setup", *words, "--store", store)
        assert refused.exit_code == 1 and reason in refused.output and "Traceback" not in refused.output


def test_bind_a_topic_link_and_status(store, tmp_path):
    _set_up(store, tmp_path)
    bound = rollbook("telegram", "bind", "bs", "--chat", str(CHAT), "--topic", str(TOPIC), "--store", store, "--json")
    assert bound.exit_code == 0, bound.output
    assert json.loads(bound.output) | {"since": 0} == {"campaign": "bs", "chat": str(CHAT), "topic": str(TOPIC),
                                                       "since": 0}
    linked = rollbook("users", "link", "anna", "--telegram", "501", "--store", store, "--json")
    assert json.loads(linked.output) == {"user": "anna", "telegram": "501"}
    shown = json.loads(rollbook("telegram", "status", "-c", "bs", "--store", store, "--json").output)
    assert shown["channel"] == f"{CHAT}/{TOPIC}" and shown["bot"]["bot_token"] == "set"
    assert BOT_TOKEN not in json.dumps(shown)
    for words, reason in ((["telegram", "bind", "bs", "--chat", "general"], "chat id"),
                          (["telegram", "bind", "bs", "--chat", str(CHAT), "--topic", "x"], "--topic"),
                          (["telegram", "bind", "nope", "--chat", str(CHAT)], "nope"),
                          (["users", "link", "anna", "--telegram", "@anna"], "Telegram user id"),
                          (["users", "link", "anna"], "--discord ID or --telegram ID")):
        refused = rollbook(*words, "--store", store)
        assert refused.exit_code == 1 and reason in refused.output and "Traceback" not in refused.output


def test_register_gives_the_commands_in_english_and_russian_and_the_webhook_its_secret(store, tmp_path,
                                                                                        fake_telegram):
    _set_up(store, tmp_path, "--public-url", "https://rb.example.org")
    made = rollbook("telegram", "register", "--store", store, "--json")
    assert made.exit_code == 0, made.output
    english, russian = fake_telegram.fake.made("setMyCommands")
    assert [c["description"] for c in english["commands"]] == [en for _, en, _ in COMMANDS]
    assert russian["language_code"] == "ru" and [c["description"] for c in russian["commands"]] == [
        ru for _, _, ru in COMMANDS]
    [hook] = fake_telegram.fake.made("setWebhook")
    secret = telegram_keeper(Store.open(store)).load().secret_token
    assert hook["url"] == "https://rb.example.org/telegram/webhook" and hook["secret_token"] == secret
    assert secret not in made.output


def test_poll_answers_updates_and_resumes_after_the_last_applied(store, tmp_path, fake_telegram):
    _set_up(store, tmp_path)
    rollbook("telegram", "bind", "bs", "--chat", str(CHAT), "--topic", str(TOPIC), "--store", store)
    rollbook("users", "link", "anna", "--telegram", "501", "--store", store)
    fake = fake_telegram.fake
    fake.updates.extend(message(n, 501, f"/post roll_move character=Anna stat=guile") for n in (11, 12, 13))
    first = rollbook("telegram", "poll", "--wait", "0", "--max-updates", "2", "--store", store, "--json")
    assert first.exit_code == 0, first.output  # stopped after two, as a poller killed there
    assert json.loads(first.output) == {"handled": 2, "polled": 12}
    fake.limit(retry_after=1)  # Telegram's 429 on the next call: waited, then asked again
    second = rollbook("telegram", "poll", "--wait", "0", "--rounds", "1", "--store", store, "--json")
    assert second.exit_code == 0, (second.output, second.exception)
    assert json.loads(second.output) == {"handled": 1, "polled": 13}
    offsets = [c["params"].get("offset") for c in fake.calls if c["method"] == "getUpdates"]
    assert offsets == [1, 13, 13]  # the first poll from the start, the second after 12 (429, then again)
    # Killed after applying 13 but before keeping it: given it again, it applies nothing.
    keeper = telegram_keeper(Store.open(store))
    from dataclasses import replace

    keeper.save(replace(keeper.load(), polled=12))
    again = rollbook("telegram", "poll", "--wait", "0", "--rounds", "1", "--store", store, "--json")
    assert json.loads(again.output)["handled"] == 1
    sent = [m["text"] for m in fake.made("sendMessage")]
    assert len(sent) == 3 and all("Anna" in text for text in sent)
    assert all(f"<code>anna-{n}</code>" in text for n, text in zip((1, 2, 3), sent))
    fake.limit(retry_after=1, count=10)
    stopped = rollbook("telegram", "poll", "--wait", "0", "--rounds", "1", "--store", store)
    assert stopped.exit_code == 1 and "Telegram:" in stopped.output and "Traceback" not in stopped.output


def test_poll_with_a_token_telegram_refuses_is_said_in_words(store, tmp_path):
    token = tmp_path / "token.txt"
    token.write_text("999:not-the-test-token\n")
    rollbook("telegram", "setup", "--bot-token-file", str(token), "--store", store)
    refused = rollbook("telegram", "poll", "--wait", "0", "--rounds", "1", "--store", store)
    assert refused.exit_code == 1 and "Telegram:" in refused.output and "Traceback" not in refused.output


class Clock:
    """The mirror's clock, moved on by the test: a lane told to wait `retry_after` is taken up once it has passed."""

    def __init__(self):
        self.now = time.time()

    def time(self):
        return self.now

    def monotonic(self):
        return time.monotonic()


def _mirror(store, clock):
    opened = Store.open(store)
    mirror = Mirror(opened, keeper_for(opened), backoff=0.0)
    for _ in range(5):  # a pass delivers until the 429; the next, the wait over, the rest
        while mirror.run_once():
            pass
        clock.now += 2
    return mirror


def test_the_mirror_posts_what_the_cli_posts_into_the_topic_in_order_through_a_429(store, tmp_path, fake_telegram,
                                                                                   monkeypatch):
    clock = Clock()
    monkeypatch.setattr(mirror_module, "time", clock)
    _set_up(store, tmp_path)
    rollbook("telegram", "bind", "bs", "--chat", str(CHAT), "--topic", str(TOPIC), "--store", store)
    fake = fake_telegram.fake
    rollbook("post", "create_character", f"name={HOSTILE}", "player=anna", 'stats={"audacity":1,"guile":1,'
             '"foresight":1,"reputation":0}', "luck=1", "-c", "bs", "--store", store)
    rollbook("post", "take_damage", f"character={HOSTILE}", "harm=1", "-c", "bs", "--store", store)
    rollbook("post", "end_chapter", "-c", "bs", "--store", store)
    fake.limit(retry_after=1)
    _mirror(store, clock)
    statuses = [c["status"] for c in fake.calls if c["method"] == "sendMessage"]
    assert statuses == [429, 200, 200, 200]
    sent = fake.made("sendMessage")
    assert all(m["chat_id"] == CHAT and m["message_thread_id"] == TOPIC and m["parse_mode"] == "HTML" for m in sent)
    texts = [m["text"] for m in sent]
    assert len(texts) == 3 and "&lt;b&gt;Bad&lt;/b&gt; &lt;/code&gt; &amp;amp;" in texts[0]
    assert "harm" in texts[1] or "takes" in texts[1]
    assert "<pre>" in texts[2] and "—" in texts[2]  # the chapter's end, with its signed checkpoint
