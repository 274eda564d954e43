"""Issue 46, 2: the pages show a player's text as written, in a real browser (Playwright on Debian's chromium,
against a real `rollbook serve`): names, a salt and a ruling's reason made of HTML, Markdown and BBCode make no
element, link or script of their own on any page (Jinja's autoescape is the pages' one escaping), and each is
read on the page as it was typed."""

import httpx
import pytest
from tests.battle import CAMPAIGN

from .browsing import Watched, browser, served_site  # noqa: F401  (browser: a fixture)

pytestmark = pytest.mark.slow
#: Names a player may choose (one script, printable), each an attack in some format.
NAMES = ["<img src=x onerror=alert(1)>", '<a href="javascript:alert(2)">x</a>', "**Bo**[x](http://evil.org)",
         "[url=http://evil.org]y[/url] <@&123>"]
SALT = "x` [click](javascript:alert(3)) <b>y</b> `z"
REASON = "<script>alert(4)</script> [z](http://evil.org)"
STATS = {"audacity": 1, "guile": 1, "foresight": 0, "reputation": 0}


def record() -> list[dict]:
    lines = [{"type": "create_character", "name": name, "player": "p0", "stats": STATS, "luck": 1} for name in NAMES]
    # A salt is used once per seed (issue 44): each roll's is the hostile one and its number.
    lines += [{"type": "roll_move", "id": f"hostile-{n}", "character": name, "stat": "guile", "salt": f"{SALT} {n}",
               "actor": "player:p0"} for n, name in enumerate(NAMES)]
    lines.append({"type": "roll_move", "id": "typed", "character": NAMES[0], "stat": "audacity", "dice": [1, 1]})
    return [{**line, "campaign": CAMPAIGN} for line in lines]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with served_site(tmp_path_factory.mktemp("hostile"), record=record()) as site:
        base, tokens, _ = site
        gm = {"Authorization": f"Bearer {tokens['gm']}", "Idempotency-Key": "ruling-1"}
        ruled = httpx.post(f"{base}/campaigns/{CAMPAIGN}/disputes", headers=gm,
                           json={"roll": "typed", "reason": REASON, "drop": True})
        assert ruled.status_code == 201, ruled.text
        yield site


PAGES = ["/", f"/campaigns/{CAMPAIGN}", f"/campaigns/{CAMPAIGN}/rolls.html", f"/campaigns/{CAMPAIGN}/dice",
         f"/campaigns/{CAMPAIGN}/disputes", f"/campaigns/{CAMPAIGN}/post"]
#: What the page itself may not hold, whatever it shows: an element or a link a player's text made.
MADE = """() => ({
  images: document.querySelectorAll('img').length,
  bold: [...document.querySelectorAll('b')].map(b => b.textContent),
  handlers: [...document.querySelectorAll('*')]
              .filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
  links: [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'))
           .filter(h => h.startsWith('javascript:') || new URL(h, location.href).origin !== location.origin),
  scripts: [...document.querySelectorAll('script')].filter(s => s.textContent.includes('alert')).length,
})"""


@pytest.mark.parametrize("user", ["gm", "p0"])
def test_no_page_makes_markup_of_a_players_text(browser, site, user):  # noqa: F811
    watched = Watched(browser, site, user, "wide")
    alerts = []
    watched.page.on("dialog", lambda dialog: (alerts.append(dialog.message), dialog.dismiss()))
    try:
        shown = ""
        for path in PAGES if user == "gm" else [p for p in PAGES if not p.endswith("/disputes")]:  # the GM's
            watched.page.goto(path)
            assert watched.page.evaluate(MADE) == {"images": 0, "bold": [], "handlers": 0, "links": [],
                                                   "scripts": 0}, path
            shown += watched.page.inner_text("body")
        for text in [*NAMES, SALT]:
            assert text in shown, text
        if user == "gm":
            assert REASON in shown
        assert alerts == [] and watched.errors == [], (alerts, watched.errors)
    finally:
        watched.close()
