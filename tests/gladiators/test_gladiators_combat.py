"""The combat turn (§3, §6): tactics, modifiers, the GM's declared totals, damage, squads, first strike."""

from __future__ import annotations

import pytest

from rollbook.testing import ANY, events

from .gladiator_builders import END, START, enemy, gladiator, turn


@pytest.fixture
def arena(campaign):
    """Marcus of §3.2 against a squad of three barbarians (8 health each), battle 1 open."""
    campaign.of("gladiators")
    campaign.given(gladiator(player="marcus"), enemy("Barbarians", 8, 3), START)
    return campaign


def rolls_of(campaign, command_id):
    rolls = {r["id"]: r for r in campaign.rolls()}
    return rolls[command_id], rolls[f"{command_id}#2"]


def test_the_first_example_of_section_3_2(arena):
    # Strong attack, Lunge + Parry: attack [5, 3] + 15 = 23, defence [4] + 16 = 20; GM 18 / 15.
    arena.when(turn([5, 3, 4], attack_move="Lunge", defence_move="Parry", gm_attack=18, gm_defence=15, id="x1"))
    arena.then(
        events.Ticked(scope="move", label="turn", number=1),
        events.LimitUsed(limit="attack_signature_move", instance="turn 1", holder="Marcus"),
        events.LimitUsed(limit="defence_signature_move", instance="turn 1", holder="Marcus"),
        events.DiceRolled(roll=ANY),
        events.DiceRolled(roll=ANY),
        events.Engaged(enemy="Barbarians", battle=1),
        events.HealthLost(enemy="Barbarians", amount=8, health=16, turn=1),
    )
    attack, defence = rolls_of(arena, "x1")
    assert (attack["faces"], attack["total"], attack["outcome"], attack["versus"]) == ([5, 3], 23, "hit", 15)
    assert (defence["faces"], defence["total"], defence["outcome"], defence["versus"]) == ([4], 20, "held", 18)
    assert {m["source"]: m["value"] for m in attack["modifiers"]} == {
        "main skill Fencing": 6, "offensive style": 3, "signature move Lunge": 3, "Strength (very_good)": 3,
    }
    assert {m["source"]: m["value"] for m in defence["modifiers"]} == {
        "main skill Fencing": 6, "class skill Shield": 4, "signature move Parry": 3, "Agility (very_good)": 3,
    }


@pytest.mark.parametrize(
    ("tactic", "attack_faces", "defence_faces"),
    [("total_defence", [], [2, 6, 1]), ("strong_defence", [2], [6, 1]),
     ("strong_attack", [2, 6], [1]), ("total_attack", [2, 6, 1], [])],
)
def test_the_tactic_splits_3d6_attack_dice_first(arena, tactic, attack_faces, defence_faces):
    arena.when(turn([2, 6, 1], tactic, id="x1"))
    attack, defence = rolls_of(arena, "x1")
    assert (attack["faces"], defence["faces"]) == (attack_faces, defence_faces)
    assert attack["notation"] == f"{len(attack_faces)}d6" and defence["notation"] == f"{len(defence_faces)}d6"


def test_a_zero_dice_side_still_gets_its_modifiers(arena):
    # §3.2 example 2: total defence, no attack move: attack 0 + 12 = 12 (L22 «в том числе и нулевых»).
    arena.when(turn([2, 6, 1], "total_defence", defence_move="Parry", gm_attack=24, gm_defence=10, id="x1"))
    attack, defence = rolls_of(arena, "x1")
    assert (attack["total"], defence["total"]) == (12, 25)
    assert arena.sheet("Barbarians")["health"] == 22 and arena.sheet("Marcus")["health"] == 25


def test_motivation_and_a_token_add_to_attack_and_defence_after_the_roll(arena):
    # §3.2 example 3: [6, 6, 2] + 15 + 4 + 1 = 34; defence 0 + 16 + 4 + 1 = 21; GM 24 / 17.
    arena.given({"type": "award_roleplay", "character": "Marcus", "amount": 1})
    arena.when(turn([6, 6, 2], "total_attack", attack_move="Lunge", defence_move="Parry", use_motivation=True,
                    spend_tokens=1, gm_attack=24, gm_defence=17, id="x1"))
    arena.then(
        events.Ticked(), events.LimitUsed(), events.LimitUsed(), events.DiceRolled(), events.DiceRolled(),
        events.MotivationUsed(character="Marcus", turn=1, value=4),
        events.TokensSpent(character="Marcus", amount=1, left=0),
        events.RollModified(roll="x1", total=33, outcome="hit"),
        events.RollModified(roll="x1#2", total=20, outcome="breached"),
        events.RollModified(roll="x1", total=34, outcome="hit"),
        events.RollModified(roll="x1#2", total=21, outcome="breached"),
        events.Engaged(),
        events.HealthLost(enemy="Barbarians", amount=17, health=7),
        events.HealthLost(character="Marcus", amount=3, health=22),
    )
    attack, defence = rolls_of(arena, "x1")
    assert (attack["total"], defence["total"]) == (34, 21)
    assert arena.sheet("Marcus")["motivation_used"] is True


def test_declared_before_the_roll_the_one_time_modifiers_are_part_of_it(campaign):
    campaign.of("gladiators", one_time_modifiers="before_roll")
    campaign.given(gladiator(), enemy("Barbarians", 8, 3), START)
    campaign.when(turn([6, 6, 2], "total_attack", use_motivation=True, gm_attack=0, gm_defence=0, id="x1"))
    campaign.then(
        events.Ticked(), events.MotivationUsed(value=4), events.DiceRolled(), events.DiceRolled(),
        events.Engaged(), events.HealthLost(enemy="Barbarians", amount=30), events.Beaten(enemy="Barbarians"),
    )
    attack, _ = rolls_of(campaign, "x1")
    assert {"source": "motivation", "value": 4} in attack["modifiers"] and attack["changes"] == []


def test_expert_skills_and_a_great_attribute_when_the_gm_rules_them_related(campaign):
    campaign.of("gladiators")
    campaign.given(
        gladiator(attributes={"Strength": "great"}, style="defensive",
                  skills={"Wrestling": "expert", "Riding": "specialist", "Swimming": "specialist"},
                  class_skill={"name": "Drill", "applies_to": "attack"}),
        enemy(), START,
    )
    campaign.when(turn([1, 1, 1], attack_related=["Strength", "Wrestling"], defence_related=["Riding", "Swimming"],
                       id="x1"))
    attack, defence = rolls_of(campaign, "x1")
    # attack: 2 + Master 6 + class 4 + Great 6 + Expert 4; defence: 1 + 6 + defensive style 3 + 2 + 2.
    assert (attack["total"], defence["total"]) == (22, 14)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"attack_move": "Parry"}, r"attack_move: Parry is Marcus's defence signature move, not an attack move \(L6\)"),
        ({"defence_move": "Lunge"}, r"defence_move: .*not a defence move \(L6\)"),
        ({"attack_move": "Haymaker"}, r"attack_move: 'Haymaker' is not one of Marcus's signature moves.*L6"),
        ({"attack_related": ["Charm"]}, r"attack_related: 'Charm' is neither a raised attribute nor an additional skill"),
        ({"attack_related": ["Strength", "Strength"]}, r"attack_related: Strength named twice"),
        ({"defence_related": ["Fencing"]}, r"defence_related: 'Fencing' is neither"),
        ({"spend_tokens": 1}, r"spend_tokens: Marcus has 0 role-play tokens and cannot spend 1 \(L27-L28\)"),
        ({"enemy": "Nobody"}, r"enemy: no enemy named 'Nobody'"),
        ({"character": "Barbarians"}, r"character: no character named 'Barbarians'"),
        ({"dice": [1, 2]}, r"dice:"),
        ({"dice": [1, 2, 3, 4]}, r"dice: 4 faces given but the command rolled 3"),
        ({"dice": [1, 2, 7]}, r"dice: face 3 is 7"),
        ({"tactic": "berserk"}, r"tactic"),
    ],
)
def test_a_refused_turn_changes_nothing(arena, fields, message):
    before = arena.events(bookkeeping=True)
    arena.when({**turn([3, 3, 3]), **fields})
    arena.then_rejected(match=message)
    assert arena.events(bookkeeping=True) == before


def test_a_good_attribute_and_endurance_give_no_roll_modifier(campaign):
    campaign.of("gladiators")
    campaign.given(gladiator(attributes={"Endurance": "very_good", "Agility": "very_good", "Wits": "good"}),
                   enemy(), START)
    campaign.when(turn([3, 3, 3], attack_related=["Endurance"], defence_related=[]))
    campaign.then_rejected(match=r"Endurance is Endurance: raised, it gives health instead of a roll modifier \(L3; G-1\)")
    campaign.when(turn([3, 3, 3], attack_related=["Wits"], defence_related=[]))
    campaign.then_rejected(match=r"Wits is Good: only raised attributes modify rolls \(L3\)")


def test_motivation_is_one_time_until_the_gm_grants_it_again(arena):
    arena.given(turn([1, 1, 1], use_motivation=True))
    arena.when(turn([1, 1, 1], use_motivation=True))
    arena.then_rejected(match=r"use_motivation: Marcus has already used the motivation.*\(L9; G-3\)")
    arena.given(END, START)
    arena.when(turn([1, 1, 1], use_motivation=True))
    arena.then_rejected(match="already used")
    arena.when({"type": "grant_motivation", "character": "Marcus"})
    arena.then(events.MotivationRestored(character="Marcus", reason="granted again by the GM (G-3 (a))"))
    arena.when(turn([1, 1, 1], use_motivation=True))
    arena.then(
        events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.MotivationUsed(character="Marcus", value=4),
        events.RollModified(), events.RollModified(), events.Engaged(battle=2), events.HealthLost(enemy="Barbarians"),
    )


def test_a_grant_of_unused_motivation_is_refused(arena):
    arena.when({"type": "grant_motivation", "character": "Marcus"})
    arena.then_rejected(match=r"motivation is unused.*G-3")


def test_under_g3_b_motivation_refreshes_when_the_battle_ends(campaign):
    campaign.of("gladiators", motivation_refresh="battle")
    campaign.given(gladiator(), enemy(), START, turn([1, 1, 1], use_motivation=True, gm_attack=40, gm_defence=40))
    campaign.when(END)
    campaign.then(
        events.HealthRestored(character="Marcus"),
        events.MotivationRestored(character="Marcus", reason="the battle ended (G-3 (b))"),
        events.ScopeEnded(scope="battle", number=1),
    )
    assert campaign.sheet("Marcus")["motivation_used"] is False


def test_damage_is_never_negative(arena):
    arena.when(turn([6, 6, 6], "strong_defence", gm_attack=0, gm_defence=40))
    arena.then(events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged())
    assert arena.sheet("Marcus")["health"] == 25 and arena.sheet("Barbarians")["health"] == 24


def test_the_players_first_blow_lands_first_in_a_battle(arena):
    # G-9 (b'): a foe beaten by the first blow of the battle strikes no more that turn.
    arena.when(turn([6, 6, 6], "total_attack", gm_attack=40, gm_defence=0, standing=0))
    arena.then(
        events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(battle=1),
        events.HealthLost(enemy="Barbarians", amount=30, health=-6), events.Beaten(enemy="Barbarians", turn=1),
    )
    assert arena.sheet("Marcus")["health"] == 25
    squad = arena.sheet("Barbarians")
    assert (squad["health"], squad["standing"], squad["beaten"]) == (-6, 0, True)


def test_after_the_first_turn_both_losses_apply(arena):
    arena.given(turn([1, 1, 1], gm_attack=0, gm_defence=40))
    # Total attack without a defence move: the defence is 0 + 6 + 4 + 3 = 13.
    arena.when(turn([6, 6, 6], "total_attack", gm_attack=37, gm_defence=0))
    arena.then(
        events.Ticked(), events.DiceRolled(), events.DiceRolled(),
        events.HealthLost(enemy="Barbarians", amount=30), events.Beaten(enemy="Barbarians"),
        events.HealthLost(character="Marcus", amount=24, health=1),
    )


def test_under_g9_a_the_first_turn_is_simultaneous(campaign):
    campaign.of("gladiators", first_strike="simultaneous")
    campaign.given(gladiator(), enemy("Barbarians", 8, 3), START)
    campaign.when(turn([6, 6, 6], "total_attack", gm_attack=60, gm_defence=0))
    campaign.then(
        events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(),
        events.HealthLost(enemy="Barbarians", amount=30), events.Beaten(enemy="Barbarians"),
        events.HealthLost(character="Marcus", amount=47, health=-22), events.Beaten(character="Marcus", turn=1),
    )
    assert campaign.sheet("Marcus")["beaten"] is True


def test_each_foe_is_engaged_once_in_each_battle(arena):
    arena.given(enemy("Champion", 60), turn([1, 1, 1], enemy="Champion"), END, START)
    arena.when(turn([1, 1, 1], enemy="Champion", gm_attack=0, gm_defence=60))
    arena.then(events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(enemy="Champion", battle=2))


def test_a_beaten_gladiator_fights_no_more_until_the_battle_ends(arena):
    arena.given(turn([1, 1, 1], gm_attack=0, gm_defence=40), turn([1, 1, 1], "total_attack", gm_attack=60, gm_defence=40))
    assert arena.sheet("Marcus")["beaten"] is True
    arena.when(turn([1, 1, 1]))
    arena.then_rejected(match=r"character: Marcus is beaten \(health -22\) until the battle ends")
    arena.when(END)
    arena.then(events.HealthRestored(character="Marcus", health=25), events.ScopeEnded(scope="battle"))
    assert arena.sheet("Marcus")["beaten"] is False


def test_a_beaten_foe_is_not_fought(arena):
    arena.given(turn([6, 6, 6], "total_attack", gm_defence=0))
    arena.when(turn([1, 1, 1]))
    arena.then_rejected(match=r"enemy: Barbarians is already beaten")


def test_a_turn_is_fought_in_a_battle(campaign):
    campaign.of("gladiators")
    campaign.given(gladiator(), enemy())
    campaign.when(turn([1, 1, 1]))
    campaign.then_rejected(match=r"a combat turn is fought in a battle \(L17, L22\); start_battle first")


def test_a_player_fights_only_with_his_own_gladiator(arena):
    arena.given(gladiator("Livia", player="livia"))
    arena.when({**turn([1, 1, 1], character="Livia"), "actor": "player:marcus"})
    arena.then_rejected(match="player:marcus cannot act for 'Livia'")
    arena.when({**turn([1, 1, 1]), "actor": "player:marcus"})
    arena.then(events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(), events.HealthLost(amount=4))


# --- squads (L23) -------------------------------------------------------------------------


def test_the_gm_reports_how_many_of_the_squad_still_stand(arena):
    arena.when(turn([6, 6, 6], "total_attack", gm_defence=20, standing=2))
    arena.then(
        events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(),
        events.HealthLost(enemy="Barbarians", amount=10, health=14),
        events.StandingReported(enemy="Barbarians", standing=2),
    )
    arena.when({"type": "report_standing", "enemy": "Barbarians", "standing": 1})
    arena.then(events.StandingReported(enemy="Barbarians", standing=1))
    assert arena.sheet("Barbarians")["standing"] == 1


@pytest.mark.parametrize(
    ("standing", "message"),
    [(3, r"standing: Barbarians has 1 standing; the count never increases"),
     (0, r"standing: Barbarians has 14 health left, so at least one of it still stands")],
)
def test_a_standing_count_that_cannot_be_is_refused(arena, standing, message):
    arena.given(turn([6, 6, 6], "total_attack", gm_defence=20, standing=1))
    arena.when(turn([1, 1, 1], gm_defence=40, standing=standing))
    arena.then_rejected(match=message)


def test_no_one_of_a_beaten_squad_stands(arena):
    arena.when(turn([6, 6, 6], "total_attack", gm_defence=0, standing=1))
    arena.then_rejected(match=r"standing: Barbarians is beaten by this turn \(health -6\), so none of it stands")


def test_a_single_foe_has_no_standing_count(arena):
    arena.given(enemy("Champion", 20))
    arena.when({"type": "report_standing", "enemy": "Champion", "standing": 1})
    arena.then_rejected(match=r"Champion is a single foe; only a squad's standing count is reported \(L23\)")


def test_only_the_gm_reports_standing(arena):
    arena.when({"type": "report_standing", "enemy": "Barbarians", "standing": 2, "actor": "player:marcus"})
    arena.then_rejected(match="only the GM")


# --- role-play modifiers (L25-L30) --------------------------------------------------------


def test_a_slaughtered_squad_earns_one_token_per_fighter(arena):
    arena.given(turn([6, 6, 6], "total_attack", gm_defence=0))
    arena.when({"type": "award_roleplay", "character": "Marcus", "amount": 1, "enemy": "Barbarians"})
    arena.then_rejected(match=r"amount: .*\+1 per fighter in it, not per squad: 3, not 1 \(L30\)")
    arena.when({"type": "award_roleplay", "character": "Marcus", "amount": 3, "enemy": "Barbarians"})
    arena.then(events.TokensAwarded(character="Marcus", amount=3, reason="slaughter of the squad Barbarians"))


def test_a_victory_over_a_stronger_single_foe_earns_what_the_gm_multiplies(arena):
    arena.given(enemy("Champion", 1), turn([6, 6, 6], "total_attack", enemy="Champion", gm_defence=0))
    arena.when({"type": "award_roleplay", "character": "Marcus", "amount": 5, "enemy": "Champion"})
    arena.then(events.TokensAwarded(character="Marcus", amount=5, reason="victory over Champion"))


def test_an_award_for_a_foe_still_fighting_is_refused(arena):
    arena.when({"type": "award_roleplay", "character": "Marcus", "amount": 3, "enemy": "Barbarians"})
    arena.then_rejected(match=r"enemy: Barbarians is not beaten; the award is for a slaughter or a victory \(L30\)")


@pytest.mark.parametrize("fields", [{"amount": 0}, {"actor": "player:marcus"}])
def test_awards_are_positive_and_the_gms(arena, fields):
    arena.when({"type": "award_roleplay", "character": "Marcus", "amount": 1, **fields})
    arena.then_rejected()


def test_several_tokens_in_one_turn_and_kept_between_battles(arena):
    # G-4: several tokens may be used in one turn, each +1 to attack and defence; unused ones are kept.
    arena.given({"type": "award_roleplay", "character": "Marcus", "amount": 4}, END, START)
    assert arena.sheet("Marcus")["roleplay_tokens"] == 4
    arena.when(turn([1, 1, 1], "total_defence", spend_tokens=3, gm_attack=0, gm_defence=99, id="x1"))
    attack, defence = rolls_of(arena, "x1")
    assert (attack["total"], defence["total"]) == (12 + 3, 3 + 16 - 3 + 3)
    assert arena.sheet("Marcus")["roleplay_tokens"] == 1


# --- turns and battles --------------------------------------------------------------------


def test_each_turn_is_a_turn_on_the_timeline_and_its_limits_reset(arena):
    arena.given(turn([1, 1, 1], attack_move="Lunge", gm_defence=40))
    arena.when(turn([1, 1, 1], attack_move="Pommel strike", gm_defence=40))
    arena.then(
        events.Ticked(scope="move", label="turn", number=2),
        events.LimitUsed(limit="attack_signature_move", instance="turn 2"),
        events.DiceRolled(), events.DiceRolled(),
    )


def test_health_is_restored_between_battles(arena):
    arena.given(turn([1, 1, 1], gm_attack=30, gm_defence=40))
    assert arena.sheet("Marcus")["health"] == 25 - (30 - (1 + 16 - 3))
    arena.when(END)
    arena.then(events.HealthRestored(character="Marcus", health=25), events.ScopeEnded(scope="battle", label="battle"))
    arena.when(START)
    arena.then(events.ScopeStarted(scope="battle", number=2))
    assert arena.sheet("Marcus")["health"] == 25


def test_a_higher_defeat_threshold_under_g10_option(campaign):
    campaign.of("gladiators", beaten_at=5)
    campaign.given(gladiator(), enemy("Champion", 20), START)
    campaign.when(turn([6, 6, 6], "total_attack", enemy="Champion", gm_defence=15))
    campaign.then(events.Ticked(), events.DiceRolled(), events.DiceRolled(), events.Engaged(),
                  events.HealthLost(enemy="Champion", amount=15, health=5), events.Beaten(enemy="Champion"))
