"""What several core tests stand on."""

from pathlib import Path

import pytest
from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.store import Store

EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture
def examples_store(rollbook_store: str):
    """A store holding the pirates and heroes example campaigns: claims, several aggregates a command."""
    opened = Store.open(rollbook_store)
    for name in ("pirates", "heroes"):
        report = run_file(Rollbook(opened), (EXAMPLES / f"{name}.jsonl").read_bytes(), source=name)
        assert report.error is None, report.error
    yield opened
    opened.close()
