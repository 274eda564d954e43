"""A finished chapter must have revealed its seed (issue 36, item 9; tamper T29): a forger who takes the
reveal out, and refits the chain, leaves a seed replaced by the next one unrevealed, and `verify` says so
instead of listing its rolls as "not verifiable yet"."""

import json

from rollbook.commands.runner import run_file
from rollbook.commands.service import Rollbook
from rollbook.domain.campaign import Campaign
from rollbook.projections.queries import Reader
from rollbook.store import Store

from .conftest import HISTORY, rollbook


def build(url):
    store = Store.open(url)
    try:
        raw = "\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY).encode()
        assert run_file(Rollbook(store), raw).error is None
        Reader(store).catch_up()
    finally:
        store.close()


def test_a_chapter_ended_without_revealing_its_seed_fails_verify(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'unrevealed.db'}"
    # What a refitted chain without the chapter's SeedRevealed looks like: every record consistent, no reveal.
    monkeypatch.setattr(Campaign, "reveal_seed", lambda self, seed: None)
    build(url)
    result = rollbook("verify", "-c", "audit", store=url, check=False)
    said = " ".join(result.stdout.split())
    assert result.returncode == 1
    assert "was neither revealed nor abandoned: a finished chapter reveals its seed" in said
    assert "(command ch1-end)" in said


def test_an_honest_campaign_and_an_abandoned_seed_verify(tmp_path):
    url = f"sqlite:///{tmp_path / 'honest.db'}"
    build(url)
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
    rollbook("post", "abandon_seed", "reason=the secrets folder was lost", "-c", "audit", store=url)
    rollbook("post", "end_chapter", "-c", "audit", store=url)  # commits the next seed, the lost one unrevealed
    rollbook("post", "roll_move", "character=Anna", "stat=guile", "-c", "audit", store=url)
    assert rollbook("verify", "-c", "audit", store=url, check=False).returncode == 0
