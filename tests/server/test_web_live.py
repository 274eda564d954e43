"""Live pages hold no thread each (issue 37, item 3): with 200 live page streams open on one real
`rollbook serve`, a post and the plain GETs still answer, and every open page hears the post. The
latencies are printed (p50, p99), not asserted: the machine running the tests is shared."""

import asyncio
import statistics
import time

import httpx
import pytest
from tests.battle import CAMPAIGN, prepare
from rollbook.testing.serving import serving

pytestmark = pytest.mark.slow
#: Live pages open at once, and how many are being opened at any moment (the client's bound).
PAGES, OPENING = 200, 25
#: Posts and GETs asked while the pages are open, a few at a time.
ASKED, ASKING = 40, 4
#: Seconds any one answer may take: far above what it takes, far below the 8 s that timed out before.
GIVE_UP = 20.0


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{folder / 'site.db'}"
    tokens = prepare(url, players=2)
    with serving(url, folder) as servers:
        yield servers[0].url, tokens


def p99(times):
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class Page:
    """One open live page stream, counting the `changed` events it has been sent."""

    def __init__(self) -> None:
        self.opened = asyncio.Event()
        self.changes = 0
        self.changed = asyncio.Event()

    async def watch(self, client: httpx.AsyncClient, token: str, gate: asyncio.Semaphore) -> None:
        async with gate:
            stream = client.stream("GET", f"/campaigns/{CAMPAIGN}/live", headers={"Authorization": f"Bearer {token}"})
            answer = await stream.__aenter__()
        try:
            assert answer.status_code == 200, answer.status_code
            assert answer.headers["content-type"].startswith("text/event-stream")
            self.opened.set()
            async for line in answer.aiter_lines():
                if line == "event: changed":
                    self.changes += 1
                    self.changed.set()
        finally:
            await stream.__aexit__(None, None, None)


async def timed(ask) -> float:
    started = time.perf_counter()
    answer = await ask()
    assert answer.status_code < 300, answer.text
    return time.perf_counter() - started


async def under_load(base: str, tokens: dict[str, str]) -> dict[str, list[float]]:
    limits = httpx.Limits(max_connections=PAGES + 2 * ASKING, max_keepalive_connections=PAGES + 2 * ASKING)
    timeout = httpx.Timeout(GIVE_UP, read=None)  # a live stream waits as long as nothing happens
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        gate = asyncio.Semaphore(OPENING)
        pages = [Page() for _ in range(PAGES)]
        watching = [asyncio.create_task(page.watch(client, tokens[f"p{n % 2}"], gate)) for n, page in enumerate(pages)]
        try:
            started = time.perf_counter()
            await asyncio.wait_for(asyncio.gather(*(page.opened.wait() for page in pages)), GIVE_UP * 3)
            opening = time.perf_counter() - started
            times: dict[str, list[float]] = {"open_all": [opening], "post": [], "get_campaigns": [], "get_page": []}
            asking = asyncio.Semaphore(ASKING)
            gm = {"Authorization": f"Bearer {tokens['gm']}"}

            async def one(n: int) -> None:
                async with asking:
                    times["post"].append(await asyncio.wait_for(timed(lambda: client.post(
                        f"/campaigns/{CAMPAIGN}/commands", headers={**gm, "Idempotency-Key": f"live-{n}"},
                        json={"type": "roll_move", "character": "P0", "stat": "audacity", "dice": [3, 4]})), GIVE_UP))
                    times["get_campaigns"].append(await asyncio.wait_for(timed(
                        lambda: client.get("/campaigns", headers=gm)), GIVE_UP))
                    times["get_page"].append(await asyncio.wait_for(timed(lambda: client.get(
                        f"/campaigns/{CAMPAIGN}", headers={**gm, "Accept": "text/html"})), GIVE_UP))

            await asyncio.gather(*(one(n) for n in range(ASKED)))
            # Every page open all along hears the posts (it may fold several into one nudge).
            await asyncio.wait_for(asyncio.gather(*(page.changed.wait() for page in pages)), GIVE_UP)
            assert all(not task.done() for task in watching), "a live stream ended"
            return times
        finally:
            for task in watching:
                task.cancel()
            await asyncio.gather(*watching, return_exceptions=True)


def test_two_hundred_live_pages_leave_posts_and_gets_answering(site):
    base, tokens = site
    times = asyncio.run(under_load(base, tokens))
    assert len(times["post"]) == len(times["get_campaigns"]) == len(times["get_page"]) == ASKED
    print(f"\n{PAGES} live pages open in {times['open_all'][0]:.2f} s; with them open, {ASKED} of each:")
    for name in ("post", "get_campaigns", "get_page"):
        print(f"  {name}: p50 {1000 * statistics.median(times[name]):.0f} ms, p99 {1000 * p99(times[name]):.0f} ms")


async def first_change_after_a_post(base: str, tokens: dict[str, str]) -> list[str]:
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(GIVE_UP, read=None)) as client:
        async with client.stream("GET", f"/campaigns/{CAMPAIGN}/live",
                                 headers={"Authorization": f"Bearer {tokens['p1']}"}) as answer:
            assert answer.status_code == 200
            posted = await client.post(f"/campaigns/{CAMPAIGN}/commands", json={
                "type": "roll_move", "character": "P1", "stat": "guile", "dice": [6, 6]},
                headers={"Authorization": f"Bearer {tokens['p1']}", "Idempotency-Key": "live-one"})
            assert posted.status_code == 201, posted.text
            lines: list[str] = []

            async def until_changed() -> None:
                async for line in answer.aiter_lines():
                    lines.append(line)
                    if line.startswith("data:") and lines[-2:-1] == ["event: changed"]:
                        return

            await asyncio.wait_for(until_changed(), GIVE_UP)
            return lines


def test_a_live_page_hears_a_post(site):
    base, tokens = site
    lines = asyncio.run(first_change_after_a_post(base, tokens))
    assert lines[-2] == "event: changed"
    assert '"commands":' in lines[-1] and '"revision_key":' in lines[-1]


def test_a_stranger_gets_no_stream(site):
    base, _ = site
    answer = httpx.get(f"{base}/campaigns/{CAMPAIGN}/live", headers={"Authorization": "Bearer not-a-token"},
                       timeout=GIVE_UP, follow_redirects=False)
    assert answer.status_code in (303, 401), answer.status_code
    assert not answer.headers.get("content-type", "").startswith("text/event-stream")
