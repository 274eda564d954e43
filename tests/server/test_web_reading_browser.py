"""Reading a long campaign in a real browser (Playwright on Debian's chromium) against a real `rollbook
serve`, at 1280 px and 390 px (issue 37, items 4 and 5): the scrubber's Previous / Next / Now after
stepping back with the keyboard, its words for a screen reader, the cards in the roster's order; the
limits table readable on a phone; the rolls page a page at a time with its filters in the URL, in the
game's words and to the minute; the current revision marked. Each flow runs twice in a row, and no
page shows a console error."""

import re

import httpx
import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, Watched, browser, served_site  # noqa: F401  (browser: a fixture)

pytestmark = pytest.mark.slow
#: The roster, in the order its members joined (testing.serving's base campaign).
ROSTER = ["ship Chaika", "character P0", "character P1"]
#: Rolls of P0, and of P1: more than one page of them, and more than a page of P0's alone.
P0_ROLLS, P1_ROLLS = 55, 10


def long_record() -> list[dict]:
    faces = [[3, 4], [6, 6], [1, 2], [5, 3]]
    lines = [{"type": "roll_move", "character": f"P{n % 2}" if n < 2 * P1_ROLLS else "P0", "stat": "audacity",
              "dice": faces[n % len(faces)]} for n in range(P0_ROLLS + P1_ROLLS)]
    lines.append({"type": "roll_move", "character": "P1", "stat": "guile", "luck_bonus": True, "dice": [2, 3]})
    lines.append({"type": "take_damage", "character": "P0", "harm": 1})
    return [{**line, "campaign": CAMPAIGN, "id": f"long-{n}"} for n, line in enumerate(lines)]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("reading"), record=long_record(), members={"aud": "auditor"}) as site:
        yield site


@pytest.fixture(params=list(SIZES))
def reader(request, browser, site):
    watched = Watched(browser, site, "p0", request.param)
    watched.size = request.param
    yield watched
    assert watched.errors == [], watched.errors
    fits = watched.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    watched.close()
    assert fits, "the page scrolls sideways"


def cards(page):
    return [card.get_attribute("aria-label") for card in page.locator("article.sheet").all()]


def test_the_scrubber_steps_back_and_forth_with_the_cards_in_roster_order(reader):
    page = reader.page
    for _ in range(2):
        page.goto(f"/campaigns/{CAMPAIGN}")
        slider = page.get_by_label("Look at the campaign as it was after step")
        steps = int(slider.get_attribute("max")) + 1
        assert cards(page) == ROSTER
        assert slider.get_attribute("aria-valuetext").startswith(f"step {steps} of {steps},")
        assert page.get_by_role("link", name="Next ▶").count() == 0  # at the end: nothing later
        slider.focus()
        for back in (1, 2):
            slider.press("ArrowLeft")
            page.wait_for_function(f"document.querySelector('.where').textContent.includes('Step {steps - back} of')")
            page.wait_for_function(f"document.querySelector('#step').getAttribute('aria-valuetext')"
                                   f".startsWith('step {steps - back} of {steps},')")
            for name in ("◀ Previous", "Next ▶", "Now"):
                assert page.get_by_role("link", name=name).is_visible(), name
            assert page.get_by_role("link", name="Next ▶").get_attribute("href").endswith(f"step={steps - back}")
            assert cards(page) == ROSTER, "the cards moved between steps"
        page.get_by_role("link", name="Next ▶").click()
        page.wait_for_url(re.compile(rf"step={steps - 2}$"))
        assert f"Step {steps - 1} of {steps}" in page.locator(".where").inner_text()
        assert cards(page) == ROSTER
        page.get_by_role("link", name="Now").click()
        page.wait_for_url(re.compile(rf"/campaigns/{CAMPAIGN}$"))
        assert f"Step {steps} of {steps}" in page.locator(".where").inner_text()


def test_the_limits_table_is_readable_without_scrolling_sideways(reader):
    page = reader.page
    for _ in range(2):
        page.goto(f"/campaigns/{CAMPAIGN}")
        region = page.get_by_role("region", name="Once-only limits")
        assert region.get_attribute("tabindex") == "0"  # reached with the keyboard, and scrolled with it
        box = region.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"] + 0.5
        # Issue 45: at 390 px the rule column no longer hides in a sideways scroller: each limit is a block there.
        assert not region.evaluate("r => r.scrollWidth > r.clientWidth + 1")
        for cell in region.locator("td").all():  # every value, holder, used, left and rule among them, on screen
            edge = cell.bounding_box()
            assert edge["x"] >= box["x"] - 0.5 and edge["x"] + edge["width"] <= box["x"] + box["width"] + 0.5
        table = region.locator("table")
        headers = [h.inner_text() for h in table.locator("th").all()]
        assert headers == ["limit", "counts in", "holder", "used", "left", "rule"]
        rows = [[cell.inner_text() for cell in row.locator("td").all()] for row in table.locator("tbody tr").all()]
        used = next(row for row in rows if row[2] == "P1")
        assert used[0] == "luck roll bonus" and used[1] == f"move long-{P0_ROLLS + P1_ROLLS}"
        assert used[3:5] == ["1", "0"]
        for row in rows:
            assert "_" not in row[0], row
            words = row[1].split()
            assert len(words) < 2 or words[0] != words[1], row  # "story story 1" said the scope twice


def test_the_rolls_page_pages_with_its_filters_in_the_url(reader):
    page = reader.page
    total = P0_ROLLS + P1_ROLLS + 1
    for _ in range(2):
        page.goto(f"/campaigns/{CAMPAIGN}/rolls")
        assert f"{total} of {total}" in page.get_by_role("heading", level=1).inner_text()
        pager = page.get_by_role("navigation", name="Pages of rolls", exact=True)
        assert "Page 1 of 2" in pager.inner_text()
        first = page.locator("li.roll").first
        assert "guile" in first.inner_text()  # the newest first
        assert page.locator("li.roll").count() == 50
        for outcome in page.locator(".outcome").all():
            assert "_" not in outcome.inner_text()
        when = first.locator("time")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00", when.get_attribute("title"))
        assert not re.search(r"\d\d:\d\d:\d\d|T\d", when.inner_text()), "a time shown past the minute"
        page.get_by_label("character").select_option("P0")
        page.get_by_role("button", name="Filter").click()
        page.wait_for_url(re.compile(r"character=P0"))
        assert f"{P0_ROLLS} of {total}" in page.get_by_role("heading", level=1).inner_text()
        page.get_by_role("navigation", name="Pages of rolls", exact=True).get_by_role("link", name="Older ›").click()
        page.wait_for_url(re.compile(r"character=P0.*page=2|page=2.*character=P0"))
        assert "Page 2 of 2" in page.get_by_role("navigation", name="Pages of rolls", exact=True).inner_text()
        assert page.locator("li.roll").count() == P0_ROLLS - 50
        assert page.get_by_label("character").input_value() == "P0"  # the filter shown as it is applied
        assert all("P0" in name for name in page.locator(".roll-head strong").all_inner_texts())


def test_the_revision_list_marks_the_current_revision(browser, site):
    for size in SIZES:
        watched = Watched(browser, site, "aud", size)
        for _ in range(2):
            watched.page.goto(f"/campaigns/{CAMPAIGN}/disputes")
            current = watched.page.locator("#revisions tr[aria-current=true]")
            assert current.count() == 1 and "(current)" in current.inner_text()
            assert current.locator("td").first.inner_text().startswith("1")
        assert watched.errors == [], watched.errors
        watched.close()


def test_the_sheets_page_follows_a_post_unless_stepped_back(reader, site):
    base, tokens, _ = site
    page = reader.page
    for round_ in range(2):
        page.goto(f"/campaigns/{CAMPAIGN}")
        steps = int(page.get_by_label("Look at the campaign as it was after step").get_attribute("max")) + 1
        page.wait_for_timeout(500)  # the live stream connects
        posted(base, tokens, f"live-{reader.size}-{round_}-a")
        page.wait_for_function(
            f"document.querySelector('.where').textContent.includes('Step {steps + 1} of {steps + 1}')", timeout=15_000)
        assert cards(page) == ROSTER
        slider = page.get_by_label("Look at the campaign as it was after step")
        slider.focus()
        slider.press("ArrowLeft")
        page.wait_for_function(f"document.querySelector('.where').textContent.includes('Step {steps} of')")
        posted(base, tokens, f"live-{reader.size}-{round_}-b")
        page.wait_for_timeout(1500)  # the nudge has come and gone
        assert f"Step {steps} of {steps + 1}" in page.locator(".where").inner_text(), "pulled away from the step read"
        page.get_by_role("link", name="Now").click()
        page.wait_for_url(re.compile(rf"/campaigns/{CAMPAIGN}$"))
        assert f"Step {steps + 2} of {steps + 2}" in page.locator(".where").inner_text()


def posted(base, tokens, key):
    """A roll posted by the GM (the last test of the module: the rolls page's test counts the rolls)."""
    answer = httpx.post(f"{base}/campaigns/{CAMPAIGN}/commands", timeout=30,
                        json={"type": "roll_move", "character": "P1", "stat": "foresight", "dice": [4, 4]},
                        headers={"Authorization": f"Bearer {tokens['gm']}", "Idempotency-Key": key})
    assert answer.status_code == 201, answer.text
