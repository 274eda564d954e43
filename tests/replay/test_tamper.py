"""Tampering with the store by SQL, as a motivated writer with access to the database would,
and the check that catches each kind (issue 17): `verify`, `verify --checkpoint` or `replay --verify`.

Each test is given the campaign `audit` on SQLite and on PostgreSQL, tampers, then asserts
which finding names the place.
"""

import json
import os
import subprocess

import pytest

from rollbook.domain.ids import campaign_id, command_claim_id, member_id
from rollbook.replay.verify import verify
from rollbook.store import Store


def findings(url, *, projected=True):
    store = Store.open(url)
    try:
        return verify(store.app, "audit", projected=projected).findings
    finally:
        store.close()


def problems(url):
    return [f.problem for f in findings(url)]


def latest(tamper, aggregate):
    """(version, topic, state) of an aggregate's last stored event."""
    rows = tamper.sql("SELECT originator_version, topic, state FROM {events} WHERE originator_id = ? "
                      "ORDER BY originator_version DESC LIMIT 1", tamper.uuid(aggregate))
    version, topic, state = rows[0]
    return version, topic, bytes(state)


def insert(tamper, aggregate, version, topic, data):
    tamper.sql("INSERT INTO {events} (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
               tamper.uuid(aggregate), version, topic, json.dumps(data).encode())


def test_the_untouched_campaign_verifies_with_its_head_and_unverifiable_rolls(tampered):
    url, _ = tampered
    store = Store.open(url)
    report = verify(store.app, "audit", projected=True)
    store.close()
    assert report.findings == [] and report.commands == 17 and not report.testing_kit
    assert report.head == report.chain[-1] and len(report.chain) == 17
    # r4 was rolled under the seed committed at the end of chapter 1, not revealed yet.
    assert [u.roll for u in report.unverifiable] == ["r4"]


def test_a_wiped_store_is_not_a_verified_one(tampered):
    url, tamper = tampered
    tamper.sql("DELETE FROM {events}")
    assert any("no recorded command" in p and "history is gone" in p for p in problems(url))


def test_an_event_injected_outside_any_command_is_found_at_its_position(tampered):
    url, tamper = tampered
    anna = member_id("audit", "character", "Anna")
    version, topic, state = latest(tamper, anna)
    gift = json.loads(state)
    insert(tamper, anna, version + 1, topic.rsplit(".", 1)[0] + ".MoneyGained",
           {**{k: gift[k] for k in ("timestamp",) if k in gift}, "piastres": 100_000})
    (found,) = [f for f in findings(url) if "written by no recorded command" in f.problem]
    assert found.aggregate == anna.hex and found.position is not None and f"v{version + 1}" in found.problem


def test_an_aggregate_injected_into_the_campaign_and_a_foreign_topic_are_found(tampered):
    url, tamper = tampered
    ghost = member_id("audit", "character", "Ghost")
    _, topic, state = tamper.sql("SELECT originator_version, topic, state FROM {events} WHERE originator_id = ? "
                                 "AND originator_version = 1", tamper.uuid(member_id("audit", "character", "Bo")))[0]
    insert(tamper, ghost, 1, topic, {**json.loads(bytes(state)), "name": "Ghost"})
    campaign = campaign_id("audit")
    version, _, _ = latest(tamper, campaign)
    insert(tamper, campaign, version + 1, "evil.module:Payout", {"piastres": 1})
    found = {f.aggregate: f.problem for f in findings(url)}
    assert "written by no recorded command" in found[ghost.hex]
    assert "evil.module:Payout" in found[campaign.hex]


def test_a_gap_in_an_aggregate_is_found(tampered):
    url, tamper = tampered
    anna = member_id("audit", "character", "Anna")
    tamper.sql("DELETE FROM {events} WHERE originator_id = ? AND originator_version = 2", tamper.uuid(anna))
    assert any(f.aggregate == anna.hex and "is gone (v2)" in f.problem for f in findings(url))


def test_given_history_appended_through_the_library_is_a_finding_outside_the_testing_kit(tampered):
    url, _ = tampered
    from rollbook.commands.service import Rollbook
    from rollbook.domain.rulesets.pirates.money import gain_money

    store = Store.open(url)
    # Chained like any command: only what it is (no rule decided it) gives it away.
    Rollbook(store).append_history("audit", "a gift", lambda table: gain_money(table, "Anna", 100_000, "a gift"))
    store.close()
    assert any("given history" in p and "testing kit did not create" in p for p in problems(url))


@pytest.mark.parametrize("edit", ["time", "id"])
def test_a_command_applied_whose_id_or_time_was_edited_is_found(tampered, edit):
    url, tamper = tampered
    position = tamper.position()
    rowid, state = tamper.sql(f"SELECT {position}, state FROM {{events}} WHERE topic LIKE '%Campaign.CommandApplied' "
                              f"ORDER BY {position} LIMIT 1 OFFSET 7")[0]
    data = json.loads(bytes(state))
    if edit == "time":
        data["timestamp"]["_data_"] = data["timestamp"]["_data_"].replace("2026-03-02", "2026-03-09")
    else:
        data["command_id"] = "someone-else"
    tamper.sql(f"UPDATE {{events}} SET state = ? WHERE {position} = ?", json.dumps(data).encode(), rowid)
    (found,) = [f for f in findings(url) if "its CommandApplied says" in f.problem]
    assert found.position == rowid and found.command == "r1"


def test_a_removed_claim_and_an_injected_claim_are_found(tampered):
    url, tamper = tampered
    claim = command_claim_id("audit", "r2")
    state = bytes(tamper.sql("SELECT state FROM {events} WHERE originator_id = ?", tamper.uuid(claim))[0][0])
    tamper.sql("DELETE FROM {events} WHERE originator_id = ?", tamper.uuid(claim))
    topic = tamper.sql("SELECT topic FROM {events} WHERE topic LIKE '%CommandClaim.Recorded' LIMIT 1")[0][0]
    insert(tamper, command_claim_id("audit", "never"), 1, topic, {**json.loads(state), "command_id": "never"})
    found = {f.aggregate: f.problem for f in findings(url)}
    assert "is gone" in found[claim.hex]
    assert "claim of a command id that no recorded command has" in found[command_claim_id("audit", "never").hex]


def test_an_edited_snapshot_is_found_by_folding_the_events_before_it(tampered):
    url, tamper = tampered
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook

    store = Store.open(url)
    # Each rotation writes three campaign events: 70 of them take the campaign past version 200.
    rotations = "\n".join(json.dumps({"type": "rotate_seed", "campaign": "audit", "id": f"s{n}"}) for n in range(70))
    assert run_file(Rollbook(store), rotations.encode()).error is None
    store.close()
    campaign = campaign_id("audit")
    version, state = tamper.sql("SELECT originator_version, state FROM {snapshots} WHERE originator_id = ?",
                                tamper.uuid(campaign))[0]
    assert findings(url) == []
    snapshot = json.loads(bytes(state))
    snapshot["state"]["roster"]["Bo"]["player"] = "anna"
    tamper.sql("UPDATE {snapshots} SET state = ? WHERE originator_id = ?", json.dumps(snapshot).encode(),
               tamper.uuid(campaign))
    (found,) = findings(url)
    assert found.aggregate == campaign.hex and f"snapshot at v{version} is not the fold" in found.problem


def test_given_history_verifies_in_a_campaign_the_testing_kit_created():
    from rollbook.testing import pirates
    from rollbook.testing.kit import CampaignUnderTest

    under_test = CampaignUnderTest()
    under_test.given(pirates.created("Anna", luck=1), pirates.wounded("Anna", "light", 2))
    report = verify(under_test.store.app, under_test.name)
    under_test.close()
    assert report.testing_kit and report.findings == [] and report.commands == 3


def rollbook(*args):
    from typer.testing import CliRunner

    from rollbook.cli import app

    return CliRunner().invoke(app, ["-q", *args])


@pytest.mark.slow
def test_verify_names_position_and_aggregate_and_lists_what_it_cannot_verify_yet(audited, tamper_of):
    url, path = audited
    anna = member_id("audit", "character", "Anna")
    report = json.loads(rollbook("verify", "-c", "audit", "--json", "--store", url).stdout)["audit"]
    assert report["commands"] == 17 and report["unverifiable_count"] == 1 and len(report["head"]) == 64
    tamper = tamper_of(url, path)
    tamper.sql("DELETE FROM {events} WHERE originator_id = ? AND originator_version = 2", tamper.uuid(anna))
    result = rollbook("verify", "-c", "audit", "--store", url)
    assert result.exit_code == 1
    said = " ".join(result.output.split())  # verify's lines wrap at 80 columns
    assert f"[aggregate {anna.hex}]: an event it wrote is gone (v2)" in said
    assert "1 rolls not verifiable yet" in said and "not verifiable: roll r4" in said


@pytest.mark.slow
@pytest.mark.parametrize("trouble", ["read-only", "full"])
def test_verify_only_reads_it_works_on_a_read_only_store_and_a_full_disk(tmp_path, trouble):
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook

    from .conftest import HISTORY

    folder = tmp_path / "fs"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(folder)]).returncode:
        pytest.skip("a small filesystem of its own needs root and mount")
    try:
        url = f"sqlite:///{folder / 'audit.db'}"
        store = Store.open(url)
        raw = "\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY).encode()
        assert run_file(Rollbook(store), raw).error is None
        store.close()
        if trouble == "read-only":
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        else:
            subprocess.run(["dd", "if=/dev/zero", f"of={folder / 'filler'}", "bs=64k"], capture_output=True)
        result = rollbook("verify", "-c", "audit", "--store", url)
        assert result.exit_code == 0, result.output
        assert "audit: 17 commands chained" in result.output and "0 findings" in result.output
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def test_the_command_line_refuses_to_create_a_testing_kit_campaign(tmp_path):
    line = json.dumps({"type": "create_campaign", "campaign": "kit", "ruleset": "pirates", "testing_kit": True})
    (tmp_path / "kit.jsonl").write_text(line + "\n")
    result = rollbook("run", str(tmp_path / "kit.jsonl"), "--store", f"sqlite:///{tmp_path / 'kit.db'}")
    assert result.exit_code == 1 and "only the testing kit creates a testing-kit campaign" in result.output


@pytest.mark.slow
def test_given_history_appended_outside_the_testing_kit_does_not_survive_export_and_import(audited, tmp_path):
    from rollbook.commands.service import Rollbook
    from rollbook.domain.rulesets.pirates.money import gain_money

    url, _ = audited
    store = Store.open(url)
    Rollbook(store).append_history("audit", "a gift", lambda table: gain_money(table, "Anna", 100_000, "a gift"))
    store.close()
    (tmp_path / "export.jsonl").write_text(rollbook("export", "-c", "audit", "--store", url).stdout)
    result = rollbook("import", str(tmp_path / "export.jsonl"), "--store", f"sqlite:///{tmp_path / 'copy.db'}")
    assert result.exit_code == 1 and "given history" in result.output and "testing kit did not create" in result.output
