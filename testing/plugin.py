"""The Rollbook pytest plugin, registered through the `pytest11` entry point.

Fixture `campaign`: a `CampaignUnderTest` on each store named by `--rollbook-stores`
(comma-separated: memory, sqlite, postgres; default `$ROLLBOOK_TEST_STORES` or `memory`).
The same given/when/then then runs against every backend. PostgreSQL tests use
`$ROLLBOOK_TEST_POSTGRES` (default postgresql://postgres@127.0.0.1:5432/test), one schema
per test; without a server they are skipped with the reason — unless `CI=true`, where a
missing PostgreSQL is a failure.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ..settings import current
from .kit import CampaignUnderTest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("rollbook")
    group.addoption(
        "--rollbook-stores",
        default=current().test_stores,
        help="Stores the `campaign` fixture runs on: memory,sqlite,postgres.",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "rollbook_store" in metafunc.fixturenames:
        stores = [s.strip() for s in metafunc.config.getoption("--rollbook-stores").split(",") if s.strip()]
        metafunc.parametrize("rollbook_store", stores, indirect=True)


def postgres_url() -> str:
    return current().test_postgres


def postgres_available(url: str | None = None) -> str | None:
    """None if PostgreSQL answers at `url`, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    from urllib.parse import urlparse

    parsed = urlparse(url or postgres_url())
    try:
        with psycopg.connect(
            host=parsed.hostname, port=parsed.port or 5432, user=parsed.username or "postgres",
            dbname=parsed.path.lstrip("/") or "postgres", connect_timeout=3,
        ):
            return None
    except Exception as error:
        return f"no PostgreSQL at {url or postgres_url()}: {error}".strip()


@contextmanager
def postgres_schema() -> Iterator[str]:
    """A store URL on a fresh schema of the test PostgreSQL, dropped afterwards.

    Skipped with the reason when no server answers; under CI=true that is a failure instead.
    """
    reason = postgres_available()
    if reason is not None:
        if current().ci:
            pytest.fail(f"PostgreSQL is required in CI: {reason}")
        pytest.skip(reason)
    import psycopg

    schema = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres_url().split("?")[0], autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{postgres_url()}?schema={schema}"
    finally:
        with psycopg.connect(postgres_url().split("?")[0], autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def rollbook_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A store URL of the kind the test is parametrised with; fresh for each test."""
    kind = getattr(request, "param", "memory")
    if kind == "memory":
        yield "memory://"
    elif kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'rollbook.db'}"
    elif kind == "postgres":
        with postgres_schema() as url:
            yield url
    else:
        raise pytest.UsageError(f"unknown rollbook store {kind!r} (memory, sqlite, postgres)")


@pytest.fixture
def campaign(rollbook_store: str) -> Iterator[CampaignUnderTest]:
    """A campaign under test; its ruleset is set by `.of(...)` or by the first builder given.

    After the test, the campaign is re-executed from its record and must give the identical
    event stream, then its seed is revealed and `rollbook verify` must find nothing: every
    campaign a test builds is also a determinism check and an audit of its dice.
    """
    under_test = CampaignUnderTest(rollbook_store)
    try:
        yield under_test
        leftover = under_test.leftover_faces()
        if leftover:
            pytest.fail(f"faces fed with dice(...) were never rolled: {leftover}")
        difference = under_test.replays_identically()
        if difference is not None:
            pytest.fail(f"the campaign does not replay identically: {difference}")
        findings = under_test.verifies()
        if findings:
            pytest.fail("`rollbook verify` finds, once the seed is revealed: " + "; ".join(findings))
    finally:
        under_test.close()
