"""A generated campaign: what a game's generator (`Ruleset.generator`) writes for the bench and the load tests.

A game's generator module has `REQUIRES`, the command types it writes, and `generate(size, seed) -> Campaign`:
exactly `size` commands forming a realistic play-by-post history (chapters, scenes, battles, rolls with typed
and seeded dice, wounds, luck …), every one valid for `rollbook run` given in order. The generator keeps a small
model of the sheets only to choose legal commands, or asks the rules themselves (`testing/oracle.py`); the
engine still decides everything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Campaign:
    ruleset: str
    campaign: str
    commands: list[dict[str, Any]]
    #: A member whose sheet the read measures ask for.
    sheet: str
    #: Roll ids near the start of the campaign (for `dispute`).
    early_rolls: list[str] = field(default_factory=list)

    @classmethod
    def played(cls, ruleset: str, commands: list[dict[str, Any]], *, sheet: str, rolled_by: str) -> Campaign:
        """The generated campaign `bench-RULESET` of `commands`; its early rolls are those of the first five
        commands of the type `rolled_by`."""
        early = [c["id"] for c in commands if c["type"] == rolled_by][:5]
        return cls(ruleset, f"bench-{ruleset}", commands, sheet=sheet, early_rolls=early)

    def jsonl(self) -> bytes:
        return "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in self.commands).encode()

    def write(self, path: Path) -> Path:
        path.write_bytes(self.jsonl())
        return path

