"""Disputes and odds over HTTP: who may, what they answer, and that a repeated ruling is not ruled twice."""

MOVE = {"type": "roll_move", "character": "Anna", "stat": "audacity", "dice": [3, 4]}


def dispute(table, user, body, key="ruling-1"):
    return table.client.post("/campaigns/bs/disputes", json=body, headers=table.headers(user, key))


def test_a_player_may_not_dispute_and_the_gm_or_an_auditor_may(table):
    table.post("anna", MOVE, key="anna-1")
    ruling = {"roll": "anna-1", "reason": "the forum roller misfired", "faces": [6, 6]}
    refused = dispute(table, "anna", ruling)
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "role"
    dry = dispute(table, "aud", {**ruling, "dry_run": True}, key="look")
    assert dry.status_code == 200 and dry.json()["applied"] is False and dry.json()["differences"]
    assert table.get("aud", "/campaigns/bs/revisions").json()[-1]["revision"] == 1
    ruled = dispute(table, "aud", ruling)
    assert ruled.status_code == 201 and ruled.json()["applied"] is True and ruled.json()["revision"] == 2
    revisions = table.get("anna", "/campaigns/bs/revisions").json()
    assert revisions[-1]["revision"] == 2 and revisions[-1]["actor"] == "auditor:aud"
    assert table.get("anna", "/campaigns/bs/rolls").json()[-1]["faces"] == [6, 6]
    again = dispute(table, "aud", ruling)
    assert again.json() == ruled.json() and len(table.get("anna", "/campaigns/bs/revisions").json()) == 2
    other = dispute(table, "aud", {**ruling, "faces": [1, 1]})
    assert other.status_code == 422 and other.json()["error"]["field"] == "Idempotency-Key header"
    # Users, rosters and kept answers live beside the campaign's events: the strict verify finds nothing amiss.
    verified = table.get("aud", "/campaigns/bs/verify").json()
    assert set(verified) == {"bs", "bs@r2"} and all(not r["findings"] for r in verified.values())


def test_a_ruling_with_bad_options_is_refused_by_field(table):
    table.post("anna", MOVE, key="anna-1")
    both = dispute(table, "gm1", {"roll": "anna-1", "reason": "x", "reroll": True, "drop": True})
    assert both.status_code == 422 and both.json()["error"]["field"] == "ruling"
    unknown = dispute(table, "gm1", {"roll": "anna-1", "reason": "x", "drop": True, "because": 1})
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "body.because"
    typed = dispute(table, "gm1", {"roll": "anna-1", "reason": "x", "faces": "6,6"})
    assert typed.status_code == 422 and typed.json()["error"]["field"] == "body.faces"
    no_roll = dispute(table, "gm1", {"roll": "nope", "reason": "x", "drop": True})
    assert no_roll.status_code == 422 and no_roll.json()["error"]["field"] == "roll"


def test_odds_for_ones_own_character_and_not_for_someone_elses(table):
    before = table.stored()
    asked = table.client.post("/campaigns/bs/odds", json={"command": {"type": "roll_move", "character": "Anna",
                                                                      "stat": "audacity"}},
                              headers=table.headers("anna", "odds-1"))
    assert asked.status_code == 200, asked.json()
    assert asked.json()["fractions"] == {"full_success": "5/12", "partial_success": "5/12", "miss": "1/6"}
    refused = table.client.post("/campaigns/bs/odds", json={"command": {"type": "roll_move", "character": "Bo",
                                                                        "stat": "audacity"}},
                                headers=table.headers("anna", "odds-2"))
    assert refused.status_code == 403 and refused.json()["error"]["field"] == "character"
    assert table.stored() == before


def test_a_key_already_taken_by_a_command_is_refused_for_a_ruling(table):
    table.post("anna", MOVE, key="anna-1")
    taken = dispute(table, "gm1", {"roll": "anna-1", "reason": "misfire", "faces": [2, 2]}, key="anna-1")
    assert taken.status_code == 422 and "already the id of a command" in taken.json()["error"]["reason"]
    assert len(table.get("gm1", "/campaigns/bs/revisions").json()) == 1


def test_a_checkpoint_is_what_the_cli_signs_and_verify_holds_the_store_to_it(tmp_path, monkeypatch):
    import json

    from rollbook.cli import app
    from typer.testing import CliRunner

    from .conftest import table_on

    monkeypatch.setenv("ROLLBOOK_SECRETS", str(tmp_path / "secrets"))
    url = f"sqlite:///{tmp_path / 'signed.db'}"
    table = table_on(url, posts_per_minute=0)
    with table.client:
        table.post("anna", MOVE, key="anna-1")
        signed = table.get("anna", "/campaigns/bs/checkpoint")
        assert signed.status_code == 200, signed.json()
        body = signed.json()
        cli = json.loads(CliRunner().invoke(app, ["checkpoint", "-c", "bs", "--store", url, "--json"]).stdout)
        # `witnesses`: what the campaign's named witnesses answered, asked by the command line only (issue 51).
        assert {k: v for k, v in body.items() if k not in ("time", "signature")} == {
            k: v for k, v in cli.items() if k not in ("time", "signature", "witnesses")}
        assert cli["witnesses"] == []
        assert body["commands"] == 5
        pasted = tmp_path / "checkpoint.json"
        pasted.write_text(json.dumps(body))
        verified = CliRunner().invoke(app, ["verify", "-c", "bs", "--store", url, "--checkpoint", str(pasted)])
        assert verified.exit_code == 0, verified.output
        assert table.get("carl", "/campaigns/bs/checkpoint").status_code == 403


def test_the_listings_follow_the_current_revision_after_an_undo(table):
    """Issue 44, item 4: `GET /campaigns` (`revision`, `commands`) and `GET /campaigns/C/characters` showed
    revision 1's figures after any undo or dispute; the sheet was right."""
    table.post("gm1", {"type": "take_damage", "character": "Anna", "harm": 2}, key="hurt")
    listed = next(c for c in table.get("anna", "/campaigns").json() if c["campaign"] == "bs")
    hurt = next(c for c in table.get("anna", "/campaigns/bs/characters").json() if c["name"] == "Anna")
    undone = table.client.post("/campaigns/bs/undo", json={"command": "hurt", "reason": "wrong Anna"},
                               headers=table.headers("gm1", "undo-1"))
    assert undone.status_code == 201, undone.json()
    after = next(c for c in table.get("anna", "/campaigns").json() if c["campaign"] == "bs")
    assert (after["revision"], after["commands"]) == (2, listed["commands"] - 1)
    anna = next(c for c in table.get("anna", "/campaigns/bs/characters").json() if c["name"] == "Anna")
    sheet = table.get("anna", "/campaigns/bs/sheets/Anna").json()
    assert anna["figures"] != hurt["figures"] and anna["figures"]["wounds"] == "none", (hurt, anna, sheet)
