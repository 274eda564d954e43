"""Playing in a Telegram group, against a fake Bot API on 127.0.0.1 (`fake_telegram.py`, a test token): the
webhook's secret token, each update applied once, link codes, `/move` from buttons with the campaign's seeded
dice (verified), a press for another's character refused, `/post`, refusals in words, and the CLI's setup,
bind and status."""

from __future__ import annotations

import copy
import dataclasses
import json
import stat
import time

import pytest

from rollbook.domain.dice import recompute_faces
from rollbook.domain.integrations import ReceivedUpdate, received_update_id
from rollbook.integrations.members import Members
from rollbook.integrations.telegram import TELEGRAM
from rollbook.integrations.telegram.config import TelegramSettings, telegram_keeper
from rollbook.integrations.telegram.desk import CALLBACK_LIMIT, PLATFORM
from rollbook.integrations.telegram.routes import SECRET_HEADER
from rollbook.replay.verify import verify
from rollbook.server.posting import post_command
from rollbook.store.unit_of_work import StoringAlso
from tests.server.conftest import table_on

from .fake_telegram import BOT_TOKEN

SECRET = "test-secret-token-0123456789"
CHAT, TOPIC, OTHER_TOPIC = -1001234567890, 7, 8
ACCOUNTS = {"gm1": 500, "anna": 501, "bo": 502, "aud": 503}


class Group:
    """The table, seen from a Telegram group: updates in, the bot's calls out."""

    def __init__(self, table, fake):
        self.table, self.fake = table, fake
        self.next_update = iter(range(900_000, 10**7))

    @property
    def store(self):
        return self.table.state.store

    def deliver(self, update, secret=SECRET):
        headers = {} if secret is None else {SECRET_HEADER: secret}
        return self.table.client.post("/telegram/webhook", json=update, headers=headers)

    def says(self, who, text, *, topic=TOPIC, chat=CHAT, update_id=None):
        """A member's message; the update delivered; what the bot sent back (its texts)."""
        update = message(update_id or next(self.next_update), ACCOUNTS.get(who, who), text, chat=chat, topic=topic)
        before = len(self.fake.calls)
        answer = self.deliver(update)
        assert answer.status_code == 200, answer.text
        return [c["params"] for c in self.fake.calls[before:] if c["status"] == 200 and c["method"] != "getMe"]

    def press(self, who, data, message_id=77, *, update_id=None):
        update = {"update_id": update_id or next(self.next_update), "callback_query": {
            "id": f"cb{time.monotonic_ns()}", "chat_instance": "1", "data": data,
            "from": {"id": ACCOUNTS[who], "is_bot": False, "first_name": who},
            "message": {"message_id": message_id, "date": 0, "chat": {"id": CHAT, "type": "supergroup"},
                        "message_thread_id": TOPIC, "is_topic_message": True, "text": "which move?"}}}
        before = len(self.fake.calls)
        assert self.deliver(update).status_code == 200
        return [c for c in self.fake.calls[before:] if c["status"] == 200 and c["method"] != "getMe"]


def message(update_id, account, text, *, chat=CHAT, topic=TOPIC):
    sent = {"message_id": update_id % 10_000, "date": int(time.time()), "text": text,
            "chat": {"id": chat, "type": "supergroup", "title": "Black Sails", "is_forum": True},
            "from": {"id": account, "is_bot": False, "first_name": str(account)}}
    if topic is not None:
        sent |= {"message_thread_id": topic, "is_topic_message": True}
    return {"update_id": update_id, "message": sent}


@pytest.fixture
def group(rollbook_store, tmp_path, monkeypatch, fake_telegram):
    monkeypatch.setenv("ROLLBOOK_MIRROR", "0")  # the tests run the mirror's passes themselves
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    monkeypatch.setenv("ROLLBOOK_TELEGRAM_API", fake_telegram.base)
    fake_telegram.fake.reset()
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        store = table.state.store
        telegram_keeper(store).save(TelegramSettings(bot_token=BOT_TOKEN, secret_token=SECRET))
        members = Members(store, TELEGRAM)
        for user, account in ACCOUNTS.items():
            members.link(user, str(account), by="test")
        members.bind("bs", f"{CHAT}/{TOPIC}", by="test")
        yield Group(table, fake_telegram.fake)


def _stored(group):
    return group.table.stored()


# --- the webhook: the secret token, once per update -------------------------------------------------


def test_a_wrong_or_missing_secret_token_is_401_and_applies_nothing(group):
    before = _stored(group)
    update = message(1, ACCOUNTS["gm1"], "/post take_damage character=Anna harm=1")
    for secret in (None, "", "wrong", SECRET + "x", SECRET[:-1]):
        answer = group.deliver(update, secret=secret)
        assert answer.status_code == 401, answer.text
        assert SECRET_HEADER in answer.json()["error"]["field"]
    assert _stored(group) == before and group.fake.calls == []


def test_an_update_delivered_twice_is_applied_once(group):
    said = group.says("gm1", "/post\ntake_damage character=Anna harm=1", update_id=4242)
    assert "Anna" in said[0]["text"] and said[0]["parse_mode"] == "HTML" and said[0]["message_thread_id"] == TOPIC
    stored = _stored(group)
    assert group.says("gm1", "/post\ntake_damage character=Anna harm=1", update_id=4242) == []
    assert _stored(group) == stored
    reader = group.table.state.caught_up()
    assert [(c["id"], c["via"]) for c in reader.commands("bs") if "via" in c] == [("gm1-1", "telegram:4242")]
    kept = group.store.app.repository.get(received_update_id("telegram", "4242"))
    assert isinstance(kept, ReceivedUpdate) and kept.command_id == "gm1-1"
    body = json.loads(kept.body)  # provenance: the update as it came, beside its command
    assert body["message"]["from"]["id"] == ACCOUNTS["gm1"] and body["message"]["chat"]["id"] == CHAT
    assert body["message"]["text"] == "/post\ntake_damage character=Anna harm=1" and "date" in body["message"]


# --- who, where: refused in words, nothing applied ------------------------------------------------------


@pytest.mark.parametrize(("who", "topic", "words"), [
    (999, TOPIC, "not linked"),  # an unlinked account
    ("carl", TOPIC, None),  # linked below, but no role in bs
    ("anna", OTHER_TOPIC, f"--chat {CHAT} --topic {OTHER_TOPIC}"),  # another topic of the group: not bound
])
def test_who_or_where_is_wrong_refused_in_words_and_nothing_applied(group, who, topic, words):
    if who == "carl":
        Members(group.store, TELEGRAM).link("carl", "504", by="test")
        who, words = 504, "not a member of bs"
    before = _stored(group)
    [said] = group.says(who, "/post take_damage character=Anna harm=1", topic=topic)
    assert words in said["text"]
    assert _stored(group) == before


def test_link_by_a_one_time_code(group):
    code, _ = Members(group.store, TELEGRAM).new_code("carl", by="gm1")
    [said] = group.says(777, f"/link@rollbook_test_bot {code}")
    assert "<b>carl</b>" in said["text"]
    assert Members(group.store, TELEGRAM).user_of("777") == "carl"
    [again] = group.says(778, f"/link {code}")
    assert "used already" in again["text"] and Members(group.store, TELEGRAM).user_of("778") is None
    assert Members(group.store).user_of("777") is None  # a Telegram account is no Discord member


# --- /move from buttons ---------------------------------------------------------------------------------


def _buttons(sent):
    return [b for row in sent["reply_markup"]["inline_keyboard"] for b in row]


def test_a_move_from_buttons_posts_with_the_campaigns_seeded_dice_and_verifies(group):
    [asked] = group.says("anna", "/move")
    assert "<b>Anna</b>" in asked["text"]
    moves = _buttons(asked)
    assert all(len(b["callback_data"].encode()) <= CALLBACK_LIMIT for b in moves) and len(moves) > 5
    fixed = next(b for b in moves if b["callback_data"].endswith("|wild_carousing"))  # the book fixes its stat
    assert fixed["text"].endswith("· reputation")
    calls = group.press("anna", fixed["callback_data"], update_id=5150)
    [edit] = [c["params"] for c in calls if c["method"] == "editMessageText"]
    assert edit["message_id"] == 77 and edit["parse_mode"] == "HTML"
    assert [c["method"] for c in calls] == ["editMessageText", "answerCallbackQuery"]
    [made] = [r for r in group.table.get("anna", "/campaigns/bs/rolls").json() if r["id"] == "anna-1"]
    assert made["source"] == "hmac" and made["salt"] == f"telegram:{CHAT}:5150"
    assert f"[{', '.join(map(str, made['faces']))}]" in edit["text"] and "<code>anna-1</code>" in edit["text"]
    seed = group.store.seeds.seed("bs", made["commitment"])
    assert recompute_faces(seed, "bs", made["nonce"], made["sides"], made["salt"], made.get("place")) == made["faces"]
    assert group.table.post("gm1", {"type": "end_chapter"}).status_code == 201  # reveals the seed
    report = verify(group.store.app, "bs")
    assert report.ok and report.rolls_checked >= 1


def test_a_move_without_a_fixed_stat_asks_for_the_stat_then_posts(group):
    [asked] = group.says("anna", "/move")
    free = next(b for b in _buttons(asked) if b["callback_data"].endswith("|wriggle_out"))
    [pick, answered] = group.press("anna", free["callback_data"])
    assert pick["method"] == "editMessageText" and answered["method"] == "answerCallbackQuery"
    stats = [b["callback_data"] for b in _buttons(pick["params"])]
    assert any(s.endswith("|guile") for s in stats)
    calls = group.press("anna", next(s for s in stats if s.endswith("|guile")))
    assert "guile" in calls[0]["params"]["text"].lower() or "Anna" in calls[0]["params"]["text"]


def test_a_press_for_anothers_character_is_refused_privately_and_applies_nothing(group):
    [asked] = group.says("anna", "/move")
    fixed = next(b for b in _buttons(asked) if b["callback_data"].endswith("|wild_carousing"))
    before = _stored(group)
    [refused] = group.press("bo", fixed["callback_data"])
    assert refused["method"] == "answerCallbackQuery" and refused["params"]["show_alert"] is True
    assert "not your character" in refused["params"]["text"]
    assert _stored(group) == before


def test_a_hostile_character_name_is_shown_as_text(group):
    hostile = "<b>Bad</b> </code> &amp;"
    assert group.table.post("gm1", {"type": "create_character", "name": hostile, "player": "anna",
                                    "stats": {"audacity": 1, "guile": 1, "foresight": 1, "reputation": 0},
                                    "luck": 1}).status_code == 201
    [said] = group.says("gm1", f'/post take_damage "character={hostile}" harm=1')
    assert "&lt;b&gt;Bad&lt;/b&gt; &lt;/code&gt; &amp;amp;" in said["text"]
    assert "<b>Bad</b>" not in said["text"] and "</code> &amp;" not in said["text"].replace("</code> ·", "")


def test_post_words_refused_in_words(group):
    before = _stored(group)
    for words, reason in (('/post roll_move "character=Anna', "do not split"), ("/post", "Give the command"),
                          ("/post roll_move actor=gm character=Anna", "Telegram gives this"),
                          ("/nothing", "no command /nothing")):
        [said] = group.says("anna", words)
        assert reason in said["text"]
    assert _stored(group) == before


# --- /roll, /sheet, /odds, /undo, /checkpoint, as Discord's /rb has them ----------------------------------


def test_roll_sheet_odds_undo_and_checkpoint(group):
    [rolled] = group.says("anna", "/roll stat=guile move=wriggle_out", update_id=6001)
    assert "<b>" in rolled["text"] and "<code>anna-1</code>" in rolled["text"] and "salt" in rolled["text"]
    [sheet] = group.says("anna", "/sheet")
    assert sheet["text"].startswith("<b>Anna</b>") and "<u>" in sheet["text"]
    [odds] = group.says("anna", "/odds roll_move character=Anna stat=audacity")
    assert "Odds of roll_move" in odds["text"] and "%</b>" in odds["text"]
    before = _stored(group)
    [not_gm] = group.says("anna", "/undo anna-1 a mistake")
    assert "Only the GM or an auditor" in not_gm["text"] and _stored(group) == before
    [undone] = group.says("gm1", "/undo anna-1 rolled in the wrong scene", update_id=6002)
    assert "telegram-6002" in undone["text"]
    assert group.store.app.repository.get(received_update_id("telegram", "6002")).command_id == "telegram-6002"
    [signed] = group.says("anna", "/checkpoint")
    assert "Only the GM" in signed["text"]
    [signed] = group.says("gm1", "/checkpoint")
    assert "<pre>" in signed["text"] and "Checkpoint of <b>bs</b>" in signed["text"]


def test_an_answer_told_429_waits_retry_after_and_is_sent(group):
    group.fake.limit(retry_after=1)
    [said] = group.says("gm1", "/post take_damage character=Anna harm=1")
    assert "Anna" in said["text"]
    assert [c["status"] for c in group.fake.calls if c["method"] == "sendMessage"] == [429, 200]


def test_a_body_that_is_no_update_is_refused_and_applies_nothing(group):
    before = _stored(group)
    headers = {SECRET_HEADER: SECRET, "Content-Type": "application/json"}
    for raw, status in ((b"not json", 400), (b"[1]", 422), (b'{"update_id": "7"}', 422), (b"x" * 100_001, 413),
                        (b'{"update_id": 8, "message": {"text": "/post x"}}', 200)):  # no chat, no sender: nothing
        answer = group.table.client.post("/telegram/webhook", content=raw, headers=headers)
        assert answer.status_code == status, (raw[:20], answer.text)
    assert _stored(group) == before and group.fake.calls == []


def test_an_update_delivered_again_after_a_restart_is_applied_once(tmp_path, monkeypatch, fake_telegram):
    from fastapi.testclient import TestClient

    from rollbook.bootstrap import create_app

    monkeypatch.setenv("ROLLBOOK_MIRROR", "0")
    monkeypatch.setenv("ROLLBOOK_TELEGRAM_API", fake_telegram.base)
    fake_telegram.fake.reset()
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = table_on(url, posts_per_minute=0)
    with first.client:
        telegram_keeper(first.state.store).save(TelegramSettings(bot_token=BOT_TOKEN, secret_token=SECRET))
        Members(first.state.store, TELEGRAM).link("gm1", str(ACCOUNTS["gm1"]), by="test")
        Members(first.state.store, TELEGRAM).bind("bs", str(CHAT), by="test")  # the whole group
        update = message(31337, ACCOUNTS["gm1"], "/post take_damage character=Anna harm=1", topic=None)
        assert Group(first, fake_telegram.fake).deliver(update).status_code == 200
        stored = first.stored()
    assert len(fake_telegram.fake.made("sendMessage")) == 1
    with TestClient(create_app(url, posts_per_minute=0)) as again:  # the server restarted
        assert again.post("/telegram/webhook", json=update, headers={SECRET_HEADER: SECRET}).status_code == 200
        assert (again.app.state.rollbook.store.app.recorder.max_notification_id() or 0) == stored
    assert len(fake_telegram.fake.made("sendMessage")) == 1


def test_an_answer_telegram_does_not_take_leaves_the_update_applied_and_answered_200(group):
    telegram_keeper(group.store).save(TelegramSettings(bot_token="999:refused", secret_token=SECRET))
    before = _stored(group)
    answer = group.deliver(message(4343, ACCOUNTS["gm1"], "/post take_damage character=Anna harm=1"))
    assert answer.status_code == 200 and _stored(group) > before  # Telegram would only deliver it again
    assert group.fake.made("sendMessage") == []


# --- ids a person can say (issue 45) --------------------------------------------------------------------------


def test_a_telegram_post_gets_an_id_a_person_can_say_and_the_mirror_sends_neither_it_nor_an_older_one(group):
    [rolled] = group.says("anna", "/roll stat=guile move=wriggle_out", update_id=7001)
    assert "<code>anna-1</code>" in rolled["text"]
    state = group.table.state
    # As the code before `via` stored a post: under the update's key as its id, the update beside it.
    old = message(7002, ACCOUNTS["gm1"], "/post take_damage character=Anna harm=1")
    with state.writing("bs"):
        service = copy.copy(state.service)
        service.unit = StoringAlso(state.service.unit, ReceivedUpdate(
            platform=PLATFORM, update_id="7002", body=json.dumps(old), command_key="bs", command_id="telegram-7002"))
        post_command(dataclasses.replace(state, service=service), "bs", "gm1", "telegram-7002", None,
                     {"type": "take_damage", "character": "Anna", "harm": 1})
    assert group.table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 1}).status_code == 201
    posted = {c["id"]: c.get("via") for c in state.caught_up().commands("bs")}
    assert posted["anna-1"] == "telegram:7001" and posted["telegram-7002"] is None
    before = len(group.fake.made("sendMessage"))
    while group.table.client.app.state.mirror.run_once():
        pass
    mirrored = [m["text"] for m in group.fake.made("sendMessage")[before:]]
    assert len(mirrored) == 1 and "Anna takes 1 harm" in mirrored[0]  # the API's post alone: the chat answered both
    assert "anna-1" not in mirrored[0] and "telegram-7002" not in mirrored[0]
    assert group.store.app.repository.get(received_update_id("telegram", "7001")).command_id == "anna-1"
