"""What the command line says to a new user, word for word: look-alike letters named, an actor
explained, revisions spoken of as revisions, no Python values, "did you mean", a store URL's slashes,
and odds as another actor would see them."""

import json
from pathlib import Path

import pytest
from rollbook.cli import app
from typer.testing import CliRunner

EXAMPLE = Path(__file__).parents[2] / "examples" / "pirates.jsonl"


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    folder = tmp_path_factory.mktemp("words")
    url = f"sqlite:///{folder / 'words.db'}"
    assert CliRunner().invoke(app, ["-q", "run", str(EXAMPLE), "--store", url]).exit_code == 0
    ruled = CliRunner().invoke(app, ["-q", "dispute", "anna-2", "--reason", "typed 6 for 5", "--faces", "5,2",
                                     "-c", "black-sails", "--store", url])
    assert ruled.exit_code == 0, ruled.output
    return url


def said(*words, code=1):
    done = CliRunner().invoke(app, list(words))
    assert done.exit_code == code, done.output
    return done.output


def test_a_look_alike_letter_in_a_name_is_named_with_the_name_meant(url):
    assert said("post", "take_damage", "character=Аnna", "harm=1", "-c", "black-sails", "--store", url) == (
        "rollbook: character: no character named 'Аnna' in campaign revision 2 of black-sails (known: Anna, Bo); 'Аnna' has a "
        "look-alike letter: 'А', CYRILLIC CAPITAL LETTER A (U+0410). Did you mean 'Anna'?\n")
    assert said("sheet", "Аnna", "-c", "black-sails", "--store", url).endswith(
        "; 'Аnna' has a look-alike letter: 'А', CYRILLIC CAPITAL LETTER A (U+0410). Did you mean 'Anna'?\n")


def test_a_fullwidth_campaign_id_is_named_with_the_campaign_meant(url):
    assert said("sheet", "Anna", "-c", "ｂｌａｃｋ-ｓａｉｌｓ", "--store", url) == (
        f"rollbook: campaign: no campaign 'ｂｌａｃｋ-ｓａｉｌｓ' in {url} (known: black-sails, silver-fleet); 'ｂｌａｃｋ-ｓａｉｌｓ' has "
        "look-alike letters: 'ｂ', FULLWIDTH LATIN SMALL LETTER B (U+FF42), 'ｌ', FULLWIDTH LATIN SMALL LETTER L "
        "(U+FF4C), and 5 more. Did you mean 'black-sails'?\n")
    before = said("log", "-c", "black-sails", "--store", url, "--json", code=0)
    assert said("post", "take_damage", "character=Anna", "harm=1", "-c", "ｂlack-sails", "--store", url) == (
        "rollbook: command take_damage: campaign: no campaign 'ｂlack-sails' in this store; create it first with "
        "create_campaign; 'ｂlack-sails' has a look-alike letter: 'ｂ', FULLWIDTH LATIN SMALL LETTER B (U+FF42). "
        "Did you mean 'black-sails'?\n")
    assert said("log", "-c", "black-sails", "--store", url, "--json", code=0) == before  # nothing written


def test_an_actor_is_explained_not_shown_as_a_pattern(url):
    assert said("post", "take_damage", "character=Anna", "harm=1", "--actor", "bob", "-c", "black-sails",
                "--store", url) == (
        "rollbook: command take_damage: actor: an actor is who gives the command: gm, player:NAME or auditor:NAME "
        "(a NAME without spaces or colons), not 'bob'\n")


def test_an_unknown_campaign_lists_campaigns_not_their_revisions_keys(url):
    assert said("use", "nope", "--store", url) == (
        f"rollbook: campaign: no campaign 'nope' in {url} (known: black-sails, silver-fleet)\n")
    assert "@r2" not in said("sheet", "Anna", "-c", "black-sail", "--store", url)


def test_no_python_value_reaches_the_reader(url, tmp_path):
    users = f"sqlite:///{tmp_path / 'users.db'}"
    said("users", "add", "zed", "--store", users, code=0)
    listed = said("users", "list", "--store", users, code=0)
    assert "│ zed  │ yes    │" in listed and "True" not in listed
    said("post", "roll_move", "character=Anna", "stat=audacity", "dice=[3,3]", "--id", "twice", "-c", "black-sails",
         "--store", url, "-q", code=0)
    again = said("post", "roll_move", "character=Anna", "stat=audacity", "dice=[3,3]", "ship=Chaika", "--id", "twice",
                 "-c", "black-sails", "--store", url)
    assert again.endswith('with a different command: ship: recorded nothing, given "Chaika"\n') and "None" not in again


def test_did_you_mean_for_a_command_type_and_a_move(url):
    assert said("post", "take_dmg", "character=Anna", "-c", "black-sails", "--store", url) == (
        "rollbook: command: type: unknown command type 'take_dmg' (see `rollbook schema`); did you mean "
        "`take_damage`?\n")
    assert said("post", "roll_move", "character=Anna", "stat=audacity", "move=threaten_violance", "-c", "black-sails",
                "--store", url) == (
        "rollbook: move: no move named 'threaten_violance' in the book (see `rollbook moves`); did you mean "
        "`threaten_violence`?\n")


def test_three_slashes_are_a_relative_path_and_four_an_absolute_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert said("sheet", "Anna", "-c", "x", "--store", "sqlite:///srv/x.db") == (
        f"rollbook: no store at srv/x.db ({tmp_path / 'srv/x.db'}): three slashes (sqlite:///srv/x.db) make a path "
        "relative to this folder; an absolute path takes four (sqlite:////srv/x.db). `rollbook run`, `rollbook import` "
        "and `rollbook demo` create a store\n")


def test_odds_as_a_player_sees_them_and_a_refused_comparison_said_once(url):
    theirs = said("odds", "roll_move", "character=Bo", "stat=audacity", "--actor", "player:anna", "-c", "black-sails",
                  "--store", url)
    assert theirs == "rollbook: character: player:anna cannot act for 'Bo', who belongs to player:bo\n"
    mine = json.loads(said("odds", "roll_move", "character=Anna", "stat=audacity", "--actor", "player:anna",
                           "-c", "black-sails", "--store", url, "--json", code=0))
    assert mine["fractions"]["miss"]
    table = CliRunner().invoke(app, ["odds", "roll_move", "character=Anna", "stat=audacity", "--compare",
                                     "advantage=true", "-c", "black-sails", "--store", url], env={"COLUMNS": "80"})
    assert table.exit_code == 0, table.output
    header = next(line for line in table.stdout.splitlines() if "outcome" in line)
    assert "with advantage: yes" in header and "=True" not in header
    refused = [line for line in table.stdout.splitlines() if "refused:" in line]
    assert len(refused) == 1 and refused[0].startswith("with advantage: yes: refused: ")
