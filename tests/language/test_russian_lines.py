"""The lines in words in Russian (issue 49): per game, the line of every command of its example campaigns, read
against the original's terms (shared/seeds/*.ru.txt, cited in the catalog's translator comments) and kept here as
golden files; English stays byte for byte what it was; the CLI's --lang and a campaign's `language` option."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.language import speaking
from rollbook.testing.cli import CliCampaign
from tests.core.test_narration import told

GOLDEN = Path(__file__).parent / "golden"
EXAMPLES = Path(__file__).parents[2] / "examples"
GAMES = ("pirates", "heroes", "implant", "gladiators")


@pytest.mark.parametrize("game", GAMES)
def test_every_command_of_the_example_campaigns_is_told_in_russian(game: str) -> None:
    """Regenerate a golden file only after reading its lines against the original: `фарт`, `пробоина`, `фишка`."""
    with speaking("ru"):
        lines = told(f"{game}.jsonl")
    assert lines == (GOLDEN / f"{game}.ru.txt").read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("game", GAMES)
def test_every_command_kind_of_the_examples_has_its_russian_line(game: str) -> None:
    """Each kind of command of the examples has its line, and every line says something of its own in Russian:
    none is the English line unchanged (a message missing from the catalog would leave one so)."""
    commands = [json.loads(line) for line in (EXAMPLES / f"{game}.jsonl").read_text().splitlines()
                if line.startswith("{")]
    with speaking("ru"):
        russian = told(f"{game}.jsonl")
    english = told(f"{game}.jsonl")
    assert len(russian) == len(commands) and len({command["type"] for command in commands}) > 3
    assert [(command["type"], line) for command, line, said in zip(commands, english, russian) if line == said] == []


def test_english_is_the_same_with_or_without_a_language_spoken() -> None:
    """The English side of the catalog is the messages themselves: speaking English changes no byte."""
    for game in GAMES:
        with speaking("en"):
            spoken = told(f"{game}.jsonl")
        assert spoken == told(f"{game}.jsonl")


def _run(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> str:
    result = CliRunner().invoke(app, list(args), env=env, input=input)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_lang_en_prints_todays_lines_whatever_the_locale(tmp_path: Path) -> None:
    example = str(EXAMPLES / "gladiators.jsonl")
    today = _run("run", example, "--store", f"sqlite:///{tmp_path / 'a.db'}", env={"LANG": "C"})
    english = _run("--lang", "en", "run", example, "--store", f"sqlite:///{tmp_path / 'b.db'}",
                   env={"LANG": "ru_RU.UTF-8", "ROLLBOOK_LANG": "ru"})
    assert english == today and "Marcus is awarded 4 roleplay tokens" in today


def test_the_language_comes_from_rollbook_lang_then_the_locale(tmp_path: Path) -> None:
    example = str(EXAMPLES / "gladiators.jsonl")
    by_variable = _run("run", example, "--store", f"sqlite:///{tmp_path / 'a.db'}", env={"ROLLBOOK_LANG": "ru"})
    by_locale = _run("run", example, "--store", f"sqlite:///{tmp_path / 'b.db'}",
                     env={"ROLLBOOK_LANG": "", "LC_ALL": "", "LC_MESSAGES": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"})
    assert "Marcus получает 4 модификатора за отыгрыш" in by_variable
    assert by_locale == by_variable


def test_an_unknown_lang_is_refused_in_one_line() -> None:
    result = CliRunner().invoke(app, ["--lang", "fr", "schema"])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_json_is_the_same_in_both_languages(tmp_path: Path) -> None:
    """`post --json` (its summary included) and the read verbs' JSON are the record's, in no reader's language."""
    lines = (EXAMPLES / "pirates.jsonl").read_text().splitlines()
    printed = {}
    for language in ("en", "ru"):
        store = f"sqlite:///{tmp_path / language}.db"
        _run("-q", "run", "-", "--store", store, input="\n".join(lines[:9]) + "\n")
        posted = ["post", "roll_move", "character=Anna", "stat=guile", "dice=[6,2]", "--id", "anna-2",
                  "--actor", "player:anna", "--at", "2026-03-02T19:20:00+00:00", "-c", "black-sails"]
        printed[language] = [_run("--lang", language, *posted, "--store", store, "--json"),
                             *(_run("--lang", language, *verb, "--store", store, "--json", "-c", "black-sails")
                               for verb in (["rolls"], ["sheet", "Anna"], ["timeline"]))]
    assert printed["en"] == printed["ru"]
    assert json.loads(printed["ru"][0])["summary"].startswith("Anna — Guile: 2d6 [6, 2] +1 guile")


def test_a_russian_campaigns_forum_line_is_russian_with_the_users_text_escaped(tmp_path: Path) -> None:
    """The campaign's own seeded dice: the line is in its language, and `verify` recomputes the roll."""
    campaign = CliCampaign(tmp_path, "pirates", language="ru", campaign="red-[b]sea")
    campaign.run({"type": "create_character", "name": "[url=x]Bo[/url]", "player": "bo",
                  "stats": {"audacity": 2, "guile": 1, "foresight": 0, "reputation": 0}, "luck": 2},
                 {"type": "start_chapter"}, {"type": "start_scene"},
                 {"type": "roll_move", "id": "bo-1", "character": "[url=x]Bo[/url]", "stat": "audacity",
                  "move": "cross_anchors"},
                 {"type": "spend_luck", "character": "[url=x]Bo[/url]", "purpose": "roll_bonus", "roll": "bo-1"})
    result = campaign.invoke("line", "bo-1", "--campaign", campaign.campaign, "--format", "bbcode")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("[b][[b][/b]url=x]Bo[[b][/b]/url] — Сойтись якорями: 2d6 [")
    assert "дерзость" in first and "[/b]" in first and "команда bo-1" in result.stdout
    assert campaign.verify().exit_code == 0


def test_a_campaign_language_rollbook_does_not_speak_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    campaign = CliCampaign(tmp_path, "heroes")
    error = campaign.refused({"type": "create_campaign", "campaign": "other", "ruleset": "heroes",
                              "options": {"language": "de"}})
    assert error["field"] == "options" and "option language is one of en, ru, not 'de'" in error["reason"]
    assert "other" not in _run("campaigns", "--store", campaign.store, "--json")


def test_the_cli_offers_every_language_rollbook_speaks() -> None:
    from rollbook.cli import Language
    from rollbook.domain.options import LANGUAGES

    assert [language.value for language in Language] == list(LANGUAGES)
