"""What a campaign reads of its ruleset's declarations (domain/campaign_rules.py)."""

import pytest

from rollbook.domain.campaign_rules import declared_options, scopes_of
from rollbook.domain.errors import UnknownName
from rollbook.domain.rulesets import available, ruleset
from rollbook.domain.timeline import BOUNDED_SCOPES, COMMON_SCOPES


@pytest.mark.parametrize("name", available())
def test_a_campaign_reads_its_rulesets_options_and_scopes(name):
    rules = ruleset(name)
    assert declared_options(name) is rules.options
    bounded, known = scopes_of(name)
    assert set(BOUNDED_SCOPES) <= set(bounded)
    assert [scope.rank for scope in bounded] == sorted(scope.rank for scope in bounded)
    assert known.items() >= COMMON_SCOPES.items()
    for scope in rules.scopes:
        assert known[scope.value] is scope
        assert (scope in bounded) is not scope.lasting


def test_an_unknown_ruleset_is_refused():
    with pytest.raises(UnknownName):
        scopes_of("no-such-game")
