"""`FIELD=VALUE` words on the command line, turned into one command object.

`rollbook post` and `rollbook odds` take a command's fields as words instead of a JSON line, so
that a GM posting a turn never types JSON. A value that parses as JSON is taken as JSON
(`harm=2`, `luck_bonus=true`, `dice=[5,6]`, `stats={"audacity":2}`); any other value is text
(`character=Red`, `stat=audacity`). A text that looks like JSON is written quoted: `name='"7"'`.
"""

from __future__ import annotations

import json
from typing import Any

from ..domain.errors import CommandRejected


def parse_field_values(words: list[str]) -> dict[str, Any]:
    """The fields named by `FIELD=VALUE` words, in order; a malformed word is refused by name."""
    fields: dict[str, Any] = {}
    for position, word in enumerate(words, start=1):
        name, equals, text = word.partition("=")
        if not equals or not name:
            raise CommandRejected("word {position} ({word!r}): expected FIELD=VALUE, for example harm=2 or character=Red",
                                  position=position, word=word)
        if not name.isidentifier():
            raise CommandRejected("word {position}: {name!r} is not a field name (letters, digits and _)",
                                  position=position, name=name)
        if name in fields:
            raise CommandRejected("word {position}: the field {name!r} is given twice", position=position, name=name)
        try:
            fields[name] = _value(text)
        except RecursionError:
            raise CommandRejected("word {position}: {name}= holds JSON nested too deeply (more than {most} levels)",
                                  field=name, position=position, name=name, most=MAX_DEPTH) from None
    return fields


def _value(text: str) -> Any:
    try:
        value = json.loads(text)
    except ValueError:
        return text
    _shallow(value)
    return value


#: How deep a value may nest: far deeper than any command's field, and well within what the
#: validation after it (and every reader of the stored command) can walk.
MAX_DEPTH = 100


def _shallow(value: Any, depth: int = 0) -> None:
    """Refuse (as RecursionError, as a deeper text is) a value nested beyond `MAX_DEPTH`."""
    if depth > MAX_DEPTH:
        raise RecursionError
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for child in children:
        _shallow(child, depth + 1)
