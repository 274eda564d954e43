"""The project's own tests use the installed Rollbook pytest plugin (fixture `campaign`)."""

import os

import pytest

from rollbook.testing import new_campaign


@pytest.fixture
def memory_campaign():
    """A campaign in a memory store only, whatever --rollbook-stores says: for tests that roll a command
    hundreds of times to check the rules against the odds, which no store changes."""
    campaign = new_campaign()
    yield campaign
    campaign.close()


@pytest.fixture
def private_postgres(request):
    """A PostgreSQL server of the test's own, to stop (as in a crash) and start again at will.

    Skipped unless postgres is among --rollbook-stores; where no server can be made, skipped
    with the reason, except under CI=true, where that fails.
    """
    from tests.reliability import pgserver

    if "postgres" not in request.config.getoption("--rollbook-stores"):
        pytest.skip("postgres is not among --rollbook-stores")
    reason = pgserver.unavailable()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"a private PostgreSQL server is required in CI: {reason}")
        pytest.skip(reason)
    server = pgserver.PrivateServer()
    try:
        yield server
    finally:
        server.close()
