"""A player's undo is no free reroll (issue 44, item 2).

A player could take back his own last command; if it rolled the campaign's dice, he posted again and got new
faces: the reroll-until-it-suits forum rollers are known for. Now a player may undo his own command that rolled
the campaign's dice only in a campaign whose `players_undo_rolls` option allows it (off by default); otherwise
the GM (or an auditor) may. Faces he typed in from elsewhere he may still take back. In memory, through the
ruling every client's undo makes (`replay/dispute.py`), and once through the CLI.
"""

import json

import pytest

from rollbook.commands.parse import parse_command
from rollbook.commands.service import Rollbook
from rollbook.domain.errors import CommandRejected, PermissionDenied
from rollbook.replay.dispute import Ruling, dispute
from rollbook.replay.verify import verify
from rollbook.store import Store

from .conftest import HISTORY, rollbook

STATS = {"audacity": 2, "guile": 1, "foresight": 0, "reputation": -1}


def table(**options):
    store = Store.open("memory://")
    service = Rollbook(store)

    def post(**fields):
        return service.execute(parse_command({"campaign": "u", **fields}, ruleset_of=service.ruleset_of))

    post(type="create_campaign", ruleset="pirates", options=options)
    for name in ("Jack", "Mary"):
        post(type="create_character", name=name, player=name.lower(), stats=STATS, luck=1)
    post(type="start_chapter")
    return store, service, post


def undo(store, command, actor):
    return dispute(store, "u", Ruling(roll=command, reason="typo", actor=actor, drop=True), dry_run=False)


def test_a_player_may_not_undo_his_own_roll_of_the_campaigns_dice_the_gm_may():
    store, service, post = table()
    post(type="roll_move", id="j1", character="Jack", stat="guile", actor="player:jack", salt="post 3 owl")
    with pytest.raises(PermissionDenied) as refused:
        undo(store, "j1", "player:jack")
    assert refused.value.field == "roll"
    assert "j1 rolled the campaign's dice" in refused.value.message and "only the GM" in refused.value.message
    assert service.campaign("u").revision == 1  # nothing ruled, nothing written
    assert undo(store, "j1", "gm").revision == 2
    assert verify(store.app, service.key_for("u")).findings == []


def test_an_auditor_rules_on_a_players_roll_as_before():
    store, service, post = table()
    post(type="roll_move", id="j1", character="Jack", stat="guile", actor="player:jack")
    ruled = dispute(store, "u", Ruling(roll="j1", reason="misread", actor="auditor:cy", reroll=True), dry_run=False)
    assert ruled.applied and service.campaign("u").revision == 2


def test_a_player_still_takes_back_faces_he_typed_and_commands_that_roll_nothing():
    store, service, post = table()
    post(type="roll_move", id="typed", character="Jack", stat="guile", actor="player:jack", dice=[2, 3])
    assert undo(store, "typed", "player:jack").revision == 2
    post(type="roll_move", id="m1", character="Mary", stat="guile", actor="player:mary")
    post(type="spend_luck", id="luck", character="Jack", purpose="help", roll="m1", actor="player:jack")
    assert undo(store, "luck", "player:jack").revision == 3


def test_where_the_campaign_allows_it_a_player_undoes_his_own_roll_and_never_anothers():
    store, service, post = table(players_undo_rolls=True)
    post(type="roll_move", id="j1", character="Jack", stat="guile", actor="player:jack")
    post(type="roll_move", id="m1", character="Mary", stat="guile", actor="player:mary")
    with pytest.raises(PermissionDenied, match="player:jack may undo only his own commands; m1 is player:mary's"):
        undo(store, "m1", "player:jack")
    assert undo(store, "j1", "player:jack").revision == 2


def test_the_option_is_a_boolean_checked_when_the_campaign_is_made():
    store = Store.open("memory://")
    service = Rollbook(store)
    with pytest.raises(CommandRejected) as refused:
        service.execute(parse_command({"campaign": "u", "type": "create_campaign", "ruleset": "pirates",
                                       "options": {"players_undo_rolls": "yes"}}, ruleset_of=service.ruleset_of))
    assert refused.value.field == "options" and "players_undo_rolls is bool" in refused.value.message
    assert service.campaign("u") is None


def test_rollbook_undo_refuses_a_players_reroll_in_one_line(tmp_path):
    url = f"sqlite:///{tmp_path / 'undo.db'}"
    lines = tmp_path / "history.jsonl"
    lines.write_text("\n".join(json.dumps({"campaign": "audit", **c}) for c in HISTORY[:7]) + "\n")
    rollbook("run", str(lines), store=url)
    rollbook("post", "roll_move", "character=Anna", "stat=guile", "--actor", "player:anna", "--id", "a1",
             "-c", "audit", store=url)
    refused = rollbook("undo", "--reason", "typo", "--actor", "player:anna", "-c", "audit", store=url, check=False)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1 and "only the GM" in refused.stderr
    assert json.loads(rollbook("revisions", "-c", "audit", "--json", store=url).stdout)[-1]["revision"] == 1
