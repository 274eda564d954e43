"""Each ruleset's moves as slash commands: the JSON Discord is given, and each one played through an interaction."""

import re

import pytest

from rollbook.integrations.members import Members
from rollbook.integrations.slash import (
    COMBINED_LENGTH, DESCRIPTION_LENGTH, MAX_CHOICES, MAX_OPTIONS, application_commands, combined_length, moves,
)

from .support import GLADIATORS_MARCUS, HEROES_SPARK, IMPLANT_VERA, MEMBERS, Interaction, option

NAME = re.compile(r"^[-_a-z0-9]{1,32}$")
ANNA = MEMBERS["anna"]
GM = MEMBERS["gm1"]

#: Each ruleset's campaign (set up by the GM, anna a player) and its moves played in order: (member, move, options).
GAMES = {
    "heroes": ([
        {**HEROES_SPARK, "player": "anna"},
        {"type": "create_character", "name": "Brute", "role": "villain",
         "abilities": {"strength": 6, "agility": 2, "stamina": 6, "intellect": 2, "perception": 2, "will": 2}},
        {"type": "start_story", "title": "The Brute Affair"}, {"type": "start_issue"},
    ], [
        (ANNA, "heroes-check", {"character": "Spark", "trait": "agility", "difficulty": 2}),
        (ANNA, "heroes-resolve", {"character": "Spark", "purpose": "dice", "amount": 1}),
        (GM, "heroes-attack", {"attacker": "Brute", "target": "Spark", "trait": "strength"}),
    ]),
    "implant": ([
        {**IMPLANT_VERA, "player": "anna", "weapons": {"pistol": {"kind": "ranged", "damage": "2d6", "rate_of_fire": 1}}},
        {"type": "create_character", "name": "Ganger", "wild_card": False,
         "attributes": {"strength": "d6", "agility": "d4", "intellect": "d4", "vigor": "d6", "spirit": "d4"},
         "skills": {"fighting": "d6"}},
        {"type": "start_scene", "title": "The alley"}, {"type": "start_battle", "enemies": ["Ganger"]},
        {"type": "start_turn", "character": "Vera"},
    ], [
        (ANNA, "implant-check", {"character": "Vera", "trait": "notice"}),
        (ANNA, "implant-benny", {"character": "Vera", "purpose": "reroll"}),
        (ANNA, "implant-attack", {"attacker": "Vera", "target": "Ganger", "kind": "ranged", "weapon": "pistol"}),
    ]),
    "gladiators": ([
        {**GLADIATORS_MARCUS, "player": "anna"},
        {"type": "create_enemy", "name": "Barbarians", "health": 8, "members": 3},
        {"type": "start_battle", "title": "The squad"},
    ], [
        (ANNA, "gladiators-turn", {"character": "Marcus", "enemy": "Barbarians", "tactic": "strong_attack",
                                   "attack_move": "Lunge", "gm_attack": 17, "gm_defence": 14}),
        (GM, "gladiators-award", {"character": "Marcus", "amount": 1}),
    ]),
}


def test_the_commands_are_what_discords_api_takes():
    commands = application_commands()
    names = [c["name"] for c in commands]
    assert len(names) == len(set(names)) and "rb" in names
    assert {m.name for m in moves()} >= {"pirates-move", "heroes-check", "implant-check", "gladiators-turn"}
    for command in commands:
        assert NAME.match(command["name"]) and 1 <= len(command["description"]) <= DESCRIPTION_LENGTH
        assert combined_length(command) <= COMBINED_LENGTH and len(command["options"]) <= MAX_OPTIONS
        options = [o for c in [command] for o in c["options"]]
        for group in [options, *[o.get("options", []) for o in options]]:
            required = [o.get("required", False) for o in group]
            assert required == sorted(required, reverse=True), f"/{command['name']}: required options come first"
            for o in group:
                assert NAME.match(o["name"]) and 1 <= len(o["description"]) <= DESCRIPTION_LENGTH
                assert len(o.get("choices", [])) <= MAX_CHOICES and not (o.get("choices") and o.get("autocomplete"))
    pirates = next(c for c in commands if c["name"] == "pirates-move")
    options = {o["name"]: o for o in pirates["options"]}
    assert [c["value"] for c in options["stat"]["choices"]] == ["audacity", "guile", "foresight", "reputation"]
    assert options["move"]["autocomplete"] and options["character"]["autocomplete"]
    assert options["luck_bonus"]["type"] == 5 and "dice" not in options and "actor" not in options
    trait = {o["name"]: o for o in next(c for c in commands if c["name"] == "implant-check")["options"]}["trait"]
    assert trait.get("autocomplete") and "choices" not in trait  # 28 traits: more than Discord's 25 choices


#: Implant's L64, said to a player whose seeded check came out a critical failure: no benny rerolls it.
CRITICAL_FAILURE_KEPT = "Refused: purpose: a critical failure cannot be rerolled (L64)"


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_each_rulesets_moves_are_played_through_discord(thread, ruleset):
    table = thread.table
    channel = f"13{len(ruleset):02d}000000000000009"
    setup, played = GAMES[ruleset]
    assert table.post("gm1", {"type": "create_campaign", "ruleset": ruleset, "title": ruleset}, campaign=ruleset).status_code == 201
    table.client.put(f"/campaigns/{ruleset}/members/anna", json={"role": "player"}, headers=table.headers("gm1"))
    for body in setup:
        assert table.post("gm1", body, campaign=ruleset).status_code == 201, body
    Members(table.state.store).bind(ruleset, channel, by="test")
    for member, name, options in played:
        interaction = Interaction(name, [option(k, v) for k, v in options.items()], member=member, channel=channel)
        answer = thread.send(interaction).json()
        if name == "implant-benny" and answer["data"].get("content") == CRITICAL_FAILURE_KEPT:
            continue  # the campaign's own dice rolled the check a critical failure (about 1 in 36): L64 holds
        assert answer["type"] == 4 and "flags" not in answer["data"], (name, answer)
        [posted] = [c["id"] for c in table.state.caught_up().commands(ruleset)
                    if c.get("via") == f"discord:{interaction.id}"]
        assert f"`{posted}`" in answer["data"]["content"]
    rolls = table.get("anna", f"/campaigns/{ruleset}/rolls").json()
    assert rolls and all(r["source"] == "hmac" for r in rolls)  # the campaign's own dice, salted by Discord
    owned = next(options for member, _, options in played if member == ANNA)
    first_own = next(name for member, name, _ in played if member == ANNA)
    mine = next(k for k in ("character", "attacker") if k in owned)
    theirs = {"heroes": "Brute", "implant": "Ganger", "gladiators": "Barbarians"}[ruleset]
    before = thread.stored()
    refused = thread.send(Interaction(first_own, [option(k, theirs if k == mine else v) for k, v in owned.items()],
                                      member=ANNA, channel=channel)).json()
    assert refused["data"].get("flags") == 64 and refused["data"]["content"].startswith("Refused")
    assert thread.stored() == before


def test_a_heroes_trait_is_completed_from_the_characters_sheet(thread):
    table = thread.table
    table.post("gm1", {"type": "create_campaign", "ruleset": "heroes", "title": "h"}, campaign="heroes")
    table.client.put("/campaigns/heroes/members/anna", json={"role": "player"}, headers=table.headers("gm1"))
    table.post("gm1", GAMES["heroes"][0][0], campaign="heroes")
    Members(table.state.store).bind("heroes", "1300000000000000077", by="test")
    asked = Interaction("heroes-check", [option("character", "Spark"), option("trait", "bla", focused=True)],
                        kind=4, channel="1300000000000000077")
    assert [c["value"] for c in thread.send(asked).json()["data"]["choices"]] == ["Energy Blast"]

