"""Schemathesis against the OpenAPI document: every operation, generated requests (bounded), signed in.

No request may get a 5xx, every answer's status is one the document lists for its route, and its
body (an error's too) has the schema documented; a refused write (any 4xx) stores nothing.
Requests go in turn as the GM, a player and an auditor. The campaign in the
path is the fixture's own campaign, so bodies, queries and headers meet a real one; unknown
campaigns are tested by name in test_api.py. The live stream never ends, so it is left out.
"""

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from .conftest import table_on

CASES = {"count": 0, "statuses": {}}


# Made at import: schemathesis parametrises the test from the document, before any fixture runs.
TABLE = table_on("memory://", posts_per_minute=0)
schema = schemathesis.openapi.from_asgi("/openapi.json", TABLE.client.app)


@schema.exclude(path_regex=r"/events$").parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_gets_a_server_error_or_writes_when_refused(case):
    table = TABLE
    if "campaign" in (case.path_parameters or {}):
        case.path_parameters["campaign"] = "bs"
    before = table.stored()
    # In turn as the GM, a player and an auditor, so each role's refusals are fuzzed too.
    user = ("gm1", "anna", "aud")[CASES["count"] % 3]
    response = case.call(headers={"Authorization": f"Bearer {table.tokens[user]}"})
    # The status is documented for the route (statuses.py), and the body is what the document says.
    case.validate_response(response, checks=[status_code_conformance, response_schema_conformance])
    CASES["count"] += 1
    CASES["statuses"][response.status_code] = CASES["statuses"].get(response.status_code, 0) + 1
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:500])
    if response.status_code >= 400:
        assert table.stored() == before, (case.method, case.formatted_path, response.status_code)
        assert "error" in response.json(), response.text[:300]


def test_report_the_number_of_cases(request):
    # Runs after the fuzzing in this module (pytest keeps the file's order) and says what it tried.
    if CASES["count"]:
        print(f"\nschemathesis: {CASES['count']} cases, statuses {dict(sorted(CASES['statuses'].items()))}")
