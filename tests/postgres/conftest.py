"""A fresh PostgreSQL schema per test, when `--rollbook-stores` names postgres (as `.ci/run` does)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rollbook.testing.plugin import postgres_schema


@pytest.fixture
def pg_store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if "postgres" not in request.config.getoption("--rollbook-stores"):
        pytest.skip("postgres is not among --rollbook-stores")
    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    with postgres_schema() as url:
        yield url


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes tens of seconds (processes, kills, servers); runs in CI too")
