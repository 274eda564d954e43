"""Who may act (issue 15): a player gives only what is his, at any depth of a command, or nothing is written.

Each attack below was accepted before the ownership check was made in one place; each is refused now with
`PermissionDenied` naming the field, and the same command from the GM (or for the player's own) still works.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from rollbook.testing import pirates

ANNA = "player:anna"


def _pirates_crew(campaign):
    campaign.given(pirates.created("Anna", player="anna", luck=2), pirates.created("Bo", player="bo", luck=3))


def test_a_player_cannot_spend_another_pirates_luck_absorbing_his_harm(campaign):
    _pirates_crew(campaign)
    campaign.when({"type": "take_damage", "actor": ANNA, "character": "Bo", "harm": 1, "absorb_with_luck": True})
    campaign.then_rejected(match=r"^character: player:anna cannot act for 'Bo', who belongs to player:bo")
    assert campaign.sheet("Bo")["luck"] == 3
    campaign.when({"type": "take_damage", "actor": ANNA, "character": "Anna", "harm": 1, "absorb_with_luck": True})
    assert campaign.error is None, campaign.error
    assert campaign.sheet("Anna")["luck"] == 1


def test_a_negotiation_bet_is_its_sides_own(campaign):
    _pirates_crew(campaign)
    round_ = {"type": "negotiation_round", "pirate_bet": "purse", "opponent_bet": "life", "dice": []}
    campaign.given({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Bo", "opponent_kind": "pirate"})
    campaign.when({**round_, "actor": "player:cid"})
    campaign.then_rejected(match=r"^pirate_bet: player:cid cannot act for 'Anna'")
    campaign.when({**round_, "actor": ANNA})
    campaign.then_rejected(match=r"^opponent_bet: player:anna cannot act for 'Bo'")
    campaign.when(round_)
    assert campaign.error is None, campaign.error


def test_the_gms_bet_in_a_negotiation_is_the_gms(campaign):
    _pirates_crew(campaign)
    campaign.given({"type": "start_negotiation", "negotiator": "Anna", "opponent": "Governor"})
    campaign.when({"type": "negotiation_round", "actor": ANNA, "pirate_bet": "glory", "opponent_bet": "purse"})
    campaign.then_rejected(match=r"^opponent_bet: opponent_bet is the GM's to give, not player:anna's")


def test_a_player_creates_no_treasury_and_so_cannot_pay_himself_from_it(campaign):
    _pirates_crew(campaign)
    ship = {"type": "create_ship", "name": "Chaika", "navigation": 1, "firepower": 1, "displacement": 1, "hull": 3}
    campaign.when({**ship, "actor": ANNA, "treasury_piastres": 50_000_000})
    campaign.then_rejected(match=r"^treasury_piastres: only the GM may give treasury_piastres in create_ship")
    campaign.when({**ship, "actor": ANNA})
    assert campaign.error is None, campaign.error
    campaign.when({"type": "transfer_money", "actor": ANNA, "from": "Bo", "to": "Anna", "piastres": 1})
    campaign.then_rejected(match=r"^from: player:anna cannot act for 'Bo'")


def test_a_player_creates_his_own_pirate_with_no_money_of_the_gms(campaign):
    _pirates_crew(campaign)
    pirate = {"type": "create_character", "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0},
              "luck": 0, "actor": ANNA}
    campaign.when({**pirate, "name": "Dee", "player": "bo"})
    campaign.then_rejected(match=r"^player: player:anna can only create a character of their own")
    campaign.when({**pirate, "name": "Dee"})
    campaign.then_rejected(match=r"^player: player:anna can only create a character of their own")
    campaign.when({**pirate, "name": "Dee", "player": "anna", "purse_piastres": 10**9})
    campaign.then_rejected(match=r"^purse_piastres: only the GM may give")


def test_a_scheme_council_spends_only_the_actors_pirates_luck(campaign):
    _pirates_crew(campaign)
    campaign.given({"type": "create_ship", "name": "Chaika", "navigation": 1, "firepower": 1, "displacement": 1,
                    "hull": 3, "secrets": ["X1"]})
    campaign.when({"type": "scheme", "actor": ANNA, "leader": "Anna", "goal": "g", "secrets": ["X1"],
                   "council": ["Bo"], "dice": [1, 1]})
    campaign.then_rejected(match=r"^council\[0\]: player:anna cannot act for 'Bo'")


def _hero(name, role="hero", **owner):
    abilities = dict.fromkeys(("strength", "agility", "stamina", "intellect", "perception", "will"), 3)
    return {"type": "create_character", "name": name, "role": role, "abilities": abilities, **owner}


def _heroes(campaign):
    campaign.of("heroes")
    campaign.given(_hero("Ann", player="anna"), _hero("Tempest", player="bo"), _hero("Vex", role="villain"),
                   {"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"})


def test_a_player_cannot_spend_another_heroes_resolve_in_a_contest(campaign):
    _heroes(campaign)
    campaign.given({"type": "start_contest", "contest": "arm", "sides": ["Ann", "Tempest"]})
    roll = {"type": "contest_roll", "actor": ANNA, "contest": "arm", "traits": {"Ann": "strength", "Tempest": "will"}}
    campaign.when({**roll, "resolve": {"Tempest": 3}})
    campaign.then_rejected(match=r"^resolve.Tempest: player:anna cannot act for 'Tempest'")
    campaign.when({**roll, "resolve": {"Ann": 1}})
    assert campaign.error is None, campaign.error


def test_a_player_rolls_a_group_check_or_a_race_only_for_his_own_heroes(campaign):
    _heroes(campaign)
    for kind, key in (("group_check", "members"), ("race", "racers")):
        for other in ("Tempest", "Vex"):
            members = [{"character": "Ann", "trait": "agility"}, {"character": other, "trait": "agility"}]
            campaign.when({"type": kind, "actor": ANNA, key: members})
            campaign.then_rejected(match=rf"^{key}\[1\].character: player:anna cannot act for '{other}'")


def test_a_command_only_the_gm_issues_declares_nothing_a_player_owns():
    """Ownership is said once: a gm_only command is the GM's whole, so no field of it is `Own` or GM-only too."""
    from rollbook.commands.catalogue import commands_for
    from rollbook.commands.ownership import GmOnly, Owned, OwnerOf, _in_union
    from rollbook.domain.rulesets import available

    twice = [
        f"{ruleset} {command_type}.{name}"
        for ruleset in available()
        for command_type, (model, _) in commands_for(ruleset).items() if model.gm_only
        for name, info in model.model_fields.items()
        if any(isinstance(m, (Owned, GmOnly, OwnerOf)) for m in (*info.metadata, *_in_union(info.annotation)))
    ]
    assert twice == []


@pytest.mark.slow
def test_a_player_is_refused_through_the_command_line_naming_the_line_and_field(tmp_path):
    commands = tmp_path / "attack.jsonl"
    commands.write_text("\n".join([
        '{"type": "create_campaign", "campaign": "c", "ruleset": "pirates"}',
        '{"type": "create_character", "campaign": "c", "name": "Bo", "player": "bo", "luck": 2,'
        ' "stats": {"audacity": 0, "guile": 0, "foresight": 0, "reputation": 0}}',
        '{"type": "take_damage", "campaign": "c", "actor": "player:anna", "character": "Bo", "harm": 1,'
        ' "absorb_with_luck": true}',
    ]) + "\n")
    store = f"sqlite:///{tmp_path / 'c.db'}"
    run = subprocess.run([sys.executable, "-m", "rollbook.cli", "run", str(commands), "--store", store],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert "line 3" in run.stderr + run.stdout and "character: player:anna cannot act for 'Bo'" in run.stderr + run.stdout
    sheet = subprocess.run([sys.executable, "-m", "rollbook.cli", "sheet", "Bo", "-c", "c", "--json",
                            "--store", store], capture_output=True, text=True, check=True)
    assert '"luck": 2' in sheet.stdout


def _cli(*args, store, stdin=None):
    return subprocess.run([sys.executable, "-m", "rollbook.cli", *args, "--store", store],
                          capture_output=True, text=True, input=stdin)


def _one_roll(tmp_path, name="Anna"):
    import json

    store = f"sqlite:///{tmp_path / 'c.db'}"
    lines = [
        {"type": "create_campaign", "campaign": "c", "ruleset": "pirates"},
        {"type": "create_character", "campaign": "c", "name": name, "luck": 1,
         "stats": {"audacity": 1, "guile": 0, "foresight": 0, "reputation": 0}},
        {"type": "roll_move", "campaign": "c", "id": "r1", "character": name, "stat": "audacity", "dice": [3, 4]},
    ]
    assert _cli("run", "-", store=store, stdin="\n".join(json.dumps(line) for line in lines)).returncode == 0
    return store


@pytest.mark.slow
def test_a_dispute_needs_an_auditor_with_a_plain_name(tmp_path):
    store = _one_roll(tmp_path)
    for actor in ("auditor:", "auditor:kim lee", "auditor:kim\nrollbook: applied", "auditor:\x1b[2Jkim", "player:kim"):
        refused = _cli("dispute", "r1", "-c", "c", "--reason", "typo", "--actor", actor, "--faces", "6,6", store=store)
        assert refused.returncode == 1, actor
        assert "cannot dispute a roll" in refused.stderr and "\x1b" not in refused.stderr
        assert _cli("revisions", "-c", "c", "--json", store=store).stdout.count('"revision"') <= 1
    ruled = _cli("dispute", "r1", "-c", "c", "--reason", "typo", "--actor", "auditor:kim", "--faces", "6,6", store=store)
    assert ruled.returncode == 0, ruled.stderr


@pytest.mark.slow
def test_control_characters_in_names_never_reach_the_terminal_raw(tmp_path):
    name = "Bo\x1b[2J\x9b31m"
    store = _one_roll(tmp_path, name=name)
    outputs = [_cli(*verb, "-c", "c", store=store) for verb in (("sheet", name), ("rolls",), ("log",), ("limits",))]
    refused = _cli("run", "-", store=store, stdin='{"type": "take_damage", "campaign": "c", "character": "X\\u001b[2J",'
                   ' "harm": 1}')
    assert refused.returncode == 1
    for output in (*outputs, refused):
        assert "\x1b" not in output.stdout + output.stderr and "\x9b" not in output.stdout + output.stderr
    assert "Bo\\x1b[2J" in outputs[0].stdout and "X\\x1b[2J" in refused.stderr
    as_json = _cli("sheet", name, "-c", "c", "--json", store=store).stdout
    assert "\x9b" not in as_json and json_name(as_json) == name


def json_name(text):
    import json

    return json.loads(text)["name"]
