"""A command line's JSON, decoded by one decoder made once: the same refusals as `json.loads` gave."""

from __future__ import annotations

import json

import pytest

from rollbook.commands.lines import CommandError, decode_json, read_line


def test_a_line_decodes_as_json_loads_does():
    text = '{"type": "roll_move", "campaign": "c", "nested": {"a": [1, 2.5, null, true]}, "é": "ü"}'
    assert decode_json(text) == json.loads(text)
    assert decode_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize(("text", "field"), [
    ('{"type": "a", "type": "b"}', "type"),
    ('{"a": 1, "b": 2, "b": 3, "a": 4}', "b"),  # the first key repeated, not the first key
    ('{"type": "a", "stats": {"guile": 1, "guile": 2}}', "guile"),
])
def test_a_key_given_twice_is_refused_by_name(text, field):
    with pytest.raises(CommandError, match="given twice") as refused:
        decode_json(text)
    assert refused.value.field == field


@pytest.mark.parametrize(("given", "reason"), [
    ('{"harm": NaN}', "NaN is not a JSON number"),
    ('{"harm": -Infinity}', "-Infinity is not a JSON number"),
    ('\ufeff{"type": "a"}', "broken JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at column 1"),
    ('{"type": "a"', "broken JSON: Expecting ',' delimiter at column 13"),
    (b'{"type": "\xff"}', "not UTF-8 text"),
    ("[" * 100_000 + "]" * 100_000, "broken JSON: nested too deeply"),
])
def test_what_cannot_be_decoded_is_refused_in_the_same_words(given, reason):
    with pytest.raises(CommandError) as refused:
        decode_json(given)
    assert reason in refused.value.message


def test_the_line_number_is_added_to_a_refusal():
    with pytest.raises(CommandError) as refused:
        read_line(7, b'{"a": 1, "a": 2}')
    assert (refused.value.line, refused.value.field) == (7, "a")
