"""The post form in a real browser (Playwright on Debian's chromium) against a real `rollbook serve`,
as a player and as the GM, at 1280 px and 390 px: two posts in a row from one page, a refusal beside
its field, a double click posting once, a 403 and a 412 in words, the GM's fields absent for a
player, and no console error on any page. Each flow runs twice in a row on the same page."""

import httpx
import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, Watched, browser, served_site, shoot  # noqa: F401  (browser: a fixture)

pytestmark = pytest.mark.slow
#: Who posts, and for which character.
POSTERS = {"p0": "P0", "gm": "P1"}


@pytest.fixture(scope="module")
def site(tmp_path_factory):  # a second GM, "boss", who changes the others' roles
    with served_site(tmp_path_factory.mktemp("posting"), members={"boss": "gm"}) as site:
        yield site


@pytest.fixture(params=[(user, size) for user in POSTERS for size in SIZES], ids=lambda p: f"{p[0]}-{p[1]}")
def poster(request, browser, site):
    user, size = request.param
    watched = Watched(browser, site, user, size)
    watched.page.goto(f"/campaigns/{CAMPAIGN}/post?type=roll_move")
    watched.size = size
    yield watched, user
    assert watched.errors == [], watched.errors  # no console errors, no failed request
    no_overflow = watched.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    watched.close()
    assert no_overflow, "the post form scrolls sideways"


def api(site, user, method, path, **kwargs):
    base, tokens, _ = site
    answer = httpx.request(method, f"{base}{path}", headers={"Authorization": f"Bearer {tokens[user]}",
                                                             **kwargs.pop("headers", {})}, timeout=30, **kwargs)
    assert answer.status_code < 300, answer.text
    return answer.json()


def rolls(site):
    return len(api(site, "boss", "GET", f"/campaigns/{CAMPAIGN}/rolls"))


def fill_move(page, character, stat="audacity"):
    chosen = page.get_by_label("Character")
    if chosen.input_value() != character:  # choosing another redraws the form with his stats
        with page.expect_response(lambda r: "/fragments/post-fields" in r.url):
            chosen.select_option(character)
        page.wait_for_function(f"document.querySelector('#f-character').value === '{character}'")
    page.get_by_label("Stat").select_option(stat)


def answered(page, role="status"):
    """The answer the last post got (the form is drawn again with it)."""
    found = page.locator("#post-fields").get_by_role(role).first
    found.wait_for()
    return found


def test_two_posts_in_a_row_from_one_page(poster, site):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        before = rolls(site)
        for stat in ("audacity", "guile"):
            key = page.locator("input[name=key]").input_value()
            fill_move(page, POSTERS[user], stat)
            page.get_by_role("button", name="Post").click()
            page.wait_for_function(f"document.querySelector('input[name=key]').value !== '{key}'")
            assert POSTERS[user] in answered(page).inner_text()
            assert page.get_by_role("link", name="See the roll").is_visible()
        assert rolls(site) == before + 2
    shoot(page, site, f"post-{user}-{watched.size}")  # the form with a post's answer in it


def test_a_double_click_posts_once(poster, site):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        before = rolls(site)
        key = page.locator("input[name=key]").input_value()
        fill_move(page, POSTERS[user])
        page.get_by_role("button", name="Post").dblclick()
        page.wait_for_function(f"document.querySelector('input[name=key]').value !== '{key}'")
        answered(page)
        page.wait_for_timeout(300)  # a second request, had there been one, lands meanwhile
        assert rolls(site) == before + 1
        key = page.locator("input[name=key]").input_value()
        page.locator("#post-fields").evaluate("form => { form.requestSubmit(); form.requestSubmit(); }")  # two Enters
        page.wait_for_function(f"document.querySelector('input[name=key]').value !== '{key}'")
        page.wait_for_timeout(300)
        assert rolls(site) == before + 2


def test_a_refusal_is_shown_beside_its_field(poster, site):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        before = rolls(site)
        fill_move(page, POSTERS[user])
        if not page.locator("details.dice-elsewhere").evaluate("d => d.open"):
            page.get_by_text("Dice rolled elsewhere").click()
        page.get_by_label("Faces").fill("3, nine")
        page.get_by_role("button", name="Post").click()
        beside = page.locator(".field.invalid .field-error")
        beside.wait_for()
        assert "whole numbers" in beside.inner_text()
        assert page.get_by_label("Faces").input_value() == "3, nine"  # kept as filled in
        assert page.get_by_label("Faces").get_attribute("aria-invalid") == "true"
        assert rolls(site) == before


def test_a_403_and_a_412_are_told_in_words(poster, site):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        fill_move(page, POSTERS[user])
        page.get_by_label("Only if nothing has been posted since this form was shown").check()
        api(site, "boss", "POST", f"/campaigns/{CAMPAIGN}/commands", headers={"Idempotency-Key": f"meanwhile-{rolls(site)}"},
            json={"type": "roll_move", "character": "P1", "stat": "guile", "dice": [2, 2]})
        page.get_by_role("button", name="Post").click()
        assert "The campaign changed since this form was shown" in answered(page, "alert").inner_text()
        page.get_by_role("button", name="Post").click()  # the form holds the new version now
        answered(page, "status")
        page.get_by_label("Only if nothing has been posted since this form was shown").uncheck()
        api(site, "boss", "PUT", f"/campaigns/{CAMPAIGN}/members/{user}", json={"role": "auditor"})
        try:
            page.get_by_role("button", name="Post").click()
            alert = answered(page, "alert").inner_text()
            assert "Not yours to post" in alert and "auditor" in alert and "ask the GM" in alert
        finally:
            api(site, "boss", "PUT", f"/campaigns/{CAMPAIGN}/members/{user}",
                json={"role": "gm" if user == "gm" else "player"})
        page.get_by_role("button", name="Post").click()
        answered(page, "status")


def test_the_gms_own_fields_are_absent_for_a_player(poster):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        page.goto(f"/campaigns/{CAMPAIGN}/post?type=roll_move")
        assert (page.get_by_label("Disadvantage", exact=True).count() == 1) == (user == "gm")
        assert page.get_by_label("Luck bonus").get_attribute("type") == "checkbox"
        assert "Audacity +2" in page.get_by_label("Stat").inner_text()
        assert "Wriggle Out" in page.get_by_label("Move").inner_text()
        assert not page.locator("details.dice-elsewhere").get_attribute("open")
        assert len(page.locator("#f-salt").input_value()) == 32  # the browser's own randomness


def test_no_console_errors_on_any_page(browser, site):
    for size in SIZES:
        for user in ("gm", "p1"):
            watched = Watched(browser, site, user, size)
            pages = ["/", f"/campaigns/{CAMPAIGN}", f"/campaigns/{CAMPAIGN}/rolls", f"/campaigns/{CAMPAIGN}/dice",
                     f"/campaigns/{CAMPAIGN}/post", "/favicon.ico"]
            for path in pages + ([f"/campaigns/{CAMPAIGN}/disputes"] if user == "gm" else []):
                watched.page.goto(path)
                watched.page.wait_for_load_state("load")
            watched.close()
            assert watched.errors == [], (user, size, watched.errors)


def test_the_focus_goes_to_the_answer_or_to_the_field_a_refusal_names(poster):
    watched, user = poster
    page = watched.page
    for _ in range(2):
        fill_move(page, POSTERS[user])
        page.get_by_role("button", name="Post").focus()
        page.keyboard.press("Enter")
        answered(page)
        page.wait_for_function("document.activeElement.matches('.posted')")
        if not page.locator("details.dice-elsewhere").evaluate("d => d.open"):
            page.get_by_text("Dice rolled elsewhere").click()
        page.get_by_label("Faces").fill("0")
        page.get_by_role("button", name="Post").press("Enter")
        page.wait_for_function("document.activeElement && document.activeElement.id === 'f-dice'")
        page.get_by_label("Faces").fill("")


def test_posting_twice_in_a_row_without_scripts(browser, site):
    base, tokens, _ = site
    for size in SIZES:
        context = browser.new_context(viewport=SIZES[size], base_url=base, java_script_enabled=False)
        page = context.new_page()
        page.goto("/")
        page.get_by_label("Token").fill(tokens["p1"])
        page.get_by_role("button", name="Sign in").click()
        page.goto(f"/campaigns/{CAMPAIGN}/post?type=roll_move")
        before = rolls(site)
        for _ in range(2):
            key = page.locator("input[name=key]").input_value()
            page.get_by_label("Stat").select_option("foresight")
            page.get_by_role("button", name="Post").click()
            page.wait_for_load_state("load")
            assert "P1" in page.locator("#post-fields .posted").inner_text()
            assert page.locator("input[name=key]").input_value() != key
        assert rolls(site) == before + 2
        context.close()
