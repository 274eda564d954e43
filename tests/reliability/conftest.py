"""Fixtures of the reliability tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog
from rollbook.testing.plugin import postgres_schema


@pytest.fixture(scope="module")
def quiet_logs() -> Iterator[None]:
    """In-process runs log nothing (thousands of fuzz cases would print thousands of lines)."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    yield
    structlog.reset_defaults()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes tens of seconds (processes, kills, servers); runs in CI too")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "durable_store" in metafunc.fixturenames:
        metafunc.parametrize("durable_store", ["sqlite", "postgres"], indirect=True)


@pytest.fixture
def durable_store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A store several processes can share: a SQLite file, or a fresh PostgreSQL schema.

    PostgreSQL runs when `--rollbook-stores` names it (as in CI), like the `campaign` fixture.
    """
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.db'}"
        return
    if "postgres" not in request.config.getoption("--rollbook-stores"):
        pytest.skip("postgres is not among --rollbook-stores")
    with postgres_schema() as url:
        yield url
