"""A forged ruling (issue 36, item 1; tamper T40): a patched `dispute` writes a revision that also rewrites
a command the ruling never named. Its own chain holds, and `replay --verify` re-executes it identically from
its own record; `verify` holds it to the revision before it re-executed with the ruling recorded."""

import json
from dataclasses import replace

import pytest

from rollbook.replay import dispute as disputing
from rollbook.store import Store

from .conftest import rollbook

FORGERIES = {
    "the dice of another roll": lambda recorded: replace(
        recorded, rolls=[{**recorded.rolls[0], "faces": [6, 6]}]) if recorded.id == "r2" else recorded,
    "a field of another command": lambda recorded: replace(
        recorded, command={**recorded.command, "harm": 2}) if recorded.id == "h2" else recorded,
}


def words(result):
    return " ".join(result.stdout.split())


def rule_on_r1(url, name_replaced=True, **decision):
    """`name_replaced=False`: the ruling made as before rulings named the revision they replace."""
    store = Store.open(url)
    try:
        disputing.dispute(store, "audit", disputing.Ruling(roll="r1", reason="mistyped", actor="auditor:kim",
                                                           **decision), dry_run=False, name_replaced=name_replaced)
    finally:
        store.close()


@pytest.mark.parametrize("forgery", FORGERIES)
def test_a_revision_that_rewrites_a_command_its_ruling_does_not_name_fails_verify(audited, monkeypatch, forgery):
    url, _ = audited
    honest = disputing.change_of

    def forged(roll, decision, dispute_id):
        change = honest(roll, decision, dispute_id)
        return lambda recorded: None if (kept := change(recorded)) is None else FORGERIES[forgery](kept)

    monkeypatch.setattr(disputing, "change_of", forged)
    rule_on_r1(url, faces=[1, 1])
    monkeypatch.setattr(disputing, "change_of", honest)
    # What the forger counts on: the revision's own chain and its re-execution from its own record hold.
    assert rollbook("replay", "-c", "audit", "--verify", store=url, check=False).returncode == 0
    result = rollbook("verify", "-c", "audit", store=url, check=False)
    assert result.returncode == 1
    said = words(result)
    assert "revision 2 is not revision 1 re-executed with the ruling" in said and "on r1" in said
    assert ("(r2) on, its dice are [[6, 6]]" in said) if forgery.startswith("the dice") else (
        "(h2) on, the stored command differs in harm" in said)


@pytest.mark.parametrize("decision", [{"faces": [1, 1]}, {"reroll": True}, {"drop": True}])
def test_every_honest_ruling_verifies_and_so_does_the_one_after_it(audited, decision):
    url, _ = audited
    rule_on_r1(url, **decision)
    store = Store.open(url)
    try:
        disputing.dispute(store, "audit", disputing.Ruling(roll="r2", reason="and this", actor="gm", faces=[2, 2]),
                          dry_run=False)
    finally:
        store.close()
    result = rollbook("verify", "-c", "audit", "--json", store=url, check=False)
    assert result.returncode == 0, result.stdout
    reports = json.loads(result.stdout)
    assert list(reports) == ["audit", "audit@r2", "audit@r3"] and all(not r["findings"] for r in reports.values())
