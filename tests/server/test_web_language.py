"""Who chooses the pages' language (issue 49): the RU / EN switch's cookie, else the browser's Accept-Language
negotiated by Babel, else English; the API's answers stay English whatever the browser asks for."""

import pytest
from rollbook.web.language import COOKIE, negotiated, preferred

from .test_web_pages import HTML, MOVE, page


@pytest.mark.parametrize(("header", "language"), [
    ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"), ("en-US,en;q=0.9,ru;q=0.8", "en"), ("de-DE, ru;q=0.5", "ru"),
    ("fr-FR,fr;q=0.9", "en"), ("", "en"), ("en;q=0.2, ru;q=0.7", "ru"), ("ru;q=0, en", "en"), ("*", "en"),
    ("ru;q=abc, en", "en")])
def test_accept_language_is_negotiated_by_its_weights(header, language):
    assert negotiated(header) == language


def test_the_weights_order_the_tags_the_most_wanted_first():
    assert preferred("en;q=0.2, ru-RU, de;q=0.5") == ["ru-RU", "de", "en"]


def test_a_russian_browser_reads_russian_and_the_switch_wins_over_it(table):
    russian = {**HTML, "Accept-Language": "ru-RU,ru;q=0.9"}
    home = table.client.get("/", headers=russian)
    assert '<html lang="ru">' in home.text and "Войти" in home.text and "Sign in" not in home.text
    switched = table.client.get("/language/en", params={"next": "/campaigns/bs"}, follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/campaigns/bs"
    assert f"{COOKIE}=en" in switched.headers["set-cookie"]
    table.client.cookies.set(COOKIE, "en")
    try:
        assert '<html lang="en">' in table.client.get("/", headers=russian).text
    finally:
        table.client.cookies.delete(COOKIE)


def test_the_switch_goes_back_only_to_a_page_of_this_site_and_keeps_no_language_it_does_not_speak(table):
    away = table.client.get("/language/ru", params={"next": "//evil.example/"}, follow_redirects=False)
    assert away.headers["location"] == "/"
    unknown = table.client.get("/language/xx", follow_redirects=False)
    assert unknown.status_code == 303 and "set-cookie" not in unknown.headers


def test_an_english_page_is_the_same_asked_in_english_or_without_a_language(table):
    plain = page(table, "anna", "/campaigns/bs")
    english = table.client.get("/campaigns/bs", headers={**table.headers("anna"), **HTML, "Accept-Language": "en-GB"})
    assert plain.status_code == english.status_code == 200 and plain.text == english.text
    assert '<html lang="en">' in plain.text


def test_the_api_answers_in_english_to_a_russian_browser(table):
    russian = {**table.headers("anna"), "Accept-Language": "ru"}
    refused = table.client.post("/campaigns/bs/commands", headers=russian,
                                json={**MOVE, "character": "Nobody"})
    assert refused.status_code in (403, 404, 422) and not any("\u0400" <= c <= "\u04ff" for c in refused.text)
    missing = table.client.get("/campaigns/nope/rolls", headers=russian)
    assert missing.status_code == 404 and not any("\u0400" <= c <= "\u04ff" for c in missing.text)


def test_a_refusal_on_a_russian_page_is_said_in_russian(table):
    russian = {**table.headers("anna"), **HTML, "Accept-Language": "ru"}
    missing = table.client.get("/campaigns/nope", headers=russian)
    assert missing.status_code == 404 and "Это нельзя показать" in missing.text
    assert "нет кампании &#39;nope&#39;" in missing.text  # the name as typed, escaped


def test_the_dice_pages_groupings_are_said_in_russian(table):
    assert table.post("anna", {"type": "roll_move", "character": "Anna", "stat": "guile", "dice": [3, 4]}).status_code == 201
    russian = table.client.get("/campaigns/bs/dice", headers={**table.headers("gm1"), **HTML, "Accept-Language": "ru"})
    assert "По признаку: кто бросал" in russian.text and "По признаку: глава" in russian.text
    assert "roller" not in russian.text
