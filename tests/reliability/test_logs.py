"""Every refusal and every retry is one structured log line with the command's id and the reason.

Captured as the command line writes them, with `--log-format json`: a refusal of each kind
(a line that cannot be read, a field the command does not have, a name the campaign does not
know, a once-only limit already used), and a retry after another writer changed the campaign.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import structlog

from rollbook.commands.lines import derived_id
from rollbook.commands.parse import parse_command
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.store import Store

from .support import CAMPAIGN, PIRATE_BASE, cli, file_ids, json_lines, kinds

BREAKDOWN = {"type": "take_breakdown", "campaign": CAMPAIGN, "ship": "Chaika", "breakdown": "torn_sails"}

#: (what is wrong, the bad line, the field named, whether the line has its own id)
REFUSALS = [
    ("a line that is not JSON", '{"type": "take_hole", "campaign": "black-sails", "ship": ', None, False),
    ("a field the command does not have", json.dumps({**BREAKDOWN, "id": "b-1", "colour": "red"}), "colour", True),
    ("a ship the campaign does not know", json.dumps({**BREAKDOWN, "ship": "Ghost"}), "ship", False),
    ("a once-only limit already used (L140)", json.dumps({**BREAKDOWN, "id": "b-2", "breakdown": "wet_powder"}),
     None, True),
]


@pytest.mark.slow
@pytest.mark.parametrize("what, bad, field, own_id", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_a_refusal_is_one_json_log_line_with_the_command_id_and_the_reason(
    tmp_path: Path, what: str, bad: str, field: str | None, own_id: bool
) -> None:
    good = [*PIRATE_BASE, json.dumps(BREAKDOWN)]
    path = tmp_path / "commands.jsonl"
    path.write_text("\n".join([*good, bad]) + "\n")
    result = cli("--log-format", "json", "run", str(path), store=f"sqlite:///{tmp_path / 'logs.db'}")
    assert result.returncode == 1

    refusals = kinds(json_lines(result.stderr), "command.refused")
    assert len(refusals) == 1, result.stderr
    refusal = refusals[0]
    expected_id = json.loads(bad)["id"] if own_id else derived_id(file_ids("\n".join(good), path)[-1], bad)
    assert refusal["command_id"] == expected_id
    assert refusal["reason"] and refusal["level"] == "info" and refusal["timestamp"]
    if field is not None:
        assert refusal["field"] == field
    if what == "a once-only limit already used (L140)":
        assert "battle" in refusal["reason"]
    assert len(kinds(json_lines(result.stderr), "command.applied")) == len(good)


def test_a_retry_is_one_json_log_line_with_the_command_id_and_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rollbook.cli import LogFormat, configure_logging, settings

    url = f"sqlite:///{tmp_path / 'retry.db'}"
    saved = (settings.log_format, settings.quiet, settings.verbose)  # in-process CLI tests may have set them
    first, second = Store.open(url), Store.open(url)  # two writers, each with its own cache
    try:
        assert run_file(Rollbook(first), "\n".join(PIRATE_BASE).encode()).error is None
        slow, quick = Rollbook(first), Rollbook(second)
        settings.log_format, settings.quiet, settings.verbose = LogFormat.json, False, False
        configure_logging(writing=True)
        slow.campaign(CAMPAIGN)  # read before the other writer moves the campaign on

        def command(data: dict[str, object]) -> object:
            return parse_command(data, ruleset_of=quick.ruleset_of)

        roll = {"type": "roll_move", "campaign": CAMPAIGN, "character": "Anna", "stat": "guile"}
        assert quick.execute(command({**roll, "id": "quick", "dice": [1, 2]})).status == "applied"  # type: ignore[arg-type]
        assert slow.execute(command({**roll, "id": "slow", "dice": [3, 4]})).status == "applied"  # type: ignore[arg-type]
    finally:
        settings.log_format, settings.quiet, settings.verbose = saved
        structlog.reset_defaults()
        first.close()
        second.close()
    logs = json_lines(capsys.readouterr().err)
    retries = kinds(logs, "command.retry")
    assert [r["command_id"] for r in retries] == ["slow"]
    assert retries[0]["reason"] == "another writer changed the campaign first" and retries[0]["attempt"] == 1
    assert [a["command_id"] for a in kinds(logs, "command.applied")] == ["quick", "slow"]
