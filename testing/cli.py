"""A campaign played through the `rollbook` command line, for tests of what a user meets there.

    def test_a_check(tmp_path):
        table = CliCampaign(tmp_path, RULESET)
        table.run(CREATE_SPARK, {"type": "roll_check", "id": "c1", "character": "Spark", "dice": [2, 4, 6]})
        assert table.roll("c1")["outcome"] == EXPECTED
        assert table.verify().exit_code == 0

Commands are piped to `rollbook run -` into a SQLite store of the test's folder; each one is
given the campaign and, unless it names one, an id of its own (`cmd-N`), so a roll is found by
the id of the command that made it. Without `dice` a command rolls the campaign's seeded dice.
Reads are the verbs' `--json` output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import Result
from typer.testing import CliRunner

from ..cli import app


class CliCampaign:
    def __init__(self, folder: Path, ruleset: str, *, campaign: str = "cli-campaign", **options: Any) -> None:
        self.store = f"sqlite:///{folder / 'cli.db'}"
        self.campaign = campaign
        self._count = 0
        self.run({"type": "create_campaign", "ruleset": ruleset, "options": options})

    def invoke(self, *args: str, input: str | None = None) -> Result:
        return CliRunner().invoke(app, ["-q", *args, "--store", self.store], input=input)

    def _lines(self, commands: tuple[dict[str, Any], ...]) -> str:
        lines = []
        for command in commands:
            self._count += 1
            lines.append(json.dumps({"campaign": self.campaign, "id": f"cmd-{self._count}", **command}))
        return "\n".join(lines) + "\n"

    def run(self, *commands: dict[str, Any]) -> dict[str, Any]:
        """Apply the commands; every one must be accepted."""
        result = self.invoke("run", "-", "--json", input=self._lines(commands))
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def refused(self, command: dict[str, Any]) -> dict[str, Any]:
        """Apply one command that must be refused (exit 1); its error (`field`, `reason`)."""
        result = self.invoke("run", "-", "--json", input=self._lines((command,)))
        assert result.exit_code == 1, result.output
        error = json.loads(result.stdout)["error"]
        assert error is not None, result.output
        return error

    def read(self, verb: str, *args: str) -> Any:
        result = self.invoke(verb, *args, "--campaign", self.campaign, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def sheet(self, name: str) -> dict[str, Any]:
        return self.read("sheet", name)

    def campaign_sheet(self) -> dict[str, Any]:
        return self.read("timeline")

    def rolls(self) -> list[dict[str, Any]]:
        return self.read("rolls")

    def roll(self, roll_id: str) -> dict[str, Any]:
        return next(r for r in self.rolls() if r["id"] == roll_id)

    def limits(self) -> list[dict[str, Any]]:
        return self.read("limits")

    def log(self) -> list[dict[str, Any]]:
        return self.read("log")

    def verify(self) -> Result:
        """`rollbook verify`: the hash chain, the revealed seeds' rolls and the nonce sequence."""
        return self.invoke("verify", "--campaign", self.campaign)
