"""The command line in its reader's language (issue 49): the help, the sheets, the tables, the refusals and the
demo in Russian; `--lang en` prints what Rollbook printed before there was a language to choose (the English
sheets of golden/sheets/*.en.txt were printed by the commit before this work); every `--json` is the same in
both languages."""

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.language import translations

GOLDEN = Path(__file__).parent / "golden" / "sheets"
#: No language from the environment: only `--lang` (or what a test sets) chooses.
NO_LANGUAGE = {"ROLLBOOK_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
SHEETS = [("gladiators", "ludus-magnus", "sheet", "Marcus"), ("pirates", "black-sails", "sheet", "Anna"),
          ("pirates-ship", "black-sails", "ship", "Chaika"), ("heroes", "null-hour", "sheet", "Spark"),
          ("implant", "neon-alley", "sheet", "Vera")]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("language")
    url = f"sqlite:///{folder / 'demo.db'}"
    built = CliRunner().invoke(app, ["demo", "--store", url, "--json"],
                               env={**NO_LANGUAGE, "ROLLBOOK_SECRETS": str(folder / "s")})
    assert built.exit_code == 0, built.output
    return url


def printed(words, **env):
    done = CliRunner().invoke(app, words, env={**NO_LANGUAGE, "COLUMNS": "80", "NO_COLOR": "1", **env})
    return done


@pytest.mark.parametrize(("game", "campaign", "verb", "name"), SHEETS)
def test_a_sheet_of_each_game_reads_in_russian_as_the_golden_one(demo, game, campaign, verb, name):
    done = printed(["--lang", "ru", verb, name, "-c", campaign, "--store", demo])
    assert done.exit_code == 0, done.output
    assert done.stdout == (GOLDEN / f"{game}.ru.txt").read_text()


@pytest.mark.parametrize(("game", "campaign", "verb", "name"), SHEETS)
def test_a_sheet_in_english_is_as_it_was_before_languages(demo, game, campaign, verb, name):
    for words in (["--lang", "en"], []):
        done = printed([*words, verb, name, "-c", campaign, "--store", demo])
        assert done.stdout == (GOLDEN / f"{game}.en.txt").read_text(), words


def read_verbs(url):
    where = ["-c", "black-sails", "--store", url]
    yield ["campaigns", "--store", url]
    yield ["moves"]
    for verb in ("characters", "timeline", "limits", "rolls", "log", "revisions"):
        yield [verb, *where]
    yield ["sheet", "Anna", *where]
    yield ["ship", "Chaika", *where]
    yield ["characters", "-c", "null-hour", "--store", url]
    yield ["timeline", "-c", "null-hour", "--store", url]
    yield ["odds", "roll_move", "character=Anna", "stat=audacity", "move=threaten_violence", *where]


def test_english_with_lang_en_is_english_without_it(demo):
    for words in read_verbs(demo):
        plain, english = printed(words), printed(["--lang", "en", *words])
        assert plain.exit_code == 0, (words, plain.output)
        assert english.stdout == plain.stdout, words


def test_every_json_output_is_the_same_in_both_languages(demo):
    for words in [*([*verb, "--json"] for verb in read_verbs(demo)), ["schema", "--ruleset", "pirates"]]:
        english, russian = printed(["--lang", "en", *words]), printed(["--lang", "ru", *words])
        assert english.exit_code == 0, (words, english.output)
        assert json.loads(russian.stdout) == json.loads(english.stdout), words
        assert russian.stdout == english.stdout, words


def test_tables_speak_russian_with_their_times_as_russian_writes_them(demo):
    timeline = printed(["--lang", "ru", "timeline", "-c", "black-sails", "--store", demo]).stdout
    assert "Хронология black-sails" in timeline and "глава" in timeline and "02.03 19:00" in timeline
    limits = printed(["--lang", "ru", "limits", "-c", "black-sails", "--store", demo]).stdout
    assert "бой" in limits and "0 из 1" in limits and "ограничение" in limits


def test_the_root_help_and_a_verbs_help_are_in_russian():
    root = printed(["--lang", "ru", "--help"])
    assert root.exit_code == 0, root.output
    assert "Параметры" in root.stdout and "Команды" in root.stdout and "Показать эту справку" in root.stdout
    assert "Событийный симулятор" in root.stdout and "Show this message" not in root.stdout
    post = printed(["post", "--lang", "ru", "--help"])
    assert "Аргументы" in post.stdout and "Применить одну команду" in post.stdout
    assert printed(["post", "--help"], ROLLBOOK_LANG="ru").stdout == post.stdout
    assert printed(["post", "--help"], LANG="ru_RU.UTF-8").stdout == post.stdout
    assert not CYRILLIC.search(printed(["--lang", "en", "--help"]).stdout)
    assert printed(["--lang", "en", "post", "--help"]).stdout == printed(["post", "--help"]).stdout


def help_texts():
    """Every help text the command tree holds in English: the verbs' docstrings, their options' `help=`."""
    root = typer.main.get_command(app)
    context_class = type(typer.Context(root)).__mro__[1]
    found = []

    def walk(command, context):
        found.extend(text for text in (command.help, command.short_help) if text)
        found.extend(param.help for param in command.get_params(context) if getattr(param, "help", None))
        for name in getattr(command, "list_commands", lambda _: [])(context):
            verb = command.get_command(context, name)
            walk(verb, context_class(verb, parent=context, info_name=name))

    walk(root, context_class(root))
    return found


def test_every_help_text_has_its_russian():
    russian = translations("ru")
    texts = help_texts()
    assert len(texts) > 150  # every verb was looked up
    assert [text for text in texts if not CYRILLIC.search(russian.gettext(text))] == []


def test_the_demo_speaks_russian(tmp_path):
    done = printed(["--lang", "ru", "demo", "--store", f"sqlite:///{tmp_path / 'demo.db'}"],
                   ROLLBOOK_SECRETS=str(tmp_path / "s"))
    assert done.exit_code == 0, done.output
    assert "персонаж: Anna" in done.stdout and "id кампании" in done.stdout and "Попробуйте" in done.stdout
    assert "Luck and purse" not in done.stdout and "Try next" not in done.stdout


def test_a_mistake_is_said_in_russian(demo):
    done = printed(["--lang", "ru", "ship", "Anna", "-c", "black-sails", "--store", demo])
    assert done.exit_code == 1
    assert done.stderr.strip() == "rollbook: 'Anna' — персонаж, а не корабль"


def test_a_refusal_is_said_in_the_readers_language_after_its_field_as_typed(capsys):
    """`guarded` says a refusal by `language.refusal`: its template in the catalog's Russian, filled with its values."""
    from rollbook.cli import guarded, settings
    from rollbook.domain.errors import CommandRejected
    from rollbook.language import speaking

    @guarded
    def refusing():
        raise CommandRejected("unknown ruleset {ruleset} (available: {available})", field="ruleset",
                              ruleset="'chess'", available="pirates")

    for language, said in [("ru", "ruleset: неизвестный свод правил 'chess' (есть: pirates)"),
                           ("en", "ruleset: unknown ruleset 'chess' (available: pirates)")]:
        settings.language = language
        try:
            with speaking(language), pytest.raises(typer.Exit):
                refusing()
        finally:
            settings.language = "en"
        assert capsys.readouterr().err == f"rollbook: {said}\n"


def test_counts_take_the_russian_plural_forms(tmp_path):
    """CLDR's rule: 3 команды, 0 команд; English keeps its `applied 0 commands`."""
    lines = (Path(__file__).parents[2] / "examples" / "pirates.jsonl").read_text().splitlines()[:3]
    (tmp_path / "three.jsonl").write_text("\n".join(lines) + "\n")
    store = ["--store", f"sqlite:///{tmp_path / 'run.db'}"]
    secrets = {"ROLLBOOK_SECRETS": str(tmp_path / "s")}
    first = printed(["--lang", "ru", "-q", "run", str(tmp_path / "three.jsonl"), *store], **secrets)
    assert first.stdout == "применены 3 команды\n", first.output
    again = printed(["--lang", "ru", "-q", "run", str(tmp_path / "three.jsonl"), *store], **secrets)
    assert again.stdout.splitlines()[-1] == "применено 0 команд, пропущены 3 уже записанные команды"
    english = printed(["--lang", "en", "-q", "run", str(tmp_path / "three.jsonl"), *store], **secrets)
    assert english.stdout.splitlines()[-1] == "applied 0 commands, skipped 3 commands already recorded"


def test_a_date_and_time_are_written_as_the_readers_locale_writes_them(tmp_path):
    store = ["--store", f"sqlite:///{tmp_path / 'users.db'}"]
    assert printed(["-q", "users", "add", "alice", *store]).exit_code == 0
    russian = printed(["--lang", "ru", "users", "link-code", "alice", *store]).stdout
    assert re.match(r"код связи для alice \(один раз, до \d\d\.\d\d\.\d{4}, \d\d:\d\d UTC\): ", russian), russian
    english = printed(["--lang", "en", "users", "link-code", "alice", *store]).stdout
    assert re.match(r"link code for alice \(once, until \d{4}-\d\d-\d\d \d\d:\d\d UTC\): ", english), english
