"""A struck roll is shown struck, with who struck it (issue 44, item 2): in the roll log, in `rollbook rolls`,
and in the struck command's forum lines, never as if it had not been rolled."""

from typer.testing import CliRunner

from rollbook.cli import app

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity"}
HTML = {"Accept": "text/html"}


def undo(table, user, command, reason, key):
    return table.client.post("/campaigns/bs/undo", json={"command": command, "reason": reason},
                             headers=table.headers(user, key))


def test_the_roll_log_and_the_lines_show_a_struck_roll_struck_with_who_struck_it(table):
    assert table.post("anna", {**MOVE, "salt": "post 1 owl"}, key="anna-1").status_code == 201
    assert table.post("anna", {**MOVE, "salt": "post 2 owl"}, key="anna-2").status_code == 201
    refused = undo(table, "anna", "anna-1", "I misclicked", "u-1")  # her own roll of the campaign's dice
    assert refused.status_code == 403 and "only the GM" in refused.json()["error"]["reason"]
    assert undo(table, "gm1", "anna-1", "<b>rolled twice</b>", "u-2").status_code == 201
    assert [r["id"] for r in table.get("anna", "/campaigns/bs/rolls").json()] == ["anna-2"]  # the API: revision 2's
    page = table.client.get("/campaigns/bs/rolls", headers={**table.headers("anna"), **HTML}).text
    assert 'id="roll-anna-1-struck-r2"' in page and "proof-struck" in page
    assert "Struck by <strong>gm</strong> (&lt;b&gt;rolled twice&lt;/b&gt;)" in page  # the reason escaped
    assert 'id="roll-anna-2"' in page
    lines = table.get("anna", "/campaigns/bs/lines/anna-1", revision=1, format="markdown")
    assert lines.status_code == 200, lines.text
    text = lines.json()["text"]
    assert "**STRUCK** by gm (\\<b\\>rolled twice\\</b\\>)" in text  # the reason escaped for markdown
    assert "**STRUCK** by gm" in text and "revision 2 is played without it" in text and text.startswith("~~")
    assert "derivation" not in text and "salt `post 1 owl`" in text
    assert table.get("anna", "/campaigns/bs/lines/anna-2").json()["text"].count("STRUCK") == 0
    assert table.get("anna", "/campaigns/bs/lines/anna-1").status_code == 404  # not played in revision 2


def test_rollbook_rolls_and_line_show_a_struck_roll_marked_and_json_keeps_the_revisions_own(tmp_path):
    url = f"sqlite:///{tmp_path / 's.db'}"
    runner = CliRunner()

    def rollbook(*args):
        result = runner.invoke(app, ["-q", *args, "--store", url], env={"NO_COLOR": "1", "COLUMNS": "120"})
        assert result.exit_code == 0, result.output
        return result.stdout

    rollbook("post", "create_campaign", "campaign=d", "ruleset=pirates")
    rollbook("post", "create_character", "name=Anna", "player=anna", "luck=0", "-c", "d",
             'stats={"audacity":1,"guile":1,"foresight":0,"reputation":0}')
    rollbook("post", "start_chapter", "-c", "d")
    rollbook("post", "roll_move", "character=Anna", "stat=guile", "--actor", "player:anna", "--id", "p1", "-c", "d")
    rollbook("post", "roll_move", "character=Anna", "stat=guile", "--actor", "player:anna", "--id", "p2", "-c", "d")
    rollbook("undo", "p1", "--reason", "typo", "-c", "d")
    shown = " ".join(rollbook("rolls", "-c", "d").split())
    assert "p1" in shown and "STRUCK by gm (typo), revision 2" in shown and "p2" in shown
    assert shown.index("p1") < shown.index("p2")
    assert "STRUCK" not in rollbook("rolls", "-c", "d", "--revision", "1")
    assert '"p1"' not in rollbook("rolls", "-c", "d", "--json")
    told = rollbook("line", "p1", "-c", "d", "--revision", "1")
    assert told.splitlines()[1].startswith("STRUCK by gm (typo) in dispute-") and "revision 2 is played" in told
    assert "STRUCK" not in rollbook("line", "p2", "-c", "d")
