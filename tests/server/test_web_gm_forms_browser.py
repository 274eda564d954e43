"""The GM's form without JSON in a real browser (Playwright on Debian's chromium, a real `rollbook serve`), at
1280 px and 390 px (issue 45): a heroes GM creates a character with a Power by its rank and another by its full
description (uses ticked, passive, an effect he typed with markup in it), adding a row with "Add another";
the command is stored with both, and the sheet shows them."""

import json

import httpx
import pytest

from .browsing import SIZES, Watched, browser, served_site, shoot  # noqa: F401  (browser: a fixture)
from .test_web_posting_browser import api

pytestmark = pytest.mark.slow
ABILITIES = ("Strength", "Agility", "Stamina", "Intellect", "Perception", "Will")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_gm_describes_a_power_row_by_row_without_json(browser, tmp_path, size):
    with served_site(tmp_path) as site:
        assert api(site, "gm", "POST", "/campaigns/h/commands", json={"type": "create_campaign", "ruleset": "heroes"},
                   headers={"Idempotency-Key": "make-h"})
        watched = Watched(browser, site, "gm", size)
        try:
            page = watched.page
            page.goto("/campaigns/h/post?type=create_character")
            form = page.locator("form#post-fields")
            assert "as JSON" not in form.inner_text()
            form.locator("input[name=name]").fill("Nova")
            for ability in ABILITIES:
                form.locator(f"input[name='abilities.{ability.lower()}']").fill("3")
            powers = form.locator("fieldset", has=page.locator("legend", has_text="Powers"))
            powers.locator("input[name='powers#0:name']").fill("Blast")
            powers.locator("input[name='powers#0:value']").fill("4")
            powers.get_by_role("button", name="Add another").click()
            second = page.locator("input[name='powers#1:name']")
            second.wait_for()
            assert page.locator("input[name='powers#0:name']").input_value() == "Blast"  # kept through the redraw
            second.fill("Shield")
            page.locator("input[name='powers#1:value']").fill("3")
            page.locator("input[name='powers#1.uses~defence']").check()
            page.locator("input[name='powers#1.passive']").check()
            page.locator("input[name='powers#1.effect']").fill("<b>glows</b>")
            shoot(page, site, f"gm-form-power-{size}")
            page.locator("form#post-fields").get_by_role("button", name="Post").click()
            page.locator(".posted").first.wait_for()
            sheet = api(site, "gm", "GET", "/campaigns/h/sheets/Nova")
            assert sheet["powers"] == {"Blast": 4, "Shield": 3}
            base, tokens, _ = site
            exported = httpx.get(f"{base}/campaigns/h/export", headers={"Authorization": f"Bearer {tokens['gm']}"},
                                 timeout=30).text
            created = next(json.loads(line)["command"] for line in exported.splitlines() if '"name": "Nova"' in line)
            assert created["powers"] == {"Blast": 4, "Shield": {"rank": 3, "uses": ["defence"], "lethal": True,
                                                                "passive": True, "effect": "<b>glows</b>", "area": False}}
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= SIZES[size]["width"], f"the form is {width} px wide at {size}"
            assert watched.errors == []
        finally:
            watched.close()
