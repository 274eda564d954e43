"""Deterministic campaign generators, one module per ruleset.

Each module has `generate(size, seed) -> Campaign`: exactly `size` commands forming a
realistic play-by-post history (chapters, scenes, battles, rolls with typed and seeded
dice, wounds, luck, ships), every one valid for `rollbook run` given in order. The
generator keeps a small model of the sheets only to choose legal commands; the engine
still decides everything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path
from typing import Any

#: Bump when a generator changes what it writes (cached stores are keyed by it).
VERSION = 1
RULESETS = ("pirates", "heroes", "implant", "gladiators")


@dataclass
class Campaign:
    ruleset: str
    campaign: str
    commands: list[dict[str, Any]]
    #: A member whose sheet the read measures ask for.
    sheet: str
    #: Roll ids near the start of the campaign (for `dispute`).
    early_rolls: list[str] = field(default_factory=list)

    def jsonl(self) -> bytes:
        return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in self.commands).encode()

    def write(self, path: Path) -> Path:
        path.write_bytes(self.jsonl())
        return path


def available() -> list[str]:
    """Rulesets with a generator here *and* commands in this build of Rollbook."""
    from rollbook.commands.catalogue import commands_for
    from rollbook.domain.rulesets import available as installed

    found = []
    for name in RULESETS:
        if name not in installed() or find_spec(f"{__name__}.{name}") is None:
            continue
        if import_module(f"{__name__}.{name}").REQUIRES <= set(commands_for(name)):
            found.append(name)
    return found


def generate(ruleset: str, size: int, seed: int = 7) -> Campaign:
    return import_module(f"{__name__}.{ruleset}").generate(size, seed)
