"""The project's own tests use the installed Rollbook pytest plugin (fixture `campaign`)."""

import os

import pytest

from rollbook.testing import new_campaign


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the xdist_group marks
def pytest_collection_modifyitems(config, items):
    """Under `--dist loadgroup` (.ci/run), the tests of a module that share a module-scoped fixture of the tests'
    own (a served site, a browser, the Go verifier's build) run on one worker, so the fixture is made once, as in
    a run on one core; a test's own xdist_group mark (the kill tests' "timing") comes first."""
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        shared = [definition for definitions in item._fixtureinfo.name2fixturedefs.values() for definition in definitions
                  if definition.scope == "module" and definition.baseid]
        if shared:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


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
