"""Expected events and the readable diff a failing `then` prints.

    events.LightWoundsHealed(character="Anna", count=2)

is an expectation: the event's type, and the fields given (fields left out are not
compared; `ANY` matches anything). Events are compared in their plain-dict form:
``{"type": "LightWoundsHealed", "character": "Anna", "count": 2}`` — the type, who it
happened to (`character`, `ship`, `enemy`, `scene`), and the event's own fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from unittest.mock import ANY

__all__ = ["ANY", "ExpectedEvent", "events", "diff", "matches"]


@dataclass(frozen=True)
class ExpectedEvent:
    type: str
    fields: dict[str, Any] = field(default_factory=dict)

    def matches(self, actual: dict[str, Any]) -> bool:
        if actual.get("type") != self.type:
            return False
        return all(name in actual and value == actual[name] for name, value in self.fields.items())

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.fields}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"events.{self.type}({args})"


class _EventNamespace:
    """`events.AnyName(**fields)` builds an expectation of an event of that type."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)

        def expect(**fields: Any) -> ExpectedEvent:
            return ExpectedEvent(name, fields)

        expect.__name__ = name
        return expect


events = _EventNamespace()


def matches(expected: list[ExpectedEvent], actual: list[dict[str, Any]]) -> bool:
    return len(expected) == len(actual) and all(e.matches(a) for e, a in zip(expected, actual, strict=True))


def _show(value: Any) -> str:
    if value is ANY:
        return "ANY"
    return json.dumps(value, ensure_ascii=False, default=str)


def diff(expected: list[ExpectedEvent], actual: list[dict[str, Any]]) -> str:
    """One line per event: `=` matches, `-` expected only, `+` actual only, `~` differs (with the fields)."""
    lines = [f"expected {len(expected)} events, got {len(actual)}:"]
    for index in range(max(len(expected), len(actual))):
        want = expected[index] if index < len(expected) else None
        got = actual[index] if index < len(actual) else None
        if want is not None and got is not None and want.matches(got):
            lines.append(f"  = {want!r}")
        elif want is not None and got is not None and want.type == got.get("type"):
            lines.append(f"  ~ {want.type}:")
            for name, value in want.fields.items():
                if name not in got:
                    lines.append(f"      {name}: expected {_show(value)}, but the event has no such field")
                elif value != got[name]:
                    lines.append(f"      {name}: expected {_show(value)}, got {_show(got[name])}")
        else:
            if want is not None:
                lines.append(f"  - {want!r}")
            if got is not None:
                lines.append(f"  + {_show(got)}")
    return "\n".join(lines)
