"""A campaign's page in the browser UI against the JSON read of the same data, in one process.

The page (`GET /campaigns/{c}`, as a browser asks it) reads the sheets, the limits and the
timeline at the campaign's latest step, and the sheets at the step before it to mark what
changed, then renders the templates. The baseline reads the same sheets, limits and timeline
as the JSON API would answer them, without the previous step and without templates.
"""

from __future__ import annotations

import time
from typing import Any

from .generate import Campaign
from .sampling import Bench, scale_of, side_by_side
from .stores import StoreRef
from .targets import Row


#: The campaign size the page's target is stated at (issue 21).
STATED = 10_000


def measure_page(bench: Bench, ref: StoreRef, campaign: Campaign) -> None:
    from fastapi.testclient import TestClient

    from rollbook.replay.timetravel import view_for
    from rollbook.bootstrap import create_app
    from rollbook.hosting.answers import jsonable

    client = TestClient(create_app(ref.url, posts_per_minute=0))
    state = client.app.state.rollbook  # type: ignore[attr-defined]
    token = state.accounts.add("bench-gm")  # the server holds no process-wide lock: accounts live in the store
    state.accounts.grant(campaign.campaign, "bench-gm", "gm", by="bench")
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/html"}

    def page(_: int) -> float:
        started = time.perf_counter()
        answer = client.get(f"/campaigns/{campaign.campaign}", headers=headers)
        elapsed = time.perf_counter() - started
        assert answer.status_code == 200, answer.text[:300]
        return elapsed

    def json_read(_: int) -> float:
        started = time.perf_counter()
        seen = view_for(state.caught_up(), campaign.campaign)  # what a read route does: the projections caught up
        data: Any = jsonable({"sheets": seen.sheets(), "limits": seen.limits(), "timeline": seen.timeline()})
        elapsed = time.perf_counter() - started
        assert data["sheets"]
        return elapsed

    with client:
        page(0)
        samples = max(bench.runs, 10)
        bench.say(f"  [{ref.kind}] campaign page x{samples}")
        ours, theirs = side_by_side(samples, page, json_read)
    bench.add(Row(
        "page", ref.kind, campaign.ruleset, scale_of(len(campaign.commands)),
        "`GET /campaigns/{c}` page (HTML, sheets + scrubber + limits), in process", "s", ours,
        baseline="the same sheets, limits and timeline as JSON", baseline_values=theirs,
        ratios=[o / t for o, t in zip(ours, theirs, strict=True)],
        note="" if len(campaign.commands) == STATED else f"target is stated at {scale_of(STATED)}",
    ))
