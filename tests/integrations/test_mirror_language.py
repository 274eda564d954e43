"""The mirror speaks the campaign's language (issue 49): a campaign created with `language: ru` has its lines
posted in Russian in its thread; the English campaign beside it stays English."""

from rollbook.integrations.members import Members

from .support import Interaction, option, russian_pirates

RUSSIAN_CHANNEL = "1300000000000000077"


def test_a_russian_campaigns_thread_gets_russian_lines(thread):
    table = thread.table
    created = {"type": "create_campaign", "ruleset": "pirates", "title": "Чёрные паруса",
               "options": {"language": "ru"}}
    assert table.post("gm1", created, campaign="ru").status_code == 201
    Members(table.state.store).bind("ru", RUSSIAN_CHANNEL, by="test")
    for body in ({"type": "create_character", "name": "Anna", "player": "anna",
                  "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}, "luck": 2},
                 {"type": "start_chapter"},
                 {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [6, 5]},
                 {"type": "spend_luck", "character": "Anna", "purpose": "roll_bonus", "roll": "ru-1"}):
        assert table.post("gm1", body, campaign="ru", key="ru-1" if "dice" in body else None).status_code == 201
    assert table.post("gm1", {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [6, 5]},
                      key="en-1").status_code == 201
    thread.mirror()
    russian = "\n".join(thread.fake.channel(RUSSIAN_CHANNEL))
    assert "Anna вступает в игру" in russian and "глава 1 начинается" in russian
    assert "Anna — Изворотливость: 2d6 \\[6, 5\\] +1 изворотливость = 12, полный успех" in russian
    assert "Anna тратит 1 пункт фарта (+1 к проверке); ru-1 теперь 13, полный успех" in russian
    assert "-# Anna: фарт 2 → 1" in russian and "luck 2" not in russian  # what changed, in the game's words
    english = "\n".join(thread.fake.channel("1300000000000000001"))
    assert "Anna — Guile: 2d6 \\[6, 5\\] +1 guile = 12, full success" in english


def test_a_discord_command_in_a_russian_campaigns_thread_is_answered_in_russian(thread):
    """The answer to a command is the thread's message: in the campaign's language, whoever asked."""
    table = thread.table
    russian_pirates(table)
    Members(table.state.store).bind("ru", RUSSIAN_CHANNEL, by="test")
    answer = thread.send(Interaction("pirates-move", [option("character", "Anna"), option("stat", "audacity")],
                                     channel=RUSSIAN_CHANNEL))
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"]["content"].startswith("Anna — Дерзость: 2d6 \\[")
