"""The record does not change (issue 31, item 5): campaigns stored by an earlier Rollbook, their events
copied byte for byte (`records/`), are read by today's code, every command re-decided to the identical
events (`replay --verify`), and verified: chain, revealed rolls and projections."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rollbook.cli import app

RECORDS = sorted((Path(__file__).parent / "records").glob("*.export.gz"))


def rollbook(*args: str):
    return CliRunner().invoke(app, ["-q", *args])


def test_the_records_cover_every_built_in_game():
    assert {path.name.split(".")[0] for path in RECORDS} >= {
        "bench-pirates", "bench-heroes", "bench-implant", "bench-gladiators"}


@pytest.mark.parametrize("record", RECORDS, ids=lambda path: path.name.split(".")[0])
def test_a_campaign_stored_before_replays_identically_and_verifies(tmp_path, record):
    campaign = record.name.split(".")[0]
    exported = tmp_path / f"{campaign}.export"
    exported.write_bytes(gzip.decompress(record.read_bytes()))
    store = f"sqlite:///{tmp_path / 'today.db'}"
    imported = rollbook("import", str(exported), "--store", store)
    assert imported.exit_code == 0 and "(copied)" in imported.output, imported.output
    replayed = rollbook("replay", "--verify", "-c", campaign, "--store", store)
    assert replayed.exit_code == 0 and "identical to the store" in replayed.output, replayed.output
    verified = rollbook("verify", "-c", campaign, "--store", store)
    assert verified.exit_code == 0 and " 0 findings" in verified.output, verified.output
