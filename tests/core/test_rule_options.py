"""A rule option accepts only the values its ruleset declares, each of its own JSON type."""

import pytest

from rollbook.domain.errors import RuleViolation
from rollbook.domain.options import Option, Options


def test_a_value_counts_only_with_its_own_type():
    option = Option(default=1, allowed=(1, 2, "wild"), ruling="test")
    assert option.accepts(2) and option.accepts("wild")
    assert not option.accepts(True)  # True == 1 in Python, but not in the rules
    assert not option.accepts(1.0) and not option.accepts("1") and not option.accepts(3)
    assert not option.accepts([1])  # an unhashable value is simply not one of them


def test_a_plugins_unhashable_allowed_values_are_compared_one_by_one():
    option = Option(default=[1, 2], allowed=([1, 2], {"dice": 3}), ruling="plugin")
    assert option.accepts([1, 2]) and option.accepts({"dice": 3})
    assert not option.accepts([2, 1]) and not option.accepts((1, 2)) and not option.accepts(1)


def test_a_range_takes_whole_numbers_only():
    option = Option(default=2, allowed=range(1, 4), ruling="test")
    assert option.accepts(3) and not option.accepts(4) and not option.accepts(True) and not option.accepts(2.0)


def test_a_recorded_value_the_rules_lack_is_refused_naming_the_option():
    options = Options(edge=Option(default="low", allowed=("low", "high"), ruling="L1"))
    assert options.value({}, "edge") == "low" and options.value({"edge": "high"}, "edge") == "high"
    with pytest.raises(RuleViolation, match="rule option edge must be one of 'low', 'high'"):
        options.value({"edge": ["high"]}, "edge")
