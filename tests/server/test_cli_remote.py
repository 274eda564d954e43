"""The CLI with --server: run, post, the read verbs and dispute against a real `rollbook serve`, the same JSON."""

import json

import pytest
from rollbook.cli import app
from tests.battle import CAMPAIGN
from typer.testing import CliRunner

#: It starts processes (the CLI, servers or a database server): not in the fast tier.
pytestmark = pytest.mark.slow


def cli(*words, env=None):
    return CliRunner().invoke(app, list(words), env=env, catch_exceptions=False)


def remotely(served, user, *words):
    _, server, tokens = served
    return cli(*words, "--server", server.url, env={"ROLLBOOK_TOKEN": tokens[user]})


def test_read_verbs_over_the_server_print_what_they_print_on_the_store(served):
    url = served[0]
    remotely(served, "p0", "post", "roll_move", "character=P0", "stat=audacity", "dice=[3,4]", "-c", CAMPAIGN)
    for verb in (["sheet", "P0"], ["ship", "Chaika"], ["timeline"], ["limits"], ["rolls"], ["log"]):
        local = cli(*verb, "-c", CAMPAIGN, "--store", url, "--json")
        over_http = remotely(served, "p1", *verb, "-c", CAMPAIGN, "--json")
        assert over_http.exit_code == 0, over_http.output
        assert json.loads(over_http.stdout) == json.loads(local.stdout), verb
    shown = remotely(served, "p1", "sheet", "P0", "-c", CAMPAIGN)
    assert shown.exit_code == 0 and "P0" in shown.stdout


def test_post_and_run_go_to_the_server_as_the_tokens_user(served, tmp_path):
    posted = remotely(served, "p0", "post", "roll_move", "character=P0", "stat=guile", "dice=[6,6]", "--id", "cli-1",
                      "-c", CAMPAIGN, "--json")
    assert posted.exit_code == 0, posted.output
    answer = json.loads(posted.stdout)
    assert answer["status"] == "applied" and answer["rolls"] == ["cli-1"] and "P0" in answer["summary"]
    theirs = remotely(served, "p0", "post", "roll_move", "character=P1", "stat=guile", "-c", CAMPAIGN)
    assert theirs.exit_code == 1 and "cannot act for 'P1'" in theirs.output
    lines = tmp_path / "turns.jsonl"
    lines.write_text('{"type": "roll_move", "character": "P1", "stat": "audacity", "dice": [2, 2]}\n'
                     '{"type": "roll_move", "character": "P1", "stat": "guile", "dice": [1, 5], "id": "p1-file-2"}\n')
    first = remotely(served, "p1", "run", str(lines), "-c", CAMPAIGN, "--json")
    ran = json.loads(first.stdout)
    assert (ran["applied"], ran["skipped"], ran["error"]) == (2, [], None), first.output
    again = json.loads(remotely(served, "p1", "run", str(lines), "-c", CAMPAIGN, "--json").stdout)
    assert again["applied"] == 0 and len(again["skipped"]) == 2 and again["skipped"][1] == "p1-file-2"
    assert [s["line"] for s in again["skips"]] == [1, 2]
    refused = tmp_path / "refused.jsonl"
    refused.write_text('{"type": "roll_move", "character": "P1", "stat": "luck"}\n')
    stopped = remotely(served, "p1", "run", str(refused), "-c", CAMPAIGN, "--json")
    assert stopped.exit_code == 1 and json.loads(stopped.stdout)["error"]["line"] == 1


def test_dispute_over_the_server_takes_the_role_from_the_token(served):
    remotely(served, "p0", "post", "roll_move", "character=P0", "stat=audacity", "dice=[1,1]", "--id", "cli-bad",
             "-c", CAMPAIGN)
    player = remotely(served, "p0", "dispute", "cli-bad", "--reason", "misfire", "--faces", "5,5", "--dry-run",
                      "-c", CAMPAIGN)
    assert player.exit_code == 1 and "needs gm or auditor" in player.output
    ruled = remotely(served, "gm", "dispute", "cli-bad", "--reason", "misfire", "--faces", "5,5", "--dry-run",
                     "-c", CAMPAIGN, "--json")
    assert ruled.exit_code == 0 and json.loads(ruled.stdout)["applied"] is False


def test_a_server_without_a_token_is_named(served):
    refused = cli("rolls", "-c", CAMPAIGN, "--server", served[1].url, env={"ROLLBOOK_TOKEN": ""})
    assert refused.exit_code == 1 and "token" in refused.output


def test_odds_over_the_server_are_the_stores_and_refuse_another_players_character(served):
    url = served[0]
    local = cli("odds", "roll_move", "character=P0", "stat=audacity", "-c", CAMPAIGN, "--store", url, "--json")
    over_http = remotely(served, "p0", "odds", "roll_move", "character=P0", "stat=audacity", "-c", CAMPAIGN,
                         "--compare", "luck_bonus=true", "--json")
    assert over_http.exit_code == 0, over_http.output
    shown = json.loads(over_http.stdout)
    assert shown["fractions"] == json.loads(local.stdout)["fractions"]
    assert shown["compare"]["fields"] == {"luck_bonus": True}
    theirs = remotely(served, "p0", "odds", "roll_move", "character=P1", "stat=audacity", "-c", CAMPAIGN)
    assert theirs.exit_code == 1 and "cannot act for 'P1'" in theirs.output


def test_a_requests_retries_are_said_with_v_and_not_without():
    from rollbook.cli.remote import ATTEMPTS

    nobody = ["rolls", "-c", CAMPAIGN, "--server", "http://127.0.0.1:9"]  # nothing listens on port 9
    quiet, told = cli(*nobody, env={"ROLLBOOK_TOKEN": "t"}), cli("-v", *nobody, env={"ROLLBOOK_TOKEN": "t"})
    assert quiet.exit_code == told.exit_code == 1 and "cannot reach http://127.0.0.1:9" in quiet.output
    assert "retrying in" not in quiet.output
    assert told.output.count("rollbook: retrying in") == ATTEMPTS - 1 and f"(try 2 of {ATTEMPTS})" in told.output
