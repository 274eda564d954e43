"""What a command changed on the sheets ("Anna: luck 1 → 0"), in the reader's language (issue 49): `Told.changes`
stays the English of `--json`; the lines, the thread's and the chat's messages, the page's answer say each game's
figures in its original's words (the pirates' раны, implant's ранения, фарт, фишки, Решимость), counted by the
language's plural rule. The golden file holds every change of the example campaigns, read against the originals."""

import json
import os
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import rollbook
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.ids import campaign_id
from rollbook.domain.rulesets.pirates.sheet import key_figures
from rollbook.domain.sheet_layout import Term
from rollbook.integrations.lines import (FORMATS, discord_message, render, said_changes, telegram_message, told,
                                         told_by_id)
from rollbook.language import speaking
from rollbook.projections.sheets import in_words
from rollbook.store import Store
from rollbook.store.reads import latest_first

ROOT = Path(rollbook.__file__).parent
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).parent / "golden" / "changes.ru.txt"
GAMES = ("pirates", "heroes", "implant", "gladiators")


def changes_of(game: str, store_url: str = "memory://") -> list[tuple[str, list[str], list[str]]]:
    """Each command of the game's example campaigns that changed a sheet: (its id, its changes as `--json` keeps
    them, the same said in Russian)."""
    text = (EXAMPLES / f"{game}.jsonl").read_text()
    campaigns = sorted({json.loads(line)["campaign"] for line in text.splitlines() if line.startswith("{")})
    store = Store.open(store_url)
    try:
        assert run_file(Rollbook(store), text.encode()).error is None
        found = []
        for key in campaigns:
            for record in reversed(list(latest_first(store, campaign_id(key), ".CommandApplied", page=256))):
                message = told(store, key, record, 0, None)
                with speaking("ru"):
                    russian = said_changes(message)
                if message.changes:
                    found.append((message.command_id, message.changes, russian))
        return found
    finally:
        store.close()


def test_every_change_of_the_example_campaigns_is_said_in_the_originals_words() -> None:
    """Regenerate only after reading each line against the original (`ROLLBOOK_UPDATE_GOLDEN=1`)."""
    made = "".join(f"{game}: {english} | {russian}\n" for game in GAMES
                   for _, changes, said in changes_of(game) for english, russian in zip(changes, said))
    if os.environ.get("ROLLBOOK_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(made, encoding="utf-8")
    assert made == GOLDEN.read_text(encoding="utf-8")
    for word in ("фарт 1 → 0", "раны нет → 1 лёгкая", "корпус 5/5 → 4/5", "шансы 0 → 4", "ранения 0/2 → 2/2",
                 "фишки 3 → 2", "Решимость 1 → 0", "здоровье 28/28 → 17/28, на ногах 4 → 3",
                 "модификаторы за отыгрыш 0 → 4"):
        assert word in made, word


@pytest.mark.parametrize("game", GAMES)
def test_the_english_changes_are_todays_and_none_is_left_english_in_russian(game: str) -> None:
    found = changes_of(game)
    assert found
    for _, changes, russian in found:
        assert [type(change) for change in json.loads(json.dumps(changes))] == [str] * len(changes)
        with speaking("en"):
            assert [in_words(change) for change in changes] == changes
        assert [line for line, said in zip(changes, russian) if line == said] == []


def test_the_pirates_wounds_are_not_implants() -> None:
    """One English word, two games' words: «раны» (pirates L62-L68), «ранения» (implant L112-L114)."""
    with speaking("ru"):
        assert (in_words(Term("pirates", "wounds")), in_words(Term("implant", "wounds"))) == ("раны", "ранения")
        assert in_words(Term("fate", "wounds")) == "ранения"  # a game with no word of its own: the plain one
    assert in_words(Term("pirates", "wounds")) == "wounds"


@pytest.mark.parametrize(("count", "light", "terrible"), [
    (1, "1 лёгкая", "1 ужасная"), (2, "2 лёгкие", "2 ужасные"), (5, "5 лёгких", "5 ужасных"),
    (11, "11 лёгких", "11 ужасных"), (21, "21 лёгкая", "21 ужасная"), (22, "22 лёгкие", "22 ужасные")])
def test_a_pirates_wounds_count_by_the_plural_rule(count: int, light: str, terrible: str) -> None:
    figures = key_figures("character", {"luck": 1, "wounds": {"light": count, "serious": 0, "terrible": count}})
    assert figures["wounds"] == f"{count} light, {count} terrible"  # as `characters --json` has always said
    with speaking("ru"):
        assert in_words(figures["wounds"]) == f"{light}, {terrible}"
        assert in_words(key_figures("character", {"luck": 1, "wounds": {"light": 0}})["wounds"]) == "нет"


def test_each_games_figure_words_have_their_russian_in_its_context() -> None:
    """`NC_` words are kept under their game's msgctxt: each is in the catalog there, translated."""
    with (ROOT / "locale" / "ru" / "LC_MESSAGES" / "rollbook.po").open("rb") as source:
        catalog = read_po(source, locale="ru")
    marked = {(message, context) for _, _, message, _, context in extract_from_dir(
        ROOT / "domain" / "rulesets", [("**.py", "python")], keywords={"NC_": ((1, "c"), 2)})}
    assert {context for _, context in marked} == set(GAMES)
    assert [(m, c) for m, c in marked if not (catalog.get(m, context=c) and catalog.get(m, context=c).string)] == []


@pytest.fixture(scope="module")
def russian_store(tmp_path_factory):
    """A Russian pirate campaign where Anna spends her luck and takes a wound."""
    commands = [
        {"type": "create_campaign", "ruleset": "pirates", "options": {"language": "ru"}},
        {"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
         "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}},
        {"type": "start_chapter"},
        {"id": "move", "type": "roll_move", "character": "Anna", "stat": "guile", "dice": [3, 4]},
        {"id": "luck", "type": "spend_luck", "character": "Anna", "purpose": "roll_bonus", "roll": "move"},
        {"id": "harm", "type": "take_damage", "character": "Anna", "harm": 1}]
    store = Store.open(f"sqlite:///{tmp_path_factory.mktemp('figures') / 'ru.db'}")
    lines = "".join(json.dumps({"campaign": "ru", **command}) + "\n" for command in commands)
    assert run_file(Rollbook(store), lines.encode()).error is None
    yield store
    store.close()


def test_a_russian_campaigns_lines_and_messages_say_the_changes_in_russian(russian_store) -> None:
    luck, harm = told_by_id(russian_store, "ru", "luck", None), told_by_id(russian_store, "ru", "harm", None)
    assert (luck.changes, harm.changes) == (["Anna: luck 1 → 0"], ["Anna: wounds none → 1 light"])
    assert luck.as_json()["changes"] == ["Anna: luck 1 → 0"]  # the record's English, whatever the language
    for form in FORMATS:
        assert "Anna: фарт 1 → 0" in render(luck, form) and "luck 1" not in render(luck, form), form
        assert "Anna: раны нет → 1 лёгкая" in render(harm, form), form
    assert "-# Anna: фарт 1 → 0" in discord_message(luck)
    assert "\nAnna: раны нет → 1 лёгкая\n" in telegram_message(harm)
    with speaking("ru"):  # an English campaign's line stays English whoever reads it
        luck.language = "en"
        assert "Anna: luck 1 → 0" in render(luck, "text") and "-# Anna: luck 1 → 0" in discord_message(luck)


@pytest.mark.parametrize(("side", "russian"), [("attack", "Shield (+4 к броскам на атаку)"),
                                               ("defence", "Shield (+4 к броскам на защиту)")])
def test_a_gladiators_class_skill_reads_in_words(side: str, russian: str) -> None:
    """L10: «навык работы со щитом (+4 к броскам на защиту)»; the English row is the sheet's as it always was."""
    from rollbook.domain.rulesets.gladiators.sheet import _class_skill

    [(label, value)] = _class_skill({"class_skill": {"name": "Shield", "applies_to": side}})
    assert (label, value) == ("class skill", f"name Shield, applies to {side}")
    with speaking("ru"):
        assert in_words(value) == russian


def test_implants_weapons_read_in_words() -> None:
    """L88, L100-L101: ближний и дальний бой, урон, скорострельность; the English row is the sheet's as it was."""
    from rollbook.domain.rulesets.implant.sheet import _weapons
    from rollbook.domain.sheet_layout import said

    weapons = {"knife": {"kind": "melee", "damage": "d4", "rate_of_fire": None},
               "pistol": {"kind": "ranged", "damage": "2d6", "rate_of_fire": 1}}
    [(label, value)] = _weapons({"weapons": weapons})
    assert (label, value) == ("weapons", said(weapons))
    with speaking("ru"):
        assert in_words(value) == "knife (ближний бой, урон d4), pistol (дальний бой, урон 2d6, скорострельность 1)"
