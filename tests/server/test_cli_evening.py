"""The command line's first evening over `--server` (issue 45), against a real `rollbook serve`: a new GM told
to create a campaign and creating it, a post never refused for someone else's, ids a person can say, the
serve's ready line, a reroll's faces, an undo worded as one, a quiet `verify`. (On a store: tests/core/
test_cli_first_evening.py.)"""

import json
import re

import pytest
from rollbook.hosting.accounts import Accounts
from rollbook.store import Store
from tests.battle import CAMPAIGN
from typer.testing import CliRunner

from rollbook.cli import app

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow


def remotely(served, token, *words, ok=True):
    _, server, _ = served
    result = CliRunner().invoke(app, [*words, "--server", server.url], env={"ROLLBOOK_TOKEN": token, "COLUMNS": "80"})
    assert result.exit_code == (0 if ok else 1), result.output
    return result.stdout if ok else result.stderr


def test_serve_prints_where_it_serves_and_a_ready_line(served):
    _, server, _ = served
    said = server.log.read_text()
    assert f"serving {served[0]} on {server.url}" in said
    assert f"ready: open {server.url}/ in a browser, or `rollbook login {server.url}`" in said


def test_a_gm_with_no_campaign_is_told_to_create_one_and_creates_it_over_the_server(served):
    store = Store.open(served[0])
    try:
        token = Accounts(store).add("newgm")
    finally:
        store.close()
    first = remotely(served, token, "whoami")
    assert "no campaign yet. To run one: `rollbook post create_campaign campaign=ID" in first
    created = remotely(served, token, "post", "create_campaign", "campaign=capes", "ruleset=heroes", "title=Capes")
    assert "capes" in created
    assert "capes: gm" in remotely(served, token, "whoami")
    shown = remotely(served, token, "post", "--help", "create_character", "-c", "capes")
    assert "Undefined" not in shown and "talents  (default {})" in shown


def test_a_remote_post_is_never_refused_for_someone_elses_and_gets_an_id_one_can_say(served):
    """Two players post alternately, five moves each, salted on the campaign's dice: every post applied."""
    _, _, tokens = served
    ids = {"p0": [], "p1": []}
    for turn in range(10):
        user, name = (("p0", "P0"), ("p1", "P1"))[turn % 2]
        posted = json.loads(remotely(served, tokens[user], "post", "roll_move", f"character={name}",
                                     f"stat={('guile', 'audacity')[turn % 2]}", "-c", CAMPAIGN, "--json"))
        assert posted["status"] == "applied"
        ids[user].append(posted["id"])
    for user, said in ids.items():
        numbers = [int(re.fullmatch(rf"{user}-(\d+)", one)[1]) for one in said]
        assert numbers == list(range(numbers[0], numbers[0] + 5)), said
    theirs = remotely(served, tokens["p0"], "post", "roll_move", "character=P1", "stat=guile", "-c", CAMPAIGN, ok=False)
    assert "cannot act for 'P1'" in theirs


def test_if_match_only_when_asked_and_its_refusal_says_to_look_again(served):
    _, _, tokens = served
    before = len(json.loads(remotely(served, tokens["gm"], "rolls", "-c", CAMPAIGN, "--json")))
    stale = remotely(served, tokens["p0"], "post", "roll_move", "character=P0", "stat=guile", "dice=[2,2]",
                     "--if-match", "r1.1", "-c", CAMPAIGN, ok=False)
    assert "If-Match header: the campaign has moved on since" in stale
    assert "(id " not in stale  # the post got no id: none is named and "look again and post again" in stale
    assert len(json.loads(remotely(served, tokens["gm"], "rolls", "-c", CAMPAIGN, "--json"))) == before


def test_a_reroll_shows_old_and_new_faces_and_an_undo_is_worded_as_an_undo(served):
    _, _, tokens = served
    posted = json.loads(remotely(served, tokens["p0"], "post", "roll_move", "character=P0", "stat=audacity",
                                 "-c", CAMPAIGN, "--json"))
    roll = posted["id"]
    rerolled = remotely(served, tokens["gm"], "dispute", roll, "--reroll", "--reason", "cocked die", "--dry-run",
                        "-c", CAMPAIGN)
    assert re.search(rf"^roll {roll}: \[\d, \d\] = \d+, [a-z ]+ would be \[\d, \d\] = \d+", rerolled, re.M), rerolled
    # The GM's undo: a player takes back a roll of the campaign's dice only where the campaign allows it (issue 44).
    undone = remotely(served, tokens["gm"], "undo", roll, "--dry-run", "--reason", "meant guile", "-c", CAMPAIGN)
    assert f"Undo of {roll}: what would change" in undone and f"roll {roll}: " in undone
    assert undone.splitlines()[-1].startswith(f"undo of {roll}: the campaign would be ")
    assert "cannot apply" not in undone and "dispute-" not in undone
    refused = remotely(served, tokens["p1"], "undo", roll, "--dry-run", "--reason", "not mine", "-c", CAMPAIGN,
                       ok=False)
    assert "may undo only his own commands" in refused


def test_a_remote_verify_is_quiet_and_lists_each_roll_it_cannot_check_once(served):
    _, _, tokens = served
    seeded = json.loads(remotely(served, tokens["p1"], "post", "roll_move", "character=P1", "stat=audacity",
                                 "-c", CAMPAIGN, "--json"))["id"]
    remotely(served, tokens["p1"], "post", "roll_move", "character=P1", "stat=guile", "dice=[1,1]", "--id", "typed-1",
             "-c", CAMPAIGN)
    remotely(served, tokens["gm"], "dispute", "typed-1", "--faces", "2,2", "--reason", "misread", "-c", CAMPAIGN)
    said = remotely(served, tokens["gm"], "verify", "-c", CAMPAIGN)
    assert "command.applied" not in said and "[info" not in said
    assert said.count(f"not verifiable: roll {seeded} ") == 1 and "listed above)" in said
