"""Fixtures of the reliability tests."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import structlog


@pytest.fixture(scope="module")
def quiet_logs() -> Iterator[None]:
    """In-process runs log nothing (thousands of fuzz cases would print thousands of lines)."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL))
    yield
    structlog.reset_defaults()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes tens of seconds (processes, kills, servers); runs in CI too")
