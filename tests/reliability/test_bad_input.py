"""Property-based fuzzing of command files: every bad line is refused, naming its line and field.

In process, on one base campaign (in memory), through the same `run_file` the CLI uses:
the bad line comes after the base campaign's own lines (already recorded: skipped) and
before a valid one (never reached). After each case the events and the projections must be
exactly as before. The numbers of cases per kind add up to more than 10,000; the test of
each kind checks that hypothesis really ran that many.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.projections.queries import Reader
from rollbook.store import Store

from .badinput import BASE_LINES, STRATEGIES, TEMPLATES, Case

#: Cases per kind: 11 kinds x 950 = 10,450 (ROLLBOOK_FUZZ_CASES for a quicker or a longer run).
CASES = int(os.environ.get("ROLLBOOK_FUZZ_CASES", 950))
MESSAGE_LIMIT = 600


class Base:
    """The base campaign, and what "exactly as before" means for it."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """A fresh base (after a case that wrongly changed it, so the next cases are judged alone)."""
        self.store = Store.open("memory://")
        self.service = Rollbook(self.store)
        self.reader = Reader(self.store)
        report = run_file(self.service, "\n".join(BASE_LINES).encode())
        assert report.error is None, report.error
        self.position = self.reader.catch_up()
        self.views = dict(self.reader.views.docs)  # type: ignore[attr-defined]

    def unchanged(self) -> None:
        assert self.store.app.recorder.max_notification_id() == self.position, "the refused line wrote events"
        assert self.reader.catch_up() == self.position
        assert self.reader.views.docs == self.views, "the refused line changed a projection"  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def base(quiet_logs: None) -> Base:
    found = Base()
    yield found
    found.store.close()


def refuse(base: Base, case: Case) -> None:
    # The base campaign's first line (recorded already: skipped), a blank line, a comment,
    # the bad line, then a valid command that must never be reached.
    after = json.dumps(TEMPLATES[1]).encode()
    raw = b"\n".join([BASE_LINES[0].encode(), b"", b"// the bad line follows", case.line, after])
    bad_line = 4
    report = run_file(base.service, raw)
    error = report.error
    assert error is not None, f"{case.kind}: line was applied: {case.line[:200]!r}"
    message = str(error)
    assert error.line == bad_line and message.startswith(f"line {bad_line}"), message
    assert len(message) < MESSAGE_LIMIT, f"{case.kind}: a message of {len(message)} characters"
    if case.field is not None:
        assert error.field is not None, f"{case.kind}: no field named in {message!r}"
        assert (
            error.field == case.field
            or error.field.startswith(case.field + ".")
            or case.field.startswith(error.field.rstrip("…"))
        ), f"{case.kind}: expected field {case.field!r}, message {message!r}"
        assert f"{error.field}: " in message
    assert report.applied == 0 and len(report.skipped) == 1
    base.unchanged()


@pytest.mark.slow  # hypothesis: many generated bad lines, each run against a fresh store
@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_every_bad_line_is_refused_by_line_and_field_and_changes_nothing(base: Base, kind: str) -> None:
    ran = []

    @settings(
        max_examples=CASES, deadline=None, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
    @given(case=STRATEGIES[kind])
    def case_is_refused(case: Case) -> None:
        ran.append(case)
        try:
            refuse(base, case)
        except BaseException:
            base.store.close()
            base.reset()
            raise

    case_is_refused()
    assert len(ran) >= CASES, f"hypothesis ran only {len(ran)} cases of {kind}"


def test_each_template_alone_is_applied() -> None:
    """The fuzz cases break one thing in a valid command: the templates must be valid."""
    for template in TEMPLATES:
        fresh = Base()
        report = run_file(fresh.service, ("\n".join(BASE_LINES) + "\n" + json.dumps(template)).encode())
        assert report.error is None and report.applied == 1, (template, report.error)
        fresh.store.close()
