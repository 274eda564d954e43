"""Nothing left in English under `--lang ru` (issue 49): every command's help, typer's own words, the usage errors,
the demo's lines and `serve --demo`'s block; `--lang en` is what it always was.

typer 0.29 vendors click without click's gettext, so its words are marked in cli/speech.py as typer writes them;
`test_typers_words_are_still_typers` fails when a typer release words them otherwise (and the Russian would no
longer be found for them)."""

import json
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from rollbook.cli import app

#: No language from the environment: only `--lang` chooses. Wide: no code is cut in two by a wrapped line.
ENVIRONMENT = {"ROLLBOOK_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None, "COLUMNS": "200",
               "NO_COLOR": "1"}
EXAMPLES = Path(__file__).parents[2] / "examples"
#: What is code, not words, in a line for people: a command's words (after `rollbook`, a verb in a table's first
#: column), `quoted code`, URLs, options, $VARIABLES and paths, metavars in
#: capitals, <types>, {arguments}, 'values', names with _ - . / : or @ inside, hex and digits; and the names of
#: Discord's menus as Discord's developer portal shows them (in English only).
CODE = re.compile(r"Bot → Reset Token|Copy User ID|\brollbook(?: [a-z][\w-]*)+|^[│\s*]*[a-z][\w-]*(?=\s\s)|`[^`]*`|\S+://\S*|(?<!\w)--?[\w-]+|\$\w+|<[^>]*>|\{[^}]*\}|'[^']*'|\b[A-Z][A-Z_]+\b"
                  r"|\b\w+(?:[_./:@-]\w+)+\b|\b[0-9a-f]{8,}\b")
#: Words any English sentence is made of (and typer's own), never a Russian line's.
ENGLISH = re.compile(r"\b(the|a|an|and|or|of|to|for|with|is|are|not|no|in|on|by|from|this|that|its|each|every|be|"
                     r"it|as|at|all|usage|options|arguments|commands|error|missing|try|help|default|required|env|"
                     r"show|print|message|exit|invalid|value|such|option|argument|got|extra|given|instead|when|what|which|than|"
                     r"only|also|but|if|into|after|before|one|his|their|stores?|campaigns?|stop|give|users?|tokens?|tables?|"
                     r"webhooks?|targets?|set)\b", re.IGNORECASE)


def english_left(text: str) -> list[str]:
    """The lines of `text` with an English word outside code."""
    return [line.strip() for line in text.splitlines() if ENGLISH.search(CODE.sub(" ", line))]


def said(words: list[str], *, input: str | None = None, **env: str) -> typer.testing.Result:
    return CliRunner().invoke(app, words, input=input, env={**ENVIRONMENT, **env})


def command_paths() -> list[list[str]]:
    """Every command's words: the root, each verb, each verb of a verb's own (`users add`)."""
    root = typer.main.get_command(app)
    context_class = type(typer.Context(root)).__mro__[1]
    paths: list[list[str]] = [[]]

    def walk(command, context, path):
        for name in getattr(command, "list_commands", lambda _: [])(context):
            verb = command.get_command(context, name)
            paths.append([*path, name])
            walk(verb, context_class(verb, parent=context, info_name=name), [*path, name])

    walk(root, context_class(root), [])
    return paths


def test_the_english_finder_finds_english_and_passes_code_and_russian() -> None:
    assert english_left("│ --store  <str>  Store URL (sqlite:///FILE).") == ["│ --store  <str>  Store URL (sqlite:///FILE)."]
    assert english_left("Usage: rollbook sheet [OPTIONS] {name}") != []
    assert english_left("│ --store  <str>  URL хранилища (sqlite:///ФАЙЛ, `rollbook use`, $ROLLBOOK_STORE).") == []


def test_every_commands_help_is_russian() -> None:
    paths = command_paths()
    assert len(paths) > 60 and ["users", "add"] in paths and ["witness", "check"] in paths
    left = {}
    for path in paths:
        done = said(["--lang", "ru", *path, "--help"])
        assert done.exit_code == 0, (path, done.output)
        if english_left(done.output):
            left[" ".join(path)] = english_left(done.output)
    assert left == {}


def test_every_commands_help_in_english_is_typers() -> None:
    """`--lang en` changes nothing: the help as typer prints it, its words among them."""
    done = said(["--lang", "en", "users", "add", "--help"])
    assert "Usage: rollbook users add [OPTIONS] {name}" in done.output
    assert "─ Arguments ─" in done.output and "─ Options ─" in done.output and "[required]" in done.output
    assert "Show this message and exit." in done.output
    root = said(["--lang", "en", "--help"]).output
    assert "Usage: rollbook [OPTIONS] COMMAND [ARGS]..." in root and "─ Commands ─" in root
    assert "[default: console]" in root and "[env var: ROLLBOOK_SERVER]" in root


#: Usage errors: (the words, what the Russian says, what the English says).
MISTAKES = [
    (["sheet", "Anna", "--stor", "x"], "Нет параметра --stor (похожие: --at, --json, --store)",
     "No such option: --stor (Possible options: --at, --json, --store)"),
    (["-Z", "sheet"], "Нет параметра -Z", "No such option: -Z"),
    (["sheet"], "Не указан аргумент 'name'.", "Missing argument 'name'."),
    (["grant", "u", "gm"], "Не указан параметр '--campaign' / '-c' (переменная окружения: 'ROLLBOOK_CAMPAIGN').",
     "Missing option '--campaign' / '-c' (env var: 'ROLLBOOK_CAMPAIGN')."),
    (["witness", "add"], "Не указан параметр '--name'.", "Missing option '--name'."),
    (["sheet", "a", "b", "c"], "Лишние аргументы (b c)", "Got unexpected extra argument(s) (b c)"),
    (["sheet", "Anna", "--store"], "Параметру '--store' нужно значение.", "Option '--store' requires an argument."),
    (["sheet", "Anna", "--json=1"], "Параметр '--json' не принимает значения.", "Option '--json' does not take a value."),
    (["nosuch"], "Нет команды 'nosuch'.", "No such command 'nosuch'."),
    (["users", "nosuch"], "Нет команды 'nosuch'.", "No such command 'nosuch'."),
    (["-v"], "Не указана команда.", "Missing command."),
    (["sheet", "Anna", "--revision", "x"],
     "Неверное значение '--revision': ожидается целое число, строка не читается как целое (дано 'x')",
     "Invalid value for '--revision': Input should be a valid integer, unable to parse string as an integer"),
    (["import", "f", "--batch-size", "0"],
     "Неверное значение '--batch-size': ", "Invalid value for '--batch-size': Input should be greater than or equal to 1"),
    (["--log-format", "xml", "sheet", "Anna"], "Неверное значение '--log-format': 'xml' — не одно из значений 'console', 'json'.",
     "Invalid value for '--log-format': Value error, 'xml' is not one of 'console', 'json'."),
]


@pytest.mark.parametrize(("words", "russian", "english"), MISTAKES, ids=[" ".join(w) for w, _, _ in MISTAKES])
def test_a_usage_error_is_said_in_russian_and_in_english_as_typer_says_it(words, russian, english) -> None:
    russian_said, english_said = said(["--lang", "ru", *words]), said(["--lang", "en", *words])
    assert russian_said.exit_code == english_said.exit_code == 2, russian_said.output
    assert russian in " ".join(russian_said.output.replace("│", " ").split()), russian_said.output
    assert english in " ".join(english_said.output.replace("│", " ").split()), english_said.output
    assert "Traceback" not in russian_said.output
    assert english_left(russian_said.output) == []
    assert "─ Ошибка ─" in russian_said.output and "─ Error ─" in english_said.output


def test_each_usage_error_recognised_is_one_a_rollbook_command_line_meets() -> None:
    """Every template of cli/speech.py's is the English of one of the mistakes above: none is there for nothing."""
    from rollbook.cli.speech import TYPERS_ERRORS, TYPERS_REASONS, _pattern

    englishes = [english for _, _, english in MISTAKES]
    for template in (*TYPERS_ERRORS, *TYPERS_REASONS):
        assert any(_pattern(template).search(english) for english in englishes), template


def test_a_usage_error_shows_the_usage_line_and_the_help_hint_in_russian() -> None:
    done = said(["--lang", "ru", "sheet"])
    assert "Использование: rollbook sheet [ПАРАМЕТРЫ] {name}" in done.output
    assert "Справка: 'rollbook sheet -h'." in done.output
    english = said(["--lang", "en", "sheet"]).output
    assert "Usage: rollbook sheet [OPTIONS] {name}" in english and "Try 'rollbook sheet -h' for help." in english


def test_typers_words_are_still_typers() -> None:
    """What cli/speech.py marks is what typer prints: its constants' English, and its errors' wording."""
    from typer import rich_utils

    from rollbook.cli.speech import OPTIONS_METAVAR, SUBCOMMAND_METAVAR, TYPERS_WORDS

    assert {name: getattr(rich_utils, name) for name in TYPERS_WORDS} == TYPERS_WORDS
    root = typer.main.get_command(app)
    assert root.options_metavar == OPTIONS_METAVAR and root.subcommand_metavar == SUBCOMMAND_METAVAR


def test_typers_words_are_english_again_after_a_russian_invocation() -> None:
    from typer import rich_utils

    said(["--lang", "ru", "sheet"])
    assert rich_utils.ERRORS_PANEL_TITLE == "Error" and rich_utils.OPTIONS_PANEL_TITLE == "Options"


def stored_words() -> list[str]:
    """Every text the example campaigns store (names, titles, notes): shown as typed, in whatever language."""
    found: set[str] = set()

    def collect(value):
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    for example in EXAMPLES.glob("*.jsonl"):
        for line in example.read_text().splitlines():
            if line.strip() and not line.startswith("//"):
                collect(json.loads(line))
    return sorted(found, key=len, reverse=True)


def without_stored_words(text: str) -> str:
    for word in stored_words():
        if len(word) > 2:
            text = text.replace(word, " ")
    return text


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[str, typer.testing.Result]:
    """The demo's store, and what `rollbook --lang ru demo` printed as it made it."""
    folder = tmp_path_factory.mktemp("demo")
    url = f"sqlite:///{folder / 'demo.db'}"
    return url, said(["--lang", "ru", "demo", "--store", url], ROLLBOOK_SECRETS=str(folder / "s"))


def test_the_demo_says_nothing_in_english(demo) -> None:
    """The demo's own lines: its headings, its counts, what to try next. (The sheets it prints are the sheet
    layouts' words, read against golden sheets in test_cli_language.py.)"""
    _, done = demo
    assert done.exit_code == 0, done.output
    own = [line for line in done.stdout.splitlines() if not line.lstrip().startswith(("│", "┃", "┏", "┡", "└", "┌", "├", "╭", "╰"))]
    assert len(own) > 10
    assert english_left(without_stored_words("\n".join(own))) == []


def serve_demo_block(tmp_path, language: str, capsys) -> str:
    from rollbook.cli import settings
    from rollbook.cli.serve import _build_demo
    from rollbook.language import speaking

    settings.language = language
    try:
        with speaking(language):
            _build_demo(f"sqlite:///{tmp_path / language}.db", "http://127.0.0.1:8421")
    finally:
        settings.language = "en"
    return capsys.readouterr().out


def test_serve_demos_block_is_russian_and_its_english_as_it_was(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "s"))
    russian = serve_demo_block(tmp_path, "ru", capsys)
    assert "Попробуйте в другом терминале:" in russian and "# 403: Bo — не её персонаж" in russian
    assert english_left(russian.replace("Authorization: Bearer", " ")) == []
    english = serve_demo_block(tmp_path, "en", capsys)
    tokens = re.findall(r"^\w+ token \(user \w+\):\s+(\S+)$", english, re.MULTILINE)
    assert len(tokens) == 4
    assert english.split("\n\n", 2)[2].startswith(
        f"GM token (user gm):          {tokens[0]}\nPlayer token (user anna):    {tokens[1]}\n"
        f"Player token (user bo):      {tokens[2]}\nAuditor token (user audrey): {tokens[3]}\n\n"
        f"Try, in another terminal:\n  GM={tokens[0]}\n")
    assert "# 403: Bo is not hers\n" in english and "# live, Ctrl-C to stop\n" in english
    assert english.endswith("  http://127.0.0.1:8421/docs shows every route (the OpenAPI document is "
                            "http://127.0.0.1:8421/openapi.json)\n\n")


@pytest.fixture
def store(tmp_path, monkeypatch) -> str:
    """A store with the first commands of the pirates' example campaign (black-sails)."""
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "s"))
    url = f"sqlite:///{tmp_path / 'sea.db'}"
    lines = "\n".join((EXAMPLES / "pirates.jsonl").read_text().splitlines()[:4]) + "\n"
    ran = CliRunner().invoke(app, ["-q", "run", "-", "--store", url], input=lines, env=ENVIRONMENT)
    assert ran.exit_code == 0, ran.output
    return url


def test_a_witness_checks_outcome_is_said_in_russian_and_in_english_as_before(store, tmp_path) -> None:
    for language, cosigned, unchanged in [("ru", "заверено: ", "без изменений: "), ("en", "cosigned: ", "unchanged: ")]:
        state = str(tmp_path / f"{language}.witness.db")
        added = said(["-q", "witness", "add", store, "-c", "black-sails", "--name", "w.example/w", "--state", state])
        assert added.exit_code == 0, added.output
        first, again = (said(["-q", "--lang", language, "witness", "check", "--state", state]) for _ in range(2))
        assert first.stdout.startswith(cosigned) and again.stdout.startswith(unchanged), (first.output, again.output)
        if language == "ru":
            assert english_left(first.stdout) == [] and english_left(again.stdout) == []


def test_imports_method_is_said_in_russian_and_kept_in_json(store, tmp_path) -> None:
    exported = tmp_path / "sea.jsonl"
    exported.write_text(said(["export", "-c", "black-sails", "--store", store]).stdout)
    copied = said(["-q", "--lang", "ru", "import", str(exported), "--store", f"sqlite:///{tmp_path / 'a.db'}"])
    assert copied.exit_code == 0 and "(скопировано)" in copied.stdout, copied.output
    again = said(["-q", "--lang", "ru", "import", str(exported), "--reexecute", "--store", f"sqlite:///{tmp_path / 'b.db'}"])
    assert again.exit_code == 0 and "(выполнено заново)" in again.stdout, again.output
    english = said(["-q", "--lang", "en", "import", str(exported), "--store", f"sqlite:///{tmp_path / 'c.db'}"])
    assert "commands (copied) and 0 disputes of black-sails" in english.stdout
    as_json = said(["-q", "--lang", "ru", "import", str(exported), "--json", "--store", f"sqlite:///{tmp_path / 'd.db'}"])
    assert json.loads(as_json.stdout)["method"] == "copied"


def test_an_unknown_campaign_or_name_on_a_read_is_said_in_russian(store) -> None:
    campaign = said(["--lang", "ru", "sheet", "Anna", "-c", "nowhere", "--store", store])
    assert campaign.exit_code == 1
    assert campaign.stderr == f"rollbook: campaign: в {store} нет кампании 'nowhere' (известны: black-sails)\n"
    assert said(["--lang", "en", "sheet", "Anna", "-c", "nowhere", "--store", store]).stderr == (
        f"rollbook: campaign: no campaign 'nowhere' in {store} (known: black-sails)\n")
    name = said(["--lang", "ru", "sheet", "Nobody", "-c", "black-sails", "--store", store])
    assert name.stderr.startswith("rollbook: name: в black-sails нет персонажа, корабля или врага 'Nobody' (известны: ")
    assert english_left(name.stderr.replace("rollbook: name:", "")) == []


def test_an_unknown_revision_is_said_in_russian(store) -> None:
    """A revision's stored key (`black-sails@r9`, as the server asks for it) that is not there."""
    from rollbook.domain.errors import UnknownName
    from rollbook.language import refusal, speaking
    from rollbook.projections.queries import Reader
    from rollbook.store import Store

    with pytest.raises(UnknownName) as refused:
        Reader(Store.open(store)).campaign("black-sails@r9")
    assert refused.value.message == f"no revision 9 of black-sails in {store} (known: black-sails)"
    with speaking("ru"):
        assert refusal(refused.value) == f"в {store} нет ревизии 9 кампании black-sails (известны: black-sails)"


def test_logins_prompt_is_russian() -> None:
    done = said(["--lang", "ru", "login", "http://127.0.0.1:9"], input="\n")
    assert "Токен (от вашего мастера: `rollbook users add ИМЯ`)" in done.output


def test_a_commands_fields_are_described_in_russian_as_the_post_form_describes_them() -> None:
    fields = " ".join(said(["--lang", "ru", "post", "--help", "roll_move", "--store", "memory://"]).stdout.split())
    assert "stat (обязательно) Характеристика, которую называет ход (или Мастер)." in fields
    assert "roll_move (pirates): Проверка: 2d6 + характеристика (3d6, два лучших, за потраченный шанс);" in fields
    assert "Каждая команда принимает также --campaign/-c, --actor, --at и --id" in fields
    english = " ".join(said(["--lang", "en", "post", "--help", "roll_move", "--store", "memory://"]).stdout.split())
    assert "stat (required) The stat the move (or the GM) names." in english
    assert "roll_move (pirates): A check: 2d6 + stat (3d6 keep 2 with a chance spent);" in english


@pytest.mark.parametrize("words", [["users", "list"], ["webhook", "list", "-c", "black-sails"],
                                   ["telegram", "status", "-c", "black-sails"], ["discord", "status", "-c", "black-sails"],
                                   ["campaigns"], ["characters", "-c", "black-sails"], ["rolls", "-c", "black-sails"],
                                   ["timeline", "-c", "black-sails"], ["limits", "-c", "black-sails"],
                                   ["revisions", "-c", "black-sails"], ["verify", "-c", "black-sails"],
                                   ["replay", "-c", "black-sails"], ["rebuild"]],
                         ids=lambda words: " ".join(words[:2]))
def test_the_tools_tables_and_lines_are_russian(store, words) -> None:
    assert said(["-q", "users", "add", "anna", "--store", store]).exit_code == 0
    done = said(["--lang", "ru", *words, "--store", store])
    assert done.exit_code == 0, done.output
    assert english_left(without_stored_words(done.stdout)) == [], done.stdout


def test_the_slash_commands_are_described_as_discord_shows_them_to_a_russian_reader() -> None:
    russian = " ".join(said(["--lang", "ru", "discord", "commands"]).stdout.split())
    assert "Слеш-команды" in russian and "/rb post │ Отправить команду словами `rollbook post`" in russian
    english = " ".join(said(["--lang", "en", "discord", "commands"]).stdout.split())
    assert "Slash commands" in english and "/rb post │ Post a command, in the words of `rollbook post`" in english


def test_a_file_that_cannot_be_read_is_said_with_the_systems_reason_in_russian(tmp_path) -> None:
    missing = str(tmp_path / "gone.jsonl")
    for words in (["run", missing], ["import", missing], ["run", str(tmp_path)]):
        russian = said(["--lang", "ru", *words, "--store", "memory://"])
        assert russian.exit_code == 1 and russian.stderr.startswith(f"rollbook: не удаётся прочитать {words[1]}: ")
        assert english_left(russian.stderr) == [], russian.stderr
    assert said(["--lang", "en", "run", missing, "--store", "memory://"]).stderr == (
        f"rollbook: cannot read {missing}: No such file or directory\n")


def test_a_bad_group_commit_is_said_in_russian() -> None:
    russian = said(["--lang", "ru", "run", "x", "--group-commit", "0", "--store", "memory://"])
    assert russian.stderr == ("rollbook: --group-commit: N — сколько команд сохраняет каждая транзакция, целое число "
                              "от 1, а не '0'; ничего не выполнено\n")
    assert said(["--lang", "en", "run", "x", "--group-commit", "0", "--store", "memory://"]).stderr == (
        "rollbook: --group-commit: N is how many commands each transaction stores, a whole number from 1, not '0'; "
        "nothing was run\n")


def test_a_unit_still_open_is_said_in_russian(demo) -> None:
    """Its scope in the game's word, as the timeline says it (the heroes' issue is «игра»)."""
    url, _ = demo
    words = ["sheet", "Spark", "-c", "null-hour", "--at", "issue:2", "--store", url]
    russian, english = said(["--lang", "ru", *words]), said(["--lang", "en", *words])
    assert re.fullmatch(r"rollbook: игра 2 ещё идёт: показано последнее состояние, сейчас \(позиция \d+\)\n",
                        russian.stderr), russian.stderr
    assert re.fullmatch(r"rollbook: issue 2 is still open: showing its latest point, now \(position \d+\)\n",
                        english.stderr), english.stderr
