"""A move from the sheet in a real browser (Playwright on Debian's chromium) against a real `rollbook serve`,
at 1280 px and 390 px (issue 45): two players and the GM, in three pages open at once, post from the sheet
cards in turn, five moves each, a luck bonus and a help among them; none is refused, and every page shows
every post live. Then the rules' own refusal (luck he no longer has) beside the luck bonus, in words, and
a plain move from the campaign page in two clicks."""

import os
from pathlib import Path

import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, Watched, browser, served_site  # noqa: F401  (browser: a fixture)
from .test_web_posting_browser import api

pytestmark = pytest.mark.slow
#: Each poster's card (whose moves he posts) and five moves, in turn: a book move, or a common move with a
#: choice made (`luck`: his own luck bonus; `help`: his luck for the crewmate's roll just made).
TURNS = {
    "p0": ("P0", ["Wriggle Out", ("Lie Low", "luck"), "Figure It Out", "Move", "Get Along"]),
    "p1": ("P1", ["Cross Anchors", ("Luck", "help"), "Threaten Violence", "Stab in the Back", "Move"]),
    "gm": ("P1", ["Move", "Lie Low", "Wriggle Out", "Figure It Out", "Get Along"]),
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("moves")) as site:
        yield site


def rolls(site):
    return len(api(site, "gm", "GET", f"/campaigns/{CAMPAIGN}/rolls"))


def steps(page):
    """The number of commands the page's sheets show ("Step 12 of 12")."""
    return int(page.locator("#sheets .where").inner_text().split(" of ")[1].split()[0])


def card(page, character):
    """The moves on `character`'s card, opened (the GM's are folded: he acts for every character)."""
    moves = page.locator(f"article[aria-label='character {character}'] details.moves")
    if not moves.evaluate("d => d.open"):
        moves.locator("> summary").click()
    return moves


def post_move(page, character, move, choice=None):
    moves = card(page, character)
    form = moves.locator("form.move-form")
    old_key = form.locator("input[name=key]").input_value() if form.count() else ""
    moves.get_by_role("link", name=move, exact=True).click()
    form = moves.locator("form.move-form")
    form.get_by_role("button", name="Post").wait_for()
    shown = f"#{form.get_attribute('id')} input[name=key]"
    page.wait_for_function(f"document.querySelector('{shown}').value !== '{old_key}'")
    if choice == "luck":
        form.get_by_label("Luck bonus").check()
    elif choice == "help":
        form.get_by_label("Purpose").select_option("help")
        form.get_by_label("Roll").select_option(index=1)  # after "—", the newest roll: the crewmate's, just made
    key = form.locator("input[name=key]").input_value()
    form.get_by_role("button", name="Post").click()
    page.wait_for_function(
        f"[...document.querySelectorAll('form.move-form input[name=key]')].every(k => k.value !== '{key}')")
    return moves.locator("form.move-form")


@pytest.mark.parametrize("size", list(SIZES))
def test_two_players_and_the_gm_post_from_their_cards_in_turn_and_every_page_sees_every_post(browser, tmp_path, size):
    with served_site(tmp_path) as site:  # a table of its own: each size's evening starts with the luck unspent
        an_evening(browser, site, size)


def an_evening(browser, site, size):
    pages = {user: Watched(browser, site, user, size) for user in TURNS}
    try:
        for watched in pages.values():
            watched.page.goto(f"/campaigns/{CAMPAIGN}")
        expected = steps(pages["gm"].page)
        for turn in range(5):
            for user, (character, moves) in TURNS.items():
                page = pages[user].page
                move, choice = moves[turn] if isinstance(moves[turn], tuple) else (moves[turn], None)
                before = rolls(site)
                answer = post_move(page, character, move, choice)
                status = answer.locator(".posted")
                assert status.count() == 1, answer.inner_text()  # applied: no refusal
                assert character in status.inner_text()
                expected += 1
                for watcher in pages.values():  # live on every page, the poster's own sheet included
                    watcher.page.wait_for_function(
                        f"document.querySelector('#sheets .where').innerText.includes(' of {expected} ')")
                assert rolls(site) == before + (0 if choice == "help" else 1)
                # Another's post redrew this page; the answer to its own last post is still there.
                assert answer.locator(".posted").is_visible()
        assert api(site, "gm", "GET", f"/campaigns/{CAMPAIGN}/sheets/P1")["luck"] == 0  # the help was paid
        shoot_card(pages["p0"].page, "P0", site, f"moves-card-{size}")  # the README's: his card, the answer in it
        refusal_beside_the_luck_bonus(pages["p0"].page, site)
        for watched in pages.values():
            assert watched.errors == [], watched.errors
            assert watched.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways"
    finally:
        for watched in pages.values():
            watched.close()


def refusal_beside_the_luck_bonus(page, site):
    """P0 spent his one luck on his first moves: the rules refuse the next luck bonus, beside it, in words."""
    moves = card(page, "P0")
    with page.expect_response(lambda r: "/fragments/post-fields" in r.url):
        moves.get_by_role("link", name="Wriggle Out", exact=True).click()
    form = moves.locator("form.move-form")
    assert "luck held: 0" in form.get_by_label("Luck bonus").evaluate("b => b.labels[0].innerText")
    form.get_by_label("Luck bonus").check()
    before = rolls(site)
    form.get_by_role("button", name="Post").click()
    beside = moves.locator(".field-checkbox.invalid .field-error")
    beside.wait_for()
    assert "P0 has 0 luck and cannot spend 1 for +1 on his own move" in beside.inner_text()
    assert "roll_bonus" not in moves.inner_text() and rolls(site) == before
    assert moves.locator("form.move-form").get_by_label("Luck bonus").is_checked()  # kept as he chose it
    shoot_card(page, "P0", site, f"moves-refused-{page.viewport_size['width']}")


def shoot_card(page, character, site, name):
    """One card, its form open: the full page is too long to read at 390 px."""
    shots = Path(os.environ.get("ROLLBOOK_SCREENSHOTS", site[2]))
    shots.mkdir(parents=True, exist_ok=True)
    page.locator(f"article[aria-label='character {character}']").screenshot(path=str(shots / f"{name}.png"))


@pytest.mark.parametrize("size", list(SIZES))
def test_a_plain_move_takes_two_clicks_from_the_campaign_page(browser, site, size):
    watched = Watched(browser, site, "p0", size)
    page = watched.page
    try:
        page.goto(f"/campaigns/{CAMPAIGN}")
        page.wait_for_load_state("load")
        page.evaluate("window.clicks = 0; document.addEventListener('click', () => window.clicks++, true)")
        before = rolls(site)
        moves = page.locator("article[aria-label='character P0'] details.moves")
        moves.get_by_role("link", name="Wriggle Out", exact=True).click()
        moves.locator("form.move-form").get_by_role("button", name="Post").click()
        answer = moves.locator("form.move-form").locator(".posted")
        answer.wait_for()
        assert "P0" in answer.inner_text() and page.evaluate("window.clicks") == 2
        assert rolls(site) == before + 1
        assert watched.errors == [], watched.errors
    finally:
        watched.close()
