"""Rule-option validation for a new campaign (commands/rule_options.py), against the built-in rulesets."""

import pytest

from rollbook.commands.rule_options import TABLE_OPTIONS, chosen_options, refuse_unknown_options
from rollbook.domain.errors import CommandRejected
from rollbook.domain.rulesets import available, ruleset


@pytest.mark.parametrize("name", available())
def test_the_rulesets_own_options_and_the_tables_are_known(name):
    rules = ruleset(name)
    refuse_unknown_options(rules, {**rules.default_options, "require_salt": True})
    assert chosen_options(rules, {}) == rules.default_options
    assert chosen_options(rules, {"require_salt": True}) == {**rules.default_options, "require_salt": True}


@pytest.mark.parametrize("name", available())
def test_an_option_nobody_declares_is_refused_naming_those_known(name):
    rules = ruleset(name)
    with pytest.raises(CommandRejected) as refused:
        refuse_unknown_options(rules, {"no_such_option": 1})
    assert refused.value.field == "options"
    assert f"unknown rule options ['no_such_option'] for {rules.name}" in refused.value.message
    assert all(known in refused.value.message for known in [*rules.default_options, *TABLE_OPTIONS])


def test_a_table_option_of_the_wrong_type_is_refused():
    with pytest.raises(CommandRejected, match="option require_salt is bool, not 'yes'") as refused:
        refuse_unknown_options(ruleset(available()[0]), {"require_salt": "yes"})
    assert refused.value.field == "options"
