"""The games' worked scenarios and examples as a user meets them: a command file through the `rollbook`
command line, run step by step into a SQLite store and read back as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from rollbook.cli import app


def cli(*args: str, ok: bool = True) -> str:
    """What `rollbook -q ARGS` prints; with `ok`, it must have succeeded."""
    result = CliRunner().invoke(app, ["-q", *args])
    if ok:
        assert result.exit_code == 0, result.output
    return result.output


@dataclass(frozen=True)
class ScenarioFile:
    """A command file whose every line has an id; `//` lines are comments."""

    path: Path
    campaign: str

    def lines(self) -> list[tuple[str, str]]:
        return [(json.loads(line)["id"], line) for line in self.path.read_text().splitlines()
                if line.strip() and not line.startswith("//")]

    def run_through(self, tmp_path: Path, last: str) -> str:
        """A fresh store holding the file's lines up to and including the one whose id is `last`."""
        store = f"sqlite:///{tmp_path / 'scenario.db'}"
        lines = self.lines()
        upto = [i for i, _ in lines].index(last) + 1
        prefix = tmp_path / "prefix.jsonl"
        prefix.write_text("".join(line + "\n" for _, line in lines[:upto]))
        summary = json.loads(cli("run", str(prefix), "--store", store, "--json"))
        assert summary["error"] is None and summary["applied"] == upto
        return store

    def sheet(self, store: str, name: str) -> dict[str, Any]:
        return json.loads(cli("sheet", name, "--campaign", self.campaign, "--store", store, "--json"))
