"""FIELD=VALUE words: JSON where the value is JSON, text otherwise, a bad word refused by position."""

import pytest

from rollbook.commands.field_values import parse_field_values
from rollbook.domain.errors import CommandRejected


def test_values_are_json_where_they_parse_and_text_otherwise() -> None:
    words = ["harm=2", "character=Red", "dice=[5,6]", "luck_bonus=true", 'stats={"audacity":2}', 'name="7"', "note="]
    assert parse_field_values(words) == {
        "harm": 2,
        "character": "Red",
        "dice": [5, 6],
        "luck_bonus": True,
        "stats": {"audacity": 2},
        "name": "7",
        "note": "",
    }


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (["harm"], "word 1 ('harm'): expected FIELD=VALUE"),
        (["harm=1", "=2"], "word 2"),
        (["har m=1"], "not a field name"),
        (["harm=1", "harm=2"], "given twice"),
    ],
)
def test_a_malformed_word_is_refused_naming_it(words: list[str], says: str) -> None:
    with pytest.raises(CommandRejected, match=None) as refused:
        parse_field_values(words)
    assert says in str(refused.value)
