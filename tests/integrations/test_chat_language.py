"""Discord and Telegram in the reader's language (issue 49): a member's answers in his client's language (Discord's
`locale`, Telegram's `language_code`), the thread's and the group's lines in the campaign's, the slash commands'
registration with Discord's Russian localizations, and a forum line of a Russian campaign in Russian."""

from __future__ import annotations

import json
import re
import time

import pytest
from typer.testing import CliRunner

from rollbook.cli import app as cli
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.integrations.members import Members
from rollbook.integrations.slash import (
    COMBINED_LENGTH, DESCRIPTION_LENGTH, application_commands, combined_length,
)
from rollbook.integrations.telegram import TELEGRAM
from rollbook.integrations.telegram.config import TelegramSettings, telegram_keeper
from rollbook.store import Store

from .fake_telegram import BOT_TOKEN
from .support import MEMBERS, Interaction, move, option, rb, russian_pirates
from .test_telegram import ACCOUNTS, CHAT, SECRET, TOPIC, group  # noqa: F401 — `group` is the fixture

RUSSIAN_CHANNEL = "1300000000000000077"
#: Discord's locales (reference/#locales): the keys a `*_localizations` map may have.
DISCORD_LOCALES = {"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no",
                   "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN",
                   "ja", "zh-TW", "ko"}
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


def said_in(thread, interaction, locale):
    interaction.locale = locale
    answer = thread.send(interaction)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]["content"]


# --- Discord: the member's own language ------------------------------------------------------------


def test_an_interaction_in_russian_is_answered_in_russian_and_one_in_english_in_english(thread):
    sheet = said_in(thread, rb("sheet"), "ru")
    assert sheet.startswith("**Anna** · персонаж · игрок anna")
    odds = said_in(thread, rb("odds", command="roll_move character=Anna stat=guile"), "ru")
    assert odds.startswith("Шансы roll\\_move") and "- полный успех: **27,8%** (5/18)" in odds
    assert "ничего не брошено и не записано" in odds
    assert said_in(thread, rb("rolls"), "ru") == "В bs пока нет бросков."
    stranger = said_in(thread, move("pirates-move", member=MEMBERS["stranger"], character="Anna", stat="guile"), "ru")
    assert stranger.startswith("Ваш аккаунт Discord (1400000000000000009) не привязан")

    sheet = said_in(thread, rb("sheet"), "en-US")
    assert sheet.startswith("**Anna** · character · played by anna")
    odds = said_in(thread, rb("odds", command="roll_move character=Anna stat=guile"), "en-US")
    assert odds.startswith("Odds of roll\\_move") and "- full success: **27.8%** (5/18)" in odds
    assert said_in(thread, rb("rolls"), "en-GB") == "No rolls in bs yet."
    assert said_in(thread, rb("rolls"), "de") == "No rolls in bs yet."  # a language Rollbook does not speak


def test_a_refusal_is_said_in_the_members_language_and_nothing_is_written(thread):
    before = thread.stored()
    for interaction in (move("pirates-move", character="Bo", stat="guile"),
                        rb("post", command="roll_move character=Bo stat=guile")):
        russian = said_in(thread, interaction, "ru")
        assert russian.startswith("Отказано: character: ") and "Bo" in russian
    assert said_in(thread, rb("checkpoint"), "ru") == "Контрольную точку подписывает только мастер."
    undo = said_in(thread, rb("undo", command="k4", reason="typo"), "ru")
    assert undo == "Отменить команду может только мастер или аудитор; anna в bs: игрок."
    english = said_in(thread, move("pirates-move", character="Bo", stat="guile"), "en-US")
    assert english.startswith("Refused: character: ")
    assert said_in(thread, rb("checkpoint"), "en-US") == "Only the GM signs a checkpoint."
    pressed = Interaction("", kind=3)  # a component's press: Rollbook sends none
    assert said_in(thread, pressed, "ru") == "Rollbook отвечает только на свои слэш-команды."
    assert thread.stored() == before


def test_autocomplete_names_the_books_moves_in_the_members_language(thread):
    def offered(locale):
        asked = Interaction("pirates-move", [option("character", "Anna"), option("move", "", focused=True)], kind=4,
                            locale=locale)
        return {c["value"]: c["name"] for c in thread.send(asked).json()["data"]["choices"]}

    russian, english = offered("ru"), offered("en-US")
    assert russian["threaten_violence"] == "Угрожать насилием" and russian["lie_low"] == "Затаиться"
    assert english["threaten_violence"] != russian["threaten_violence"]
    assert not any(CYRILLIC.search(name) for name in english.values())
    assert russian.keys() == english.keys()  # the values are the book's keys in every language


def test_a_russian_campaigns_thread_reads_its_dice_in_russian_whoever_asked(thread):
    """The command's answer is the thread's message: the campaign's language, not the member's."""
    table = thread.table
    russian_pirates(table)
    Members(table.state.store).bind("ru", RUSSIAN_CHANNEL, by="test")
    roll = Interaction("pirates-move", [option("character", "Anna"), option("stat", "audacity")],
                       channel=RUSSIAN_CHANNEL, locale="en-US")
    line = said_in(thread, roll, "en-US")
    assert line.startswith("Anna — Дерзость: 2d6 \\[")
    assert "-# бросок `anna-1`: [" in line and f"кости кампании · номер 0 · соль `{roll.id}`" in line
    english = said_in(thread, move("pirates-move", character="Anna", stat="audacity"), "ru")
    assert "-# roll `anna-1`" in english and "campaign dice · nonce 0 · salt " in english


def test_a_russian_campaigns_mirror_posts_russian_lines_to_discord(thread):
    table = thread.table
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "options": {"language": "ru"}},
                      campaign="ru").status_code == 201
    Members(table.state.store).bind("ru", RUSSIAN_CHANNEL, by="test")
    for body in ({"type": "create_character", "name": "Anna", "player": "anna", "luck": 2,
                  "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}},
                 {"type": "start_chapter"},
                 {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [6, 5]}):
        assert table.post("gm1", body, campaign="ru", key="typed" if "dice" in body else None).status_code == 201
    thread.mirror()
    russian = "\n".join(thread.fake.channel(RUSSIAN_CHANNEL))
    assert "Anna — Изворотливость: 2d6 \\[6, 5\\]" in russian
    assert "-# бросок `typed`: [6, 5] · введено (брошено в другом месте)" in russian


# --- the registration ------------------------------------------------------------------------------


def _localized(node):
    """Every (node, key, localizations) of a command's tree that carries Discord's localizations."""
    for key in ("name_localizations", "description_localizations"):
        if key in node:
            yield node, key, node[key]
    for child in [*node.get("options", []), *node.get("choices", [])]:
        yield from _localized(child)


def test_the_registration_carries_russian_descriptions_within_discords_limits():
    commands = application_commands()
    rb_command = next(c for c in commands if c["name"] == "rb")
    assert rb_command["description_localizations"]["ru"].startswith("Rollbook: отправляйте")
    for sub in rb_command["options"]:
        assert CYRILLIC.search(sub["description_localizations"]["ru"]), sub["name"]
        for given in sub["options"]:
            assert CYRILLIC.search(given["description_localizations"]["ru"]), (sub["name"], given["name"])
    stats = {o["name"]: o for o in next(c for c in commands if c["name"] == "pirates-move")["options"]}["stat"]
    assert [c["name_localizations"]["ru"] for c in stats["choices"]] == [
        "дерзость", "изворотливость", "дальновидность", "репутация"]
    for command in commands:
        assert "name_localizations" not in command  # the names stay the English ones people type
        # A game's move says its docstring's first line in Russian (the catalog holds the whole docstring).
        assert CYRILLIC.search(command["description_localizations"]["ru"]), command["name"]
        assert combined_length(command, "ru") <= COMBINED_LENGTH
        for node, key, localizations in _localized(command):
            assert localizations and set(localizations) <= DISCORD_LOCALES, (node["name"], key)
            limit = DESCRIPTION_LENGTH if key == "description_localizations" else 100
            assert all(1 <= len(text) <= limit for text in localizations.values()), (node["name"], localizations)
            if key == "name_localizations":
                assert "choices" not in node and node.get("type") is None  # only a choice's name is localized


# --- Telegram: the sender's language, the group's lines in the campaign's ------------------------------------


def _update(group, who, text, language_code):
    update = {"update_id": next(group.next_update), "message": {
        "message_id": 5, "date": int(time.time()), "text": text, "message_thread_id": TOPIC, "is_topic_message": True,
        "chat": {"id": CHAT, "type": "supergroup", "title": "Black Sails", "is_forum": True},
        "from": {"id": ACCOUNTS.get(who, who), "is_bot": False, "first_name": str(who),
                 **({"language_code": language_code} if language_code else {})}}}
    before = len(group.fake.calls)
    assert group.deliver(update).status_code == 200
    return [c["params"]["text"] for c in group.fake.calls[before:] if c["method"] == "sendMessage"]


@pytest.mark.parametrize(("language_code", "expected"), [
    ("ru", "Отказано: character: "), ("en", "Refused: character: "), (None, "Refused: character: ")])
def test_a_telegram_refusal_is_in_the_senders_language(group, language_code, expected):
    [said] = _update(group, "anna", "/post roll_move character=Bo stat=guile", language_code)
    assert said.startswith(expected)


def test_telegram_speaks_russian_to_a_russian_user_and_the_moves_buttons_are_the_books(group):
    [unlinked] = _update(group, 999, "/sheet", "ru")
    assert unlinked.startswith("Ваш аккаунт Telegram (999) не привязан к пользователю Rollbook")
    [none] = _update(group, "anna", "/nothing", "ru-RU")
    assert none == "В Rollbook нет команды /nothing: /move для хода, /post для любой команды."
    before = len(group.fake.calls)
    _update(group, "anna", "/move", "ru")
    [buttons] = [c["params"] for c in group.fake.calls[before:] if c["method"] == "sendMessage"]
    assert buttons["text"] == "<b>Anna</b>: какой ход?"
    labels = [b["text"] for row in buttons["reply_markup"]["inline_keyboard"] for b in row]
    assert "Угрожать насилием" in labels and "Threaten Violence" not in labels


def test_a_russian_campaigns_line_is_russian_in_its_telegram_group_whoever_posts(group):
    """What is posted into the group is the campaign's language; the sender's speaks only to him."""
    table = group.table
    russian_pirates(table)
    Members(group.store, TELEGRAM).bind("ru", str(CHAT + 1), by="test")
    update = {"update_id": next(group.next_update), "message": {
        "message_id": 6, "date": int(time.time()), "text": "/post roll_move character=Anna stat=guile dice=[6,5]",
        "chat": {"id": CHAT + 1, "type": "supergroup", "title": "Чёрные паруса"},
        "from": {"id": ACCOUNTS["anna"], "is_bot": False, "first_name": "anna", "language_code": "en"}}}
    before = len(group.fake.calls)
    assert group.deliver(update).status_code == 200
    [line] = [c["params"]["text"] for c in group.fake.calls[before:] if c["method"] == "sendMessage"]
    assert line.startswith("<b>Anna — Изворотливость: 2d6 [6, 5]")
    assert "бросок <code>anna-1</code>" in line and "введено (брошено в другом месте)" in line


def test_the_mirror_posts_a_russian_campaigns_lines_to_its_telegram_group(group):
    table = group.table
    assert telegram_keeper(group.store).load().bot_token == BOT_TOKEN
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "options": {"language": "ru"}},
                      campaign="ru").status_code == 201
    Members(group.store, TELEGRAM).bind("ru", str(CHAT + 2), by="test")
    for body in ({"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
                  "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}},
                 {"type": "start_chapter"},
                 {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [6, 5]}):
        assert table.post("gm1", body, campaign="ru", key="typed" if "dice" in body else None).status_code == 201
    mirror = table.client.app.state.mirror
    while mirror.run_once():
        pass
    sent = [c["params"]["text"] for c in group.fake.calls
            if c["method"] == "sendMessage" and c["params"]["chat_id"] == CHAT + 2]
    assert any(text.startswith("<b>Anna — Изворотливость: 2d6 [6, 5]") for text in sent), sent
    assert any("бросок <code>typed</code>: [6, 5] · введено (брошено в другом месте)" in text for text in sent)
    assert any("глава 1 начинается" in text for text in sent)


# --- a forum's line ---------------------------------------------------------------------------------


def test_the_line_of_a_russian_campaign_is_russian_in_bbcode(tmp_path):
    url = f"sqlite:///{tmp_path / 'ru.db'}"
    store = Store.open(url)
    lines = [{"type": "create_campaign", "campaign": "c", "ruleset": "pirates", "options": {"language": "ru"}},
             {"type": "create_character", "campaign": "c", "name": "Anna", "player": "anna", "luck": 1,
              "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}},
             {"type": "start_chapter", "campaign": "c"},
             {"type": "roll_move", "campaign": "c", "id": "typed", "character": "Anna", "stat": "guile",
              "dice": [6, 5]},
             {"type": "roll_move", "campaign": "c", "id": "seeded", "character": "Anna", "stat": "guile",
              "salt": "post 1"}]
    try:
        assert run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in lines).encode()).error is None
    finally:
        store.close()
    runner = CliRunner()
    typed = runner.invoke(cli, ["line", "typed", "-c", "c", "--store", url, "--format", "bbcode", "--lang", "en"])
    assert typed.exit_code == 0, typed.output
    assert typed.output.startswith("[b]Anna — Изворотливость: 2d6 [6, 5] +1 изворотливость = 12, полный успех[/b]")
    assert "бросок [i]typed[/i]: [6, 5] · введено (брошено в другом месте)" in typed.output
    assert "· команда typed ·" in typed.output
    seeded = runner.invoke(cli, ["line", "seeded", "-c", "c", "--store", url, "--format", "bbcode",
                                 "--public-url", "https://rb.example.org"])
    assert seeded.exit_code == 0, seeded.output
    assert "кости кампании · номер 0 · соль \"post 1\" · зерно " in seeded.output
    assert "[url=https://rb.example.org/campaigns/c/rolls#roll-seeded]проверка[/url]" in seeded.output


def test_a_struck_commands_line_says_who_struck_it_in_the_campaigns_language(thread):
    table = thread.table
    assert table.post("gm1", {"type": "create_campaign", "ruleset": "pirates", "options": {"language": "ru"}},
                      campaign="ru").status_code == 201
    assert table.post("gm1", {"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
                              "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}},
                      campaign="ru").status_code == 201
    assert table.post("gm1", {"type": "roll_move", "character": "Anna", "stat": "guile", "salt": "post 1"},
                      campaign="ru", key="r1").status_code == 201
    ruled = table.client.post("/campaigns/ru/undo", json={"command": "r1", "reason": "опечатка"},
                              headers=table.headers("gm1", "u1"))
    assert ruled.status_code == 201, ruled.text
    line = table.client.get("/campaigns/ru/lines/r1", params={"revision": 1, "format": "bbcode"},
                            headers=table.headers("gm1"))
    assert line.status_code == 200, line.text
    text = line.json()["text"]
    assert "[s]ВЫЧЕРКНУТО[/s] gm (опечатка) в " in text and ": ревизия 2 играется без этой команды" in text


def test_rb_rolls_says_a_later_changes_outcome_in_the_readers_language():
    """The stored text is English (`…; reason: 6, partial success`); `/rb rolls` makes it again from its parts."""
    from rollbook.integrations.readings import rolls_text
    from rollbook.language import speaking

    roll = {"id": "anna-1", "character": "Anna", "source": "hmac", "nonce": 0, "outcome": "partial_success",
            "text": "2d6 = [5, 5] + 1 = 11; traded for luck: 6, partial success",
            "original": {"text": "2d6 = [5, 5] + 1 = 11"},
            "changes": [{"reason": "traded for luck", "modifier": None, "total": 6, "outcome": "partial_success"}]}
    with speaking("ru"):
        russian = rolls_text("bs", [roll])
    assert "2d6 = \\[5, 5\\] + 1 = 11; traded for luck: 6, частичный успех → **частичный успех**" in russian
    assert "2d6 = \\[5, 5\\] + 1 = 11; traded for luck: 6, partial success → **partial success**" in rolls_text("bs", [roll])
