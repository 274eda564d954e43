"""A mistyped store path is an error naming the path, and creates nothing (issue 15).

Only the verbs that make a store (`run`, `import`, `demo`, and the server's `serve`, `users`,
`grant`) may create its file; a verb that reads, verifies, exports or rebuilds needs it to be there.
"""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

READERS = [
    ["sheet", "Anna", "-c", "bs"], ["timeline", "-c", "bs"], ["limits", "-c", "bs"], ["rolls", "-c", "bs"],
    ["log", "-c", "bs"], ["campaigns"], ["rebuild"], ["verify", "-c", "bs"], ["export", "-c", "bs"],
    ["replay", "-c", "bs"], ["checkpoint", "-c", "bs"],
]


@pytest.mark.parametrize("words", READERS, ids=lambda words: words[0])
def test_a_verb_that_reads_refuses_a_store_file_that_does_not_exist(tmp_path: Path, words: list[str]) -> None:
    missing = tmp_path / "tyop.db"
    result = CliRunner().invoke(app, [*words, "--store", f"sqlite:///{missing}"])
    assert result.exit_code == 1, result.output
    assert f"no store at {missing}" in result.stderr
    assert not missing.exists() and list(tmp_path.iterdir()) == []


def test_run_still_creates_the_store(tmp_path: Path) -> None:
    made = tmp_path / "new.db"
    line = '{"type": "create_campaign", "campaign": "bs", "ruleset": "pirates"}\n'
    result = CliRunner().invoke(app, ["-q", "run", "-", "--store", f"sqlite:///{made}"], input=line)
    assert result.exit_code == 0, result.output
    assert made.exists()
    read = CliRunner().invoke(app, ["timeline", "-c", "bs", "--store", f"sqlite:///{made}"])
    assert read.exit_code == 0, read.output
