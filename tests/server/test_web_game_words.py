"""The post page of heroes, implant and gladiators in Russian (issue 49): each game marks its commands', fields'
and once-only limits' words in its narration module, so a Russian page names the commands and asks their fields
in the originals' terms, and an English page still says the identifiers as words."""

import html
import re
from importlib import import_module

import pytest
from rollbook.web.post_form import words

from .conftest import table_on
from .test_web_pages import HTML
from .test_web_posting import HTMX

RUSSIAN = {"Accept-Language": "ru"}
ENGLISH = {"Accept-Language": "en"}
#: For each game, two or three commands of the GM's form and of a player's (a gladiator's player has one).
FORMS = {
    "heroes": {"gm": ("attack", "set_distance", "start_chase"), "player": ("roll_check", "spend_resolve", "help")},
    "implant": {"gm": ("award_benny", "pass_time"), "player": ("attack", "soak", "heal")},
    "gladiators": {"gm": ("create_enemy", "report_standing", "grant_motivation"), "player": ("combat_turn",)},
}
LABEL = re.compile(r"<label for=\"[^\"]*\">([^<]*)|<legend>([^<]*)</legend>|<h2>([^<]*)</h2>")
TYPE_CHOICE = re.compile(r'<select id="type".*?</select>', re.S)
OPTION = re.compile(r"<option value=\"[^\"]*\"[^>]*>([^<]*)</option>")


def said_on(text: str, pattern: re.Pattern) -> set[str]:
    """The words a page says in the places `pattern` finds (labels, legends, the heading; or options)."""
    return {html.unescape(next(group for group in found.groups() if group is not None)).strip()
            for found in pattern.finditer(text)}


def english(game: str) -> set[str]:
    """The game's field and command words as an English page says them ("Luck bonus")."""
    narration = import_module(f"rollbook.domain.rulesets.{game}.narration")
    return {words(word) for word in (*narration.FIELDS, *narration.COMMANDS)}


@pytest.fixture
def site(rollbook_store):
    table = table_on(rollbook_store, posts_per_minute=0)
    with table.client:
        for game in FORMS:
            assert table.post("gm1", {"type": "create_campaign", "ruleset": game}, campaign=game).status_code == 201
            assert table.client.put(f"/campaigns/{game}/members/anna", json={"role": "player"},
                                    headers=table.headers("gm1")).status_code == 200
        yield table


def form(site, user, game, command, language):
    answer = site.client.get(f"/campaigns/{game}/fragments/post-fields", params={"type": command},
                             headers={**site.headers(user), **HTMX, **language})
    assert answer.status_code == 200, answer.text
    return answer.text


def choice_of_commands(site, user, game, language):
    answer = site.client.get(f"/campaigns/{game}/post", headers={**site.headers(user), **HTML, **language})
    assert answer.status_code == 200, answer.text
    return said_on(TYPE_CHOICE.search(answer.text).group(0), OPTION)


def every_form(test):
    """The test of every game's forms, as its GM and as a player see them."""
    return pytest.mark.parametrize("game", sorted(FORMS))(
        pytest.mark.parametrize(("user", "role"), [("gm1", "gm"), ("anna", "player")])(test))


def labels_shown(site, user, game, role, language):
    """Each command the role may post in the game, with the labels its form shows in `language`."""
    for command in FORMS[game][role]:
        yield command, said_on(form(site, user, game, command, language), LABEL)


@every_form
def test_a_russian_form_says_no_english_word_of_the_game(site, game, user, role):
    told = english(game)
    for command, shown in labels_shown(site, user, game, role, RUSSIAN):
        assert words(command) not in shown, (game, command)
        assert shown and shown & told == set(), (game, command, shown & told)
    offered = choice_of_commands(site, user, game, RUSSIAN)
    assert offered and {option.capitalize() for option in offered} & told == set(), (game, role)
    assert {option for option in offered if option.isascii()} == set(), (game, role)


@every_form
def test_an_english_form_says_the_identifiers_as_words(site, game, user, role):
    told = english(game)
    for command, shown in labels_shown(site, user, game, role, ENGLISH):
        assert words(command) in shown, (game, command)
        assert all(label.isascii() for label in shown), (game, command, shown)
    offered = choice_of_commands(site, user, game, ENGLISH)
    assert offered and {option.capitalize() for option in offered} <= told, (game, role)



@pytest.mark.parametrize(("language", "closer", "half"), [
    (RUSSIAN, "Сократить дистанцию", "Половина ранга"), (ENGLISH, "Closer", "Half")])
def test_a_drop_downs_choices_are_said_in_the_pages_language_and_send_the_contracts_value(site, language, closer,
                                                                                           half):
    """L169: «сократить или увеличить дистанцию»; L249: «половину ранга … или пропустить следующий ход»."""
    chase = form(site, "gm1", "heroes", "chase_check", language)
    assert f'<option value="closer">{closer}</option>' in chase
    area = form(site, "gm1", "heroes", "area_attack", language)
    assert f'<option value="half">{half}</option>' in area


def test_a_fields_help_is_said_in_the_pages_language(site):
    """The schema's description of a field, marked for the catalog, in the original's words (L23: «отряд»)."""
    assert "Сколько бойцов в отряде." in form(site, "gm1", "gladiators", "create_enemy", RUSSIAN)
    assert "How many fighters the squad has." in form(site, "gm1", "gladiators", "create_enemy", ENGLISH)
    # A part's own help (its model's __doc__), L10: «навык, соответствующий классу».
    assert "Навык +4 класса, который Мастер назначает по биографии (L10)." in form(
        site, "gm1", "gladiators", "create_character", RUSSIAN)
