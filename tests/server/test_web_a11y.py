"""Accessibility in a real browser (issue 37, item 7): axe-core (axe-playwright-python) on every page,
as the GM, a player and an auditor, at 1280 px and 390 px, finds no serious or critical violation;
a skip link is the first stop of every page; the focus ring on the dark header reaches 3:1; a roll's
exploded and dropped dice are told in words, not only by their style."""


import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, Watched, browser, served_site  # noqa: F401  (browser: a fixture)

Axe = pytest.importorskip("axe_playwright_python.sync_playwright").Axe
pytestmark = pytest.mark.slow
#: Every page, and who may see it (the others get the page's 403, which is checked too).
PAGES = {
    "/": ("gm", "p0", "aud"),
    f"/campaigns/{CAMPAIGN}": ("gm", "p0", "aud"),
    f"/campaigns/{CAMPAIGN}?step=3": ("gm", "p0"),
    f"/campaigns/{CAMPAIGN}/rolls": ("gm", "p0", "aud"),
    f"/campaigns/{CAMPAIGN}/rolls?character=P0&page=2": ("p0",),
    f"/campaigns/{CAMPAIGN}/dice": ("gm", "p0"),
    f"/campaigns/{CAMPAIGN}/disputes": ("gm", "aud"),
    f"/campaigns/{CAMPAIGN}/post": ("gm", "p0"),
    f"/campaigns/{CAMPAIGN}/post?type=roll_move": ("p0",),
}
SERIOUS = ("serious", "critical")


#: Enough rolls for a second page of them.
MOVES = [{"type": "roll_move", "campaign": CAMPAIGN, "id": f"move-{n}", "character": f"P{n % 2}",
          "stat": "audacity", "dice": [1 + n % 6, 6 - n % 6]} for n in range(120)]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("a11y"), record=MOVES, members={"aud": "auditor"}) as site:
        yield site


def serious(page):
    found = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in found if v["impact"] in SERIOUS]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("user", ["gm", "p0", "aud"])
def test_no_serious_or_critical_violation_on_any_page(browser, site, user, size):
    watched = Watched(browser, site, user, size)
    try:
        for path, users in PAGES.items():
            if user not in users:
                continue
            watched.page.goto(path)
            watched.page.wait_for_load_state("networkidle")
            assert serious(watched.page) == [], path
            # every table fits or scrolls in a region of its own: the page itself never scrolls sideways
            assert watched.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
        assert watched.errors == [], watched.errors
    finally:
        watched.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_move_opened_and_posted_on_a_sheets_card_passes_too(browser, site, size):
    """Issue 45: the moves on a card, the short form a move opens there, and the answer that replaces it."""
    for user in ("p0", "gm"):
        watched = Watched(browser, site, user, size)
        page = watched.page
        try:
            page.goto(f"/campaigns/{CAMPAIGN}")
            moves = page.locator("article[aria-label='character P0'] details.moves")
            if not moves.evaluate("d => d.open"):
                moves.locator("> summary").click()
            moves.get_by_role("link", name="Wriggle Out", exact=True).click()
            moves.locator("form.move-form .odds-now table").wait_for()
            assert serious(page) == [], "the move's form"
            moves.locator("form.move-form").get_by_role("button", name="Post").click()
            moves.locator("form.move-form").locator(".posted").wait_for()
            assert serious(page) == [], "the move's answer"
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert watched.errors == [], watched.errors
        finally:
            watched.close()


def test_the_sign_in_page_and_an_error_page_pass_too(browser, site):
    base, _, _ = site
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], base_url=base)
        page = context.new_page()
        page.goto("/")
        assert serious(page) == []
        context.close()
        watched = Watched(browser, site, "p0", size)
        watched.page.goto(f"/campaigns/{CAMPAIGN}/disputes")  # a player's 403, as a page
        assert "gm or auditor" in watched.page.locator("main").inner_text()
        assert serious(watched.page) == []
        watched.close()


def contrast(first, second):
    def luminance(rgb):
        def channel(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def colour(text):
    return [int(part) for part in text[text.index("(") + 1:text.index(")")].split(",")[:3]]


@pytest.mark.parametrize("size", list(SIZES))
def test_the_skip_link_comes_first_and_the_header_focus_ring_shows(browser, site, size):
    watched = Watched(browser, site, "gm", size)
    page = watched.page
    try:
        for _ in range(2):
            page.goto(f"/campaigns/{CAMPAIGN}")
            page.keyboard.press("Tab")
            skip = page.locator(":focus")
            assert skip.inner_text() == "Skip to the page" and skip.is_visible()
            page.keyboard.press("Tab")  # the header's first link, Rollbook
            focused = page.locator(":focus")
            assert focused.inner_text() == "Rollbook"
            ring = colour(focused.evaluate("e => getComputedStyle(e).outlineColor"))
            header = colour(page.locator("header.top").evaluate("e => getComputedStyle(e).backgroundColor"))
            assert focused.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
            assert contrast(ring, header) >= 3, (ring, header)
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Enter")  # the skip link: on to the page itself
            page.wait_for_function("document.activeElement && document.activeElement.id === 'main'")
        assert watched.errors == [], watched.errors
    finally:
        watched.close()


def test_the_faces_are_told_in_words():
    from rollbook.web.pages import templates

    roll = {"id": "r1", "actor": "gm", "character": "Ed", "purpose": "trait", "session": "chapter 1",
            "proof": {"state": "typed", "words": "typed"}, "notation": "d6+wild", "total": 9,
            "outcome": "raise", "modifiers": [], "changes": [], "source": "typed", "at": "2026-03-02T19:10:00+00:00",
            "dice": [{"sides": 6, "faces": [6, 3], "kept": True}, {"sides": 6, "faces": [2], "kept": False}]}
    body = templates.env.from_string(
        '{% for die in roll.dice %}{% include "_die.html" %}{% endfor %}').render(roll=roll)
    assert "(d6, exploded)" in body and "(d6, dropped)" in body
    assert 'aria-label="faces"' not in templates.env.loader.get_source(templates.env, "rolls.html")[0]
