"""Salted dice (issue 17): faces no one party can foresee — the seed was committed before the
player's salt was known, and the seed holder cannot compute them before the salt is posted."""

import json

import pytest
from typer.testing import CliRunner

from rollbook.cli import app
from rollbook.domain.dice import recompute_roll

SALTED = {"r1": "post 1041 lantern rope", "r3": "post 1047 gull anchor"}


def rollbook(*args, input=None):
    return CliRunner().invoke(app, ["-q", *args], input=input)


@pytest.fixture
def salted(tmp_path):
    """The audit campaign with r1 and r3 rolled by their players with salts; chapter 1 (their seed) ended."""
    from .conftest import HISTORY

    lines = [{**c, "actor": f"player:{c['character'].lower()}", "salt": SALTED[c["id"]]} if c.get("id") in SALTED
             else c for c in HISTORY]
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    result = rollbook("run", "-", "--store", url,
                      input="\n".join(json.dumps({"campaign": "audit", **c}) for c in lines) + "\n")
    assert result.exit_code == 0, result.output
    return url, tmp_path / "audit.db"


def test_salted_rolls_are_recorded_with_their_salt_and_verify_recomputes_them(salted):
    url, _ = salted
    rolls = {r["id"]: r for r in json.loads(rollbook("rolls", "-c", "audit", "--json", "--store", url).stdout)}
    assert {rolls["r1"]["salt"], rolls["r3"]["salt"]} == set(SALTED.values()) and "salt" not in rolls["r4"]
    report = json.loads(rollbook("verify", "-c", "audit", "--json", "--store", url).stdout)["audit"]
    assert report["findings"] == [] and report["rolls_checked"] == 2  # r1 and r3, both salted, after the reveal


def first_roll(tamper):
    """The store's first DiceRolled event (r1's): its row and its state."""
    rowid, state = tamper.sql("SELECT rowid, state FROM {events} WHERE topic LIKE '%Campaign.DiceRolled' "
                              "ORDER BY rowid LIMIT 1")[0]
    return rowid, json.loads(state)


def test_a_roll_whose_recorded_salt_was_edited_is_a_finding(salted, tamper_of):
    url, path = salted
    tamper = tamper_of(url, path)
    rowid, data = first_roll(tamper)
    roll = data["roll"]
    reveals = [json.loads(s) for (s,) in tamper.sql("SELECT state FROM {events} WHERE topic LIKE '%Campaign.SeedRevealed'")]
    seed = bytes.fromhex(next(r["seed"] for r in reveals if r["commitment"] == roll["commitment"]))
    # The seed is the run's own (random): an edit is looked for under which it gives other faces,
    # as almost every edit does (a 2d6 roll shows the same faces under about 1 salt in 36).
    roll["salt"] = next(salt for salt in (f"post 1041 lantern ropes{'!' * n}" for n in range(100))
                        if recompute_roll(seed, "audit", {**roll, "salt": salt}) != roll["faces"])
    tamper.sql("UPDATE {events} SET state = ? WHERE rowid = ?", json.dumps(data).encode(), rowid)
    result = rollbook("verify", "-c", "audit", "--json", "--store", url)
    assert result.exit_code == 1
    problems = [f["problem"] for f in json.loads(result.stdout)["audit"]["findings"]]
    assert any("roll r1 shows" in p and "but its seed gives" in p for p in problems), problems


@pytest.mark.parametrize("edit", ["derivation taken out", "place moved", "place not a number"])
def test_a_salted_roll_whose_derivation_was_edited_is_a_finding_never_a_crash(salted, tamper_of, edit):
    """A salted roll rewritten as one of the nonce's derivation (as if recorded before issue 44), or moved to
    another place in its command: the event's digest no longer holds, and its faces are not the seed's."""
    url, path = salted
    tamper = tamper_of(url, path)
    rowid, data = first_roll(tamper)
    roll = data["roll"]
    assert roll["derivation"] == "salt+place" and roll["place"] == 1
    if edit == "derivation taken out":
        del roll["derivation"], roll["place"]
    else:
        roll["place"] = 2 if edit == "place moved" else "1; drop table"
    tamper.sql("UPDATE {events} SET state = ? WHERE rowid = ?", json.dumps(data).encode(), rowid)
    result = rollbook("verify", "-c", "audit", "--json", "--store", url)
    assert result.exit_code == 1 and "Traceback" not in result.output
    problems = [f["problem"] for f in json.loads(result.stdout)["audit"]["findings"]]
    assert any("event DiceRolled" in p and "was edited" in p for p in problems), problems


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_players_roll_without_salt_is_refused_where_salts_are_required(tmp_path, monkeypatch, how):
    from .conftest import HISTORY

    create = {**HISTORY[0], "options": {"require_salt": True}} if how == "option" else HISTORY[0]
    if how == "environment":
        monkeypatch.setenv("ROLLBOOK_REQUIRE_SALT", "1")
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    setup = [create, *HISTORY[1:7]]
    assert rollbook("run", "-", "--store", url, input="\n".join(
        json.dumps({"campaign": "audit", **c}) for c in setup) + "\n").exit_code == 0
    roll = {"type": "roll_move", "campaign": "audit", "id": "r1", "actor": "player:anna", "character": "Anna",
            "stat": "audacity"}
    refused = rollbook("run", "-", "--store", url, "--json", input=json.dumps(roll) + "\n")
    assert refused.exit_code == 1 and json.loads(refused.stdout)["error"]["field"] == "salt"
    assert rollbook("run", "-", "--store", url, input=json.dumps({**roll, "salt": "post 7 owl"}) + "\n").exit_code == 0
    # The GM's own rolls are his to salt (README): not refused.
    gm = {**roll, "id": "g1", "actor": "gm"}
    assert rollbook("run", "-", "--store", url, input=json.dumps(gm) + "\n").exit_code == 0
