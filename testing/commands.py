"""Every command model by its class name: `commands.EndChapter()`, `commands.RollMove(...)`."""

from __future__ import annotations

from typing import Any

from ..commands.catalogue import commands_for
from ..domain.rulesets import available


def __getattr__(name: str) -> Any:
    for ruleset in available():
        for model, _ in commands_for(ruleset).values():
            if model.__name__ == name:
                return model
    raise AttributeError(f"no command model named {name!r}")
