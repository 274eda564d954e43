"""What the browser tests share: Debian's chromium (a module that imports this is skipped without it,
and fails under CI=true, where .ci/run installs it), the two sizes, a served site, the browser, and a
signed-in page that keeps every console error, page error and failed request it sees."""

from __future__ import annotations

import json
import os
import shutil
from contextlib import contextmanager
from pathlib import Path

import pytest
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.hosting.accounts import Accounts
from rollbook.store import Store
from tests.battle import CAMPAIGN, prepare
from rollbook.testing.serving import serving

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the browser tests need Debian's chromium (.ci/run installs it)")
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")
SIZES = {"wide": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
#: Quiet and alone: no sandbox (a container), no GPU, nothing fetched on its own.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync"]


@contextmanager
def served_site(folder: Path, *, record: list[dict] = (), members: dict[str, str] | None = None):  # type: ignore[assignment]
    """A real `rollbook serve` of testing.serving's campaign, with `record` played into it and `members`
    (user → role) signed up: (its URL, every user's token, the folder)."""
    url = f"sqlite:///{folder / 'site.db'}"
    tokens = prepare(url, players=2)
    store = Store.open(url)
    try:
        if record:
            report = run_file(Rollbook(store), "".join(json.dumps(line) + "\n" for line in record).encode())
            assert report.error is None, report.error
        accounts = Accounts(store)
        for user, role in (members or {}).items():
            tokens[user] = accounts.add(user)
            accounts.grant(CAMPAIGN, user, role, by="test")
    finally:
        store.close()
    with serving(url, folder) as servers:
        yield servers[0].url, tokens, folder


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, once for the module."""
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A signed-in page that keeps every console error, page error and failed request it sees."""

    def __init__(self, browser, site, user, size):
        base, tokens, _ = site
        self.context = browser.new_context(viewport=SIZES[size], base_url=base)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"))
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on("response", lambda r: r.status >= 400 and self.errors.append(f"{r.status} {r.url}"))
        self.page.goto("/")
        self.page.get_by_label("Token").fill(tokens[user])
        self.page.get_by_role("button", name="Sign in").click()
        self.page.wait_for_url(f"{base}/")

    def close(self):
        self.context.close()


def shoot(page, site, name):
    shots = Path(os.environ.get("ROLLBOOK_SCREENSHOTS", site[2]))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
