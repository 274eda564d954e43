"""No untranslatable refusal in the application's layers (issue 49): what `commands/`, `store/`, `replay/` and
`settings/` refuse with is a template and its values, never an f-string, and each template has its Russian.

A refusal and a bad command are said in the reader's language: `--lang ru` reads them in Russian, naming the
field; `--json` is the same English in both languages."""

import json
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import rollbook
from rollbook.cli import app
from rollbook.commands.parse import CommandError, parse_command
from rollbook.domain.errors import CommandRejected
from rollbook.language import refusal, speaking
from rollbook.testing.kit import CampaignUnderTest

ROOT = Path(rollbook.__file__).parent
RUSSIAN = ROOT / "locale" / "ru" / "LC_MESSAGES" / "rollbook.po"
LAYERS = ("commands", "store", "replay", "settings")
REFUSALS = ("RuleViolation", "CommandRejected", "UnknownName", "PermissionDenied", "DiceError", "DamagedHistory",
            "CommandError")
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "N_": None, "said": None, "count": (1, 2),
            **dict.fromkeys(REFUSALS, (1,)), "Word": None, "Count": (2, 3)}


def extracted(layer: str) -> set[str]:
    found = set()
    for _, _, message, _, _ in extract_from_dir(ROOT / layer, [("**.py", "python")], keywords=KEYWORDS,
                                                directory_filter=lambda path: "__pycache__" not in path):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def known() -> set[str]:
    with RUSSIAN.open("rb") as source:
        return {message.id[0] if isinstance(message.id, tuple) else message.id
                for message in read_po(source, locale="ru") if message.id and message.string}


@pytest.mark.parametrize("layer", LAYERS)
def test_no_refusal_of_the_layer_is_an_f_string(layer: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Babel skips an f-string with substitutions in a call it extracts, saying so: such a refusal could only
    ever be said in English. (It says so of a bytes literal too, `state.count(b"[")`: a line without an f-string
    is not one.)"""
    extracted(layer)
    skipped = []
    for warning in capsys.readouterr().err.splitlines():
        found = re.match(r"(.+):(\d+): warning: Skipping f-string", warning)
        if found is None:
            continue
        lines = Path(found[1]).read_text(encoding="utf-8").splitlines()
        number = int(found[2])
        if re.search(r"\b[rR]?[fF][rR]?[\"']", lines[number - 1]):
            skipped.append(warning)
    assert skipped == []


@pytest.mark.parametrize("layer", LAYERS)
def test_every_refusal_of_the_layer_has_its_russian(layer: str) -> None:
    found = extracted(layer)
    assert found - known() == set()
    assert layer == "settings" or len(found) > 10  # the extraction ran over the layer's refusals


def _store(tmp_path: Path) -> str:
    store = f"sqlite:///{tmp_path / 'refusals.db'}"
    created = CliRunner().invoke(app, ["-q", "run", "-", "--store", store], input=json.dumps(
        {"type": "create_campaign", "campaign": "sea", "ruleset": "pirates", "title": "Sea"}) + "\n" + json.dumps(
        {"type": "create_character", "campaign": "sea", "name": "Anna", "player": "anna", "luck": 1,
         "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}}) + "\n")
    assert created.exit_code == 0, created.output
    return store


#: Bad commands a person meets: (the command, the field named, the Russian the refusal says).
BAD = [
    ({"type": "take_damage", "campaign": "nowhere", "character": "Anna", "harm": 1},
     "campaign", "нет кампании 'nowhere' в этом хранилище"),
    ({"type": "take_damage", "campaign": "sea", "character": "Anna"}, "harm", "обязательное поле не указано"),
    ({"type": "take_damage", "campaign": "sea", "character": "Anna", "harm": "two"},
     "harm", "ожидается целое число, дано: строка ('two')"),
    ({"type": "take_damage", "campaign": "sea", "character": "Anna", "harm": 0},
     "harm", "значение должно быть не меньше 1 (дано 0)"),
    ({"type": "take_damage", "campaign": "sea", "character": "Anna", "harn": 1},
     "harn", "вы имели в виду `harm`?"),
]


@pytest.mark.parametrize(("command", "field", "russian"), BAD, ids=[f for _, f, _ in BAD])
def test_a_bad_command_is_refused_in_russian_naming_its_field(command: dict, field: str, russian: str) -> None:
    campaign = CampaignUnderTest(campaign="sea").of("pirates")
    campaign.given({"type": "create_character", "name": "Anna", "player": "anna", "luck": 1,
                    "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}})
    campaign.when(command).then_rejected()
    english = str(campaign.error)
    with speaking("ru"):
        said = str(campaign.error)
    assert f": {field}: " in english and f": {field}: " in said
    assert russian in said, said
    assert re.search("[а-я]", english) is None


@pytest.mark.parametrize(("command", "field", "russian"), BAD, ids=[f for _, f, _ in BAD])
def test_a_refusal_in_json_is_the_same_english_in_both_languages(command: dict, field: str, russian: str,
                                                                 tmp_path: Path) -> None:
    store = _store(tmp_path)
    line = json.dumps(command) + "\n"
    said = [CliRunner().invoke(app, ["-q", "--lang", lang, "run", "-", "--json", "--store", store], input=line)
            for lang in ("en", "ru")]
    assert said[0].exit_code == said[1].exit_code == 1
    assert said[0].stdout == said[1].stdout
    error = json.loads(said[0].stdout)["error"]
    assert error["field"] == field and re.search("[а-я]", error["reason"]) is None


def test_a_refusal_is_said_in_the_language_spoken_and_recorded_in_english() -> None:
    with pytest.raises(CommandError) as refused:
        parse_command({"type": "take_damage", "campaign": "sea", "character": "Anna", "harn": 1},
                      ruleset_of=lambda campaign: "pirates")
    english = str(refused.value)
    with speaking("ru"):
        russian = str(refused.value)
    assert english == ("command take_damage: harn: unknown field for take_damage (`rollbook schema` lists the "
                       "fields); did you mean `harm`?")
    assert russian.startswith("команда take_damage: harn: ") and "`harm`" in russian
    assert refused.value.as_dict()["reason"] == refused.value.message == english.split(": ", 2)[2]


def test_a_refusal_raised_in_the_application_reads_in_russian() -> None:
    from rollbook.commands.field_values import parse_field_values

    with pytest.raises(CommandRejected) as refused:
        parse_field_values(["harm=2", "harm=3"])
    assert refused.value.message == "word 2: the field 'harm' is given twice"
    with speaking("ru"):
        assert refusal(refused.value) == "слово 2: поле 'harm' дано дважды"
