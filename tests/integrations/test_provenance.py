"""`rollbook verify --discord-key`: every Discord-posted command was sent by the member it names, with the
options recorded; an interaction edited in the store, one never signed, or the wrong key is caught."""

import json

import pytest
from typer.testing import CliRunner

from rollbook.cli import app as cli
from rollbook.commands.parse import parse_command
from rollbook.domain.integrations import signed_interaction_id
from rollbook.integrations.provenance import check_discord
from tests.replay.conftest import Tamper

from .support import MEMBERS, PUBLIC_KEY, move, rb, snowflake


def played(thread):
    """A player's move, the GM's post and a ruling, all through Discord."""
    roll = move("pirates-move", character="Anna", stat="audacity", move="threaten_violence")
    thread.send(roll)
    thread.send(rb("post", command="take_damage character=Anna harm=1", member=MEMBERS["gm1"]))
    thread.send(rb("undo", command="k4", reason="started too soon", member=MEMBERS["gm1"]))
    return roll


def report(thread, key=PUBLIC_KEY):
    store = thread.table.state.store
    return check_discord(store, "bs", ["bs", "bs@r2"], key)


def test_every_discord_command_is_signed_by_the_member_it_names(thread):
    played(thread)
    checked = report(thread)
    assert checked.checked == 3 and checked.findings == []
    assert checked.members == {MEMBERS["anna"]: ["anna"], MEMBERS["gm1"]: ["gm1"]}


def test_the_wrong_key_fails_every_discord_command(thread):
    played(thread)
    wrong = report(thread, "ab" * 32)
    assert len(wrong.findings) == 3 and all("signature does not hold" in f.problem for f in wrong.findings)


def test_a_command_saying_discord_posted_it_without_a_signed_interaction_is_caught(thread):
    forged = f"discord-{snowflake()}"
    service = thread.table.state.service
    with thread.table.state.writing("bs"):
        service.execute(parse_command({"type": "roll_move", "campaign": "bs", "id": forged, "actor": "player:anna",
                                       "character": "Anna", "stat": "guile"}, ruleset_of=service.ruleset_of))
    [finding] = report(thread).findings
    assert finding.command == forged and "no signed interaction is kept" in finding.problem


def test_a_member_relinked_later_still_sent_what_he_sent_then(thread):
    from rollbook.integrations.members import Members

    played(thread)
    Members(thread.table.state.store).link("bo", MEMBERS["anna"], by="test")  # after the fact
    assert report(thread).findings == []


def tamper_with(thread, tmp_path, interaction):
    url = thread.table.state.store.url
    if url.startswith("memory"):
        pytest.skip("an edit by SQL needs a database")
    path = url.removeprefix("sqlite:///") if url.startswith("sqlite") else None
    return Tamper(url, path), Tamper(url, path).uuid(signed_interaction_id(interaction))


def test_an_interaction_edited_in_the_store_is_caught(thread, tmp_path):
    roll = played(thread)
    tamper, originator = tamper_with(thread, tmp_path, roll.id)
    [(state,)] = tamper.sql("SELECT state FROM {events} WHERE originator_id = ?", originator)
    edited = bytes(state).replace(b"audacity", b"foresight")
    assert edited != bytes(state)
    tamper.sql("UPDATE {events} SET state = ? WHERE originator_id = ?", edited, originator)
    [finding] = report(thread).findings
    assert finding.command == "anna-1" and "edited" in finding.problem


def test_verify_with_the_discord_key_on_the_command_line(thread, tmp_path):
    url = thread.table.state.store.url
    if url.startswith("memory"):
        pytest.skip("the command line opens the store anew: memory:// holds nothing")
    played(thread)
    runner = CliRunner()
    good = runner.invoke(cli, ["verify", "-c", "bs", "--store", url, "--discord-key", PUBLIC_KEY])
    assert good.exit_code == 0, good.output
    assert "Discord: 3 commands posted through Discord, 0 findings" in good.output
    as_json = json.loads(runner.invoke(cli, ["verify", "-c", "bs", "--store", url, "--discord-key", PUBLIC_KEY,
                                             "--json"]).output)
    assert as_json["bs@r2"]["discord"]["checked"] == 3
    wrong = runner.invoke(cli, ["verify", "-c", "bs", "--store", url, "--discord-key", "cd" * 32])
    assert wrong.exit_code == 1 and "signature does not hold" in wrong.output
    bad = runner.invoke(cli, ["verify", "-c", "bs", "--store", url, "--discord-key", "not-hex"])
    assert bad.exit_code == 1 and "64 hex digits" in bad.output and "Traceback" not in bad.output
