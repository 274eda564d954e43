"""Rule options: the alternative readings of the original a campaign picks when it is created.

Every ruleset declares its options once, in its rules.py, as `Options` of `Option`s: the
default (the digest's recommended reading), the values allowed and the ruling or line of the
original the option comes from. The campaign records its choices in its first event, and the
rules read them through `Campaign.option`, which refuses a recorded value the rules do not have.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import RuleViolation, Word

ENGLISH = "en"
#: The languages a campaign's group may read its lines in (its `language` option, commands/rule_options.py);
#: their message catalogs are in locale/, read by language/__init__.py.
LANGUAGES = (ENGLISH, "ru")


@dataclass(frozen=True)
class Option:
    """One rule option: its default, the values it may take, and the ruling it comes from."""

    default: Any
    #: The values, or a range of whole numbers.
    allowed: tuple[Any, ...] | range
    #: Where the original (or its digest) leaves the reading open: "P-2", "G-10", "L52; digest §1".
    ruling: str
    #: The allowed values (not a range) each with its type, made once: the rules read their
    #: options several times a command, and each reading is checked (`Options.value`). None
    #: where a value cannot be hashed (a plugin's list or mapping): those are compared one by one.
    _typed: frozenset[tuple[type, Any]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            typed = None if isinstance(self.allowed, range) else frozenset((type(a), a) for a in self.allowed)
        except TypeError:
            typed = None
        object.__setattr__(self, "_typed", typed)  # frozen: set once, here
        if not self.accepts(self.default):
            raise ValueError(f"the default {self.default!r} is not among the allowed values ({self.shown()})")

    def accepts(self, value: Any) -> bool:
        """The value is one the rules have, of the same JSON type (True is not the whole number 1)."""
        if isinstance(self.allowed, range):
            return type(value) is int and value in self.allowed
        if self._typed is None:
            return any(type(value) is type(allowed) and value == allowed for allowed in self.allowed)
        try:
            return (type(value), value) in self._typed
        except TypeError:  # unhashable (a list, an object): of no hashable allowed value's type
            return False

    def shown(self) -> str:
        if isinstance(self.allowed, range):
            return f"a whole number {self.allowed.start}..{self.allowed.stop - 1}"
        return f"one of {', '.join(map(repr, self.allowed))}"


class Options(Mapping[str, Option]):
    """A ruleset's options by name; empty for a ruleset that has none."""

    def __init__(self, **declared: Option) -> None:
        self._declared = declared

    def __getitem__(self, name: str) -> Option:
        return self._declared[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._declared)

    def __len__(self) -> int:
        return len(self._declared)

    def defaults(self) -> dict[str, Any]:
        return {name: option.default for name, option in self._declared.items()}

    def value(self, chosen: Mapping[str, Any], name: str) -> Any:
        """The reading `chosen` has for the option (its default if it has none), refused if the rules lack it."""
        option = self._declared[name]
        value = chosen.get(name, option.default)
        if not option.accepts(value):
            raise RuleViolation(
                "rule option {name} must be {shown} ({ruling}); got {value!r}",
                field="options." + name, name=name, shown=option.shown(), ruling=option.ruling, value=value,
            )
        return value

    def check(self, chosen: Mapping[str, Any]) -> None:
        """Refuse, at create_campaign, the first option value the rules do not have."""
        for name in self._declared:
            self.value(chosen, name)
