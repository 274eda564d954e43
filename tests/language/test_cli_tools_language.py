"""The tools' lines in their reader's language (issue 49): the witness, the proofs, export and import say what is
wrong in Russian with `--lang ru`, and with `--lang en` exactly what they said before there was a language."""

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.errors import DamagedHistory
from rollbook.language import refusal, speaking

#: No language from the environment: only `--lang` chooses.
NO_LANGUAGE = {"ROLLBOOK_LANG": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": None}


def said(words):
    done = CliRunner().invoke(app, words, env={**NO_LANGUAGE, "COLUMNS": "200", "NO_COLOR": "1"})
    assert done.exit_code == 1, done.output
    return " ".join(done.output.split())


@pytest.fixture
def not_json(tmp_path):
    path = tmp_path / "proof.json"
    path.write_text("a roll, pasted")
    return str(path)


def test_a_proof_that_is_not_json_is_said_in_each_language(not_json):
    assert f"{not_json}: это не доказательство в JSON (" in said(["--lang", "ru", "check-proof", not_json, "--vkey", "k"])
    assert f"{not_json}: not a proof in JSON (" in said(["--lang", "en", "check-proof", not_json, "--vkey", "k"])


def test_a_missing_witness_is_said_in_each_language(tmp_path):
    state = str(tmp_path / "none.db")
    assert f"нет свидетеля в {state}" in said(["--lang", "ru", "witness", "evidence", "--state", state])
    assert f"no witness at {state}" in said(["--lang", "en", "witness", "evidence", "--state", state])


def test_a_witness_by_origin_without_the_log_key_is_refused_in_each_language(tmp_path):
    words = ["witness", "add", "--name", "w", "--origin", "example.org/log", "--state", str(tmp_path / "w.db")]
    assert "--origin требует --log-vkey журнала" in said(["--lang", "ru", *words])
    assert ("--origin takes the log's --log-vkey and no SOURCE (the log sends its checkpoints to `witness serve`)"
            in said(["--lang", "en", *words]))


def test_an_unreadable_export_is_said_in_each_language(tmp_path):
    missing = str(tmp_path / "gone.jsonl")
    store = f"sqlite:///{tmp_path / 'to.db'}"
    assert f"не удаётся прочитать {missing}: " in said(["--lang", "ru", "import", missing, "--store", store])
    assert f"cannot read {missing}: No such file or directory" in said(["--lang", "en", "import", missing,
                                                                        "--store", store])


def test_a_damaged_history_is_said_in_russian_with_its_afterword():
    damaged = DamagedHistory("event {name} v{version} of {key} does not decode ({why})", name="CharacterCreated",
                             version=3, key="sea/Anna", why="line 1 column 2")
    assert damaged.message == ("event CharacterCreated v3 of sea/Anna does not decode (line 1 column 2); the store "
                               "was damaged or edited: `rollbook verify` says where")
    with speaking("ru"):
        assert refusal(damaged) == ("событие CharacterCreated v3 агрегата sea/Anna не декодируется (line 1 column 2); "
                                    "хранилище повреждено или изменено: где именно, скажет `rollbook verify`")
