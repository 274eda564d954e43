"""The pages in a real browser (Playwright on Debian's chromium) against a real `rollbook serve`:
sign in, scrub to a past sheet with the keyboard, see a player's post land on a second open page,
an auditor's dry run and ruling, the dice page; screenshots at 1280 px and 390 px (a phone)."""

import httpx
import pytest
from tests.battle import CAMPAIGN

from .browsing import SIZES, browser, served_site, shoot  # noqa: F401  (browser: a fixture)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("site"), members={"aud": "auditor"}) as site:
        yield site


def signed_in(browser, site, user, size="wide"):
    base, tokens, _ = site
    page = browser.new_context(viewport=SIZES[size], base_url=base).new_page()
    page.goto("/")
    page.get_by_label("Token").fill(tokens[user])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")
    return page


def api_post(site, user, key, body):
    base, tokens, _ = site
    answer = httpx.post(f"{base}/campaigns/{CAMPAIGN}/commands", json=body, timeout=30,
                        headers={"Authorization": f"Bearer {tokens[user]}", "Idempotency-Key": key})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_sign_in_and_see_ones_campaigns(browser, site):
    page = signed_in(browser, site, "p0")
    assert page.get_by_role("link", name="Black Sails").is_visible()
    page.get_by_role("link", name="Black Sails").click()
    assert page.get_by_role("article", name="character P0").is_visible()
    for size in SIZES:
        shoot(signed_in(browser, site, "gm", size), site, f"home-{size}")


def test_scrub_back_with_the_keyboard_and_see_the_old_sheet(browser, site):
    api_post(site, "gm", "hurt-p0", {"type": "take_damage", "character": "P0", "harm": 1})
    page = signed_in(browser, site, "gm")
    page.goto(f"/campaigns/{CAMPAIGN}")
    sheet = page.get_by_role("article", name="character P0")
    now = sheet.inner_text()
    slider = page.get_by_label("Look at the campaign as it was after step")
    slider.focus()
    slider.press("ArrowLeft")
    page.wait_for_function("document.querySelector('.where').textContent.includes('Step')"
                           " && !document.querySelector('.where').textContent.includes('Step ' + "
                           "(+document.querySelector('#step').max + 1) + ' of')")
    assert page.get_by_role("article", name="character P0").inner_text() != now
    for size in SIZES:
        wide = signed_in(browser, site, "gm", size)
        wide.goto(f"/campaigns/{CAMPAIGN}?step=3")
        shoot(wide, site, f"campaign-{size}")


def test_a_post_appears_on_a_second_open_page_without_reloading(browser, site):
    watching = signed_in(browser, site, "p1")
    watching.goto(f"/campaigns/{CAMPAIGN}/rolls?character=P0")
    watching.wait_for_timeout(500)  # the live stream connects
    assert watching.locator(".roll", has_text="move: audacity").count() == 0
    poster = signed_in(browser, site, "p0")
    poster.goto(f"/campaigns/{CAMPAIGN}/post?type=roll_move")
    poster.get_by_label("Character").select_option("P0")
    poster.get_by_label("Stat").select_option("audacity")
    poster.get_by_role("button", name="Show the odds").click()
    poster.get_by_role("table", name="Chance of each outcome").wait_for()
    assert "full success" in poster.get_by_role("table", name="Chance of each outcome").inner_text()
    poster.get_by_role("button", name="Post").click()
    poster.locator(".posted").wait_for()
    assert "P0" in poster.locator(".posted").inner_text()
    watching.locator(".roll", has_text="move: audacity").first.wait_for(timeout=15_000)
    shoot(poster, site, "post-wide")


def test_an_auditor_dry_runs_and_applies_a_ruling(browser, site):
    api_post(site, "p0", "to-dispute", {"type": "roll_move", "character": "P0", "stat": "guile", "dice": [1, 1]})
    page = signed_in(browser, site, "aud")
    page.goto(f"/campaigns/{CAMPAIGN}/disputes")
    page.get_by_label("Roll", exact=True).select_option("to-dispute")
    page.get_by_label("these faces instead:").check()
    page.get_by_label("faces (in the documented dice order)").fill("6, 6")
    page.get_by_label("Reason").fill("the forum roller misfired")
    page.get_by_role("button", name="Dry run").click()
    page.get_by_text("Dry run: revision").wait_for()
    page.get_by_role("button", name="Apply the ruling").click()
    page.get_by_text("Applied: revision 2").wait_for()
    assert page.get_by_role("cell", name="the forum roller misfired", exact=False).is_visible()
    shoot(page, site, "disputes-wide")
    rolls = httpx.get(f"{site[0]}/campaigns/{CAMPAIGN}/rolls", headers={"Authorization": f"Bearer {site[1]['aud']}"})
    assert [r for r in rolls.json() if r["id"] == "to-dispute"][0]["faces"] == [6, 6]


def test_the_dice_page_draws_a_histogram_per_roller(browser, site):
    for size in SIZES:
        page = signed_in(browser, site, "gm", size)
        page.goto(f"/campaigns/{CAMPAIGN}/dice")
        assert page.locator("svg.histogram").count() >= 1
        assert page.get_by_role("heading", name="Dice statistics").is_visible()
        shoot(page, site, f"dice-{size}")
