"""A Russian evening in a real browser (issue 49), at 1280 px and 390 px: a player signs in with the switch set
to RU (and once with a Russian browser, by its Accept-Language alone), posts a move from his sheet's card,
is refused the luck he no longer has beside the luck bonus, in Russian, and reads the rolls page; every page
says `<html lang="ru">`, has the Russian words the catalog gives it and none of a list of the pages' English
words, and axe finds no serious or critical violation on it. An English browser still reads English."""

import os
import re
from pathlib import Path

import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, browser, served_site, shoot  # noqa: F401  (browser: a fixture)
from .test_web_moves_browser import rolls
from .test_web_a11y import serious

pytestmark = pytest.mark.slow
#: The pages' own English words (menus, headings, buttons, labels, badges): none is left on a Russian page.
ENGLISH = ("Sign in", "Sign out", "Token", "Sheets", "Rolls", "Dice", "Post", "Your campaigns", "commands",
           "Once-only limits", "Moves of", "Common moves", "Step", "at position", "No commands yet", "Timeline",
           "Previous", "Next", "Now", "Filter", "all", "Copy for the forum", "Faces", "pending", "verified",
           "typed", "Page", "Newest", "Older", "nonce", "Refused", "Change what the message names",
           "The message is shown beside the field", "More: dice rolled elsewhere", "Salt",
           "Only if nothing has been posted", "Show the odds", "luck held", "Luck bonus", "Wriggle Out",
           "See the roll", "The line in Markdown", "command", "required", "exact", "estimated by simulation",
           "outcome", "chance", "limit", "holder", "used", "left", "counts in", "Skip to the page", "character",
           "has 0 luck", "cannot spend")
ENGLISH_WORDS = re.compile(r"\b(?:" + "|".join(re.escape(word) for word in ENGLISH) + r")\b")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("russian")) as site:
        yield site


def screenshots(site):
    """Where the browser tests put their screenshots (browsing.shoot's place)."""
    shots = Path(os.environ.get("ROLLBOOK_SCREENSHOTS", site[2]))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def english_left(page):
    """The pages' English words still on the page: its text, and what it says to a screen reader."""
    said = page.evaluate("""() => [document.title, document.body.innerText,
        ...[...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')),
        ...[...document.querySelectorAll('[title]')].map(e => e.getAttribute('title'))].join('\\n')""")
    return sorted(set(ENGLISH_WORDS.findall(said)))


def read_in_russian(page, *words):
    """The page is Russian: its language, the Russian words expected on it, no English word of the pages left,
    no serious or critical axe violation."""
    page.wait_for_load_state("networkidle")
    assert page.locator("html").get_attribute("lang") == "ru"
    text = page.locator("body").inner_text().casefold()  # as shown: a heading may be in capitals
    assert [word for word in words if word.casefold() not in text] == [], text
    assert english_left(page) == []
    assert serious(page) == [], page.url


def signed_in(browser, site, size, *, locale=None, switch=False):
    """A browser signed in as p0: by the RU switch on the sign-in page, or with a Russian browser (locale)."""
    base, tokens, _ = site
    context = browser.new_context(viewport=SIZES[size], base_url=base, **({"locale": locale} if locale else {}))
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
    page.goto("/")
    if switch:
        assert page.locator("html").get_attribute("lang") == "en"
        page.get_by_role("link", name="RU", exact=True).click()
    read_in_russian(page, "Войти", "Токен")
    page.get_by_label("Токен").fill(tokens["p0"])
    page.get_by_role("button", name="Войти").click()
    page.wait_for_url(f"{base}/")
    read_in_russian(page, "Ваши кампании", "Выйти")
    return context, page, errors


@pytest.mark.parametrize("size", list(SIZES))
def test_a_russian_evening_reads_russian_from_sign_in_to_the_rolls(browser, tmp_path, size):
    with served_site(tmp_path) as site:  # a table of its own: P0's one luck unspent
        context, page, errors = signed_in(browser, site, size, switch=True)
        try:
            page.goto(f"/campaigns/{CAMPAIGN}")
            read_in_russian(page, "Листы", "Броски", "Кубики", "Разовые ограничения", "Ходы: P0", "Общие ходы",
                            "Выкрутиться")
            moves = page.locator("article[aria-label='персонаж P0'] details.moves")
            before = rolls(site)
            with page.expect_response(lambda r: "/fragments/post-fields" in r.url):
                moves.get_by_role("link", name="Выкрутиться", exact=True).click()
            form = moves.locator("form.move-form")
            bonus = form.get_by_label(re.compile(r"^\+1 к проверке за фарт"))
            assert bonus.evaluate("b => b.labels[0].innerText") == "+1 к проверке за фарт (сейчас фарт: 1)"
            bonus.check()
            form.get_by_role("button", name="Отправить").click()
            posted = moves.locator("form.move-form .posted")
            posted.wait_for()
            assert "Выкрутиться" in posted.inner_text() and rolls(site) == before + 1
            read_in_russian(page, "Посмотреть бросок", "Строка в Markdown и BBCode")

            # The rules refuse the luck he has spent: beside the luck bonus, in the original's words.
            with page.expect_response(lambda r: "/fragments/post-fields" in r.url):
                moves.get_by_role("link", name="Выкрутиться", exact=True).click()
            form = moves.locator("form.move-form")
            form.get_by_label(re.compile(r"^\+1 к проверке за фарт")).check()
            form.get_by_role("button", name="Отправить").click()
            beside = moves.locator(".field-checkbox.invalid .field-error")
            beside.wait_for()
            assert "у P0 0 пунктов фарта, потратить 1 на +1 к своему ходу (L45) нельзя" in beside.inner_text()
            refused = moves.locator(".refused").inner_text()
            assert "Отказано" in refused and "+1 к проверке за фарт (сейчас фарт: 0):" in refused, refused
            assert "Сообщение показано рядом с полем." in refused and rolls(site) == before + 1
            read_in_russian(page, "Отказано")
            # One card, its form open, the refusal beside the luck bonus: the full page is too long at 390 px.
            card = page.locator("article[aria-label='персонаж P0']")
            card.screenshot(path=str(screenshots(site) / f"russian-refused-{size}.png"))

            page.goto(f"/campaigns/{CAMPAIGN}/rolls")
            read_in_russian(page, "Броски", "Скопировать для форума", "Грани:", "ждёт", "все", "Отобрать")
            shoot(page, site, f"russian-rolls-{size}")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways"
            assert errors == [], errors
        finally:
            context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_russian_browser_reads_russian_without_the_switch_and_an_english_one_english(browser, site, size):
    context, page, errors = signed_in(browser, site, size, locale="ru-RU")
    try:
        page.goto(f"/campaigns/{CAMPAIGN}/dice")
        read_in_russian(page, "Статистика кубиков")
        page.get_by_role("link", name="EN", exact=True).click()  # the switch wins over the browser's language
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == "en"
        assert "Dice statistics" in page.locator("body").inner_text()
        assert errors == [], errors
    finally:
        context.close()
    english = browser.new_context(viewport=SIZES[size], base_url=site[0], locale="en-GB")
    try:
        page = english.new_page()
        page.goto("/")
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.get_by_role("button", name="Sign in").is_visible()
    finally:
        english.close()
