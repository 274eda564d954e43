"""The roll page's "Copy for the forum", in a real browser (Playwright on Debian's chromium) against a real
`rollbook serve`: open it under a roll, see the lines in each format, copy the BBCode to the clipboard;
twice in a row, at 1280 px and at 390 px (a phone), with screenshots."""

import os
from pathlib import Path

import httpx
import pytest

from tests.battle import CAMPAIGN, prepare
from rollbook.testing.serving import serving
# The browser tests' chromium (skipped, or failed under CI, where it is missing), their sizes and their browser.
from tests.server.browsing import SIZES, browser  # noqa: F401 - `browser` is a fixture

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("copy")
    url = f"sqlite:///{folder / 'copy.db'}"
    tokens = prepare(url, players=1)
    with serving(url, folder, env={"ROLLBOOK_PUBLIC_URL": "https://rollbook.example.org"}) as servers:
        base = servers[0].url
        answer = httpx.post(f"{base}/campaigns/{CAMPAIGN}/commands", timeout=30,
                            json={"type": "roll_move", "character": "P0", "stat": "guile", "salt": "forum post 3"},
                            headers={"Authorization": f"Bearer {tokens['p0']}", "Idempotency-Key": "p0-roll"})
        assert answer.status_code == 201, answer.text
        yield base, tokens, folder


@pytest.mark.parametrize("size", SIZES)
def test_copy_a_rolls_lines_for_the_forum(browser, site, size):
    base, tokens, folder = site
    for attempt in range(2):  # the whole flow, twice in a row
        context = browser.new_context(viewport=SIZES[size], base_url=base)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
        page = context.new_page()
        page.goto("/")
        page.get_by_label("Token").fill(tokens["p0"])
        page.get_by_role("button", name="Sign in").click()
        page.wait_for_url(f"{base}/")
        page.goto(f"/campaigns/{CAMPAIGN}/rolls")
        roll = page.locator("#roll-p0-roll")
        roll.get_by_text("Copy for the forum").click()
        bbcode = roll.get_by_label("BBCode (phpBB, MyBB)")
        bbcode.wait_for()
        text = bbcode.input_value()
        assert text.startswith("[b]P0 — Guile") and 'salt "forum post 3"' in text
        assert "[url=https://rollbook.example.org/campaigns/black-sails/rolls#roll-p0-roll]proof[/url]" in text
        assert roll.get_by_label("Markdown (Discourse)").input_value().startswith("**P0 — Guile")
        roll.get_by_role("button", name="Copy bbcode").click()
        roll.get_by_role("status").filter(has_text="copied").wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == text
        assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size]["width"]  # nothing overflows
        page.screenshot(path=str(Path(os.environ.get("ROLLBOOK_SCREENSHOTS", folder)) / f"copy-{size}-{attempt}.png"),
                        full_page=True)
        context.close()
