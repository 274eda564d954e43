"""Every read verb of the four example campaigns at 80 columns: no line longer, no word cut.

A word is cut when the narrow output holds a piece of it that the same output at 1000 columns
(where nothing needs wrapping) does not hold: "Emperor'" and "s" for "Emperor's", a time split
as "2026-03-02T19:00:00+" and "00:00". So every token printed at 80 columns must be a token of
the wide output (a table too wide for its words is shown a row at a time, `column: value`).
In English and in Russian, whose words are longer (issue 49).
"""

import json
import re

import pytest
from rollbook.cli import app
from typer.testing import CliRunner

BORDERS = re.compile(r"[\s\u2500-\u257f]+")  # whitespace and box-drawing characters


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    folder = tmp_path_factory.mktemp("columns")
    url = f"sqlite:///{folder / 'examples.db'}"
    built = CliRunner().invoke(app, ["demo", "--store", url, "--json"], env={"ROLLBOOK_SECRETS": str(folder / "s")})
    assert built.exit_code == 0, built.output
    campaigns = json.loads(built.stdout)
    rolls = json.loads(CliRunner().invoke(app, ["rolls", "-c", "black-sails", "--store", url, "--json"]).stdout)
    ruled = CliRunner().invoke(app, ["-q", "dispute", rolls[0]["id"], "--reason", "a misread die, ruled again",
                                     "--faces", "6,6", "-c", "black-sails", "--store", url])
    assert ruled.exit_code == 0, ruled.output
    return url, campaigns


def rendered(words, columns, language="en"):
    done = CliRunner().invoke(app, ["--lang", language, *words], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    assert done.exit_code == 0, (words, done.output)
    return done.stdout


def tokens(text):
    return {token for token in BORDERS.split(text) if token}


def read_verbs(url, campaigns):
    from rollbook.commands.catalogue import commands_for

    yield ["campaigns", "--store", url]
    yield ["moves"]
    for campaign, sheets in campaigns.items():
        where = ["-c", campaign, "--store", url]
        for verb in ("characters", "timeline", "limits", "rolls", "log", "revisions", "verify", "replay"):
            yield [verb, *where]
        for name, sheet in sheets.items():
            yield ["sheet", name, *where]
            if "hull_rating" in sheet:
                yield ["ship", name, *where]
        ruleset = json.loads(CliRunner().invoke(app, ["timeline", *where, "--json"]).stdout)["ruleset"]
        for command_type in commands_for(ruleset):
            yield ["post", "--help", command_type, *where]


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_read_verb_of_the_examples_fits_80_columns_without_cutting_a_word(examples, language):
    url, campaigns = examples
    checked = 0
    for words in read_verbs(url, campaigns):
        narrow, wide = rendered(words, 80, language), rendered(words, 1000, language)
        too_long = [line for line in narrow.splitlines() if len(line) > 80]
        assert not too_long, (words, too_long[:3])
        whole = tokens(wide)
        cut = sorted(t for t in tokens(narrow) if t not in whole and t.removesuffix(":") not in whole)
        assert not cut, (words, cut[:10])
        checked += 1
    assert checked > 100  # every verb of every campaign, every command's help


def test_times_are_shortened_in_tables_and_whole_with_json_or_verbose(examples):
    url, _ = examples
    timeline = rendered(["timeline", "-c", "black-sails", "--store", url], 80)
    started = json.loads(rendered(["timeline", "-c", "black-sails", "--store", url, "--json"], 80))["timeline"][0]
    assert started["started_at"] == "2026-03-02T19:00:00+00:00"
    assert "03-02 19:00" in timeline and "2026-03-02T19" not in timeline
    verbose = CliRunner().invoke(app, ["-v", "campaigns", "--store", url], env={"COLUMNS": "200"}).stdout
    assert "2026-03-03T21:00:00+00:00" in verbose
