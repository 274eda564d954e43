"""The odds of a heroes roll before it is rolled: success pools against a difficulty or a defender (L34-L41, L186)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rollbook.domain.errors import CommandRejected
from rollbook.domain.rulesets.heroes import rules
from rollbook.testing.odds import ROLLS, agrees, rolled_many

from .heroes_builders import BLAST, hero, in_battle, in_scene

F = Fraction


def successes_of(dice: int) -> Counter:
    """Successes of every face combination of `dice` plain d6, counted by brute force (L34)."""
    return Counter(sum(rules.SUCCESSES[f] for f in faces) for faces in product(range(1, 7), repeat=dice))


def fractions(odds: dict) -> dict[str, Fraction]:
    return {name: Fraction(text) for name, text in odds["fractions"].items()}


def check(character: str = "Ann", trait: str = "strength", **fields) -> dict:
    return {"type": "roll_check", "character": character, "trait": trait, **fields}


def test_a_3_die_pool_against_difficulty_1(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", strength=3)))
    odds = campaign.odds(check(difficulty=1))
    by_count = successes_of(3)
    net = {s - 1: F(n, 216) for s, n in by_count.items()}
    assert fractions(odds) == {
        "opponent_narrates": F(0),
        "opponent_narrates_with_embellishment": net[-1] + net[0],  # 0 or 1 success
        "hero_narrates_with_embellishment": net[1] + net[2],
        "hero_narrates": sum((p for n, p in net.items() if n >= 3), F(0)),
    }
    assert fractions(odds)["opponent_narrates_with_embellishment"] == F(81, 216)
    assert odds["distribution"]["net"]["-1"] == pytest.approx(1 / 8)
    assert odds["difficulty"] == 1 and odds["pools"][0]["count"] == 3


def test_the_traditional_table_names_the_same_bands(campaign) -> None:
    campaign.of("heroes", outcome_table="traditional")
    campaign.given(*in_scene(hero("Ann", strength=3)))
    assert set(campaign.odds(check(difficulty=1))["outcomes"]) == set(rules.OUTCOME_TABLES["traditional"])


def test_an_opposed_check_is_the_difference_of_two_pools(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", strength=2), hero("Bob", strength=1)))
    odds = campaign.odds(check(opponent="Bob", opponent_trait="strength"))
    mine, theirs = successes_of(2), successes_of(1)
    ahead = sum(F(a * b, 36 * 6) for sa, a in mine.items() for sb, b in theirs.items() if sa - sb >= 3)
    assert fractions(odds)["hero_narrates"] == ahead


def test_a_defining_moment_explodes_sixes(campaign) -> None:
    """L77: in his Moment a 6 (two successes) is rolled again; one die reaches 3 successes on 6 then 2, 4 or 6."""
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", will=1)), {"type": "declare_defining_moment", "character": "Ann",
                                                     "effort": "mental"})
    odds = campaign.odds(check(trait="will", difficulty=2))
    assert odds["pools"][0]["explode"] is True and odds["explode_depth"] >= 8
    assert fractions(odds)["hero_narrates_with_embellishment"] + fractions(odds)["hero_narrates"] == F(1, 12)
    assert odds["distribution"]["successes"]["2"] == pytest.approx(1 / 12)


def test_an_attack_is_the_attack_pool_against_the_best_defence(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", agility=2, powers={"Blast": {**BLAST, "rank": 3}}), hero("Bob", agility=2)))
    odds = campaign.odds({"type": "attack", "attacker": "Ann", "target": "Bob", "trait": "Blast"})
    attack, defence = (pool["count"] for pool in odds["pools"])
    assert odds["pools"][1]["role"] == "defence"
    mine, theirs = successes_of(attack), successes_of(defence)
    held = sum(F(a * b, 6 ** (attack + defence)) for sa, a in mine.items() for sb, b in theirs.items() if sa <= sb)
    assert fractions(odds) == {"no_damage": held, "damage": 1 - held}
    assert campaign.sheet("Bob")["health"] == campaign.sheet("Bob")["max_health"]  # nothing dealt by asking


def test_a_passive_protector_takes_what_gets_past_him(campaign) -> None:
    """L259: against a protector's passive defence the attack hurts the protector, by its net over his roll."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Tank", agility=1, stamina=6, strength=6), hero("Ann"),
                              hero("Bob", agility=2, powers={"Blast": {**BLAST, "rank": 3}})),
                   {"type": "protect", "character": "Tank", "ward": "Ann"}, {"type": "next_page"})
    odds = campaign.odds({"type": "attack", "attacker": "Bob", "target": "Ann", "trait": "Blast"})
    assert [(p["character"], p["role"]) for p in odds["pools"]] == [("Bob", "attack"), ("Tank", "defence")]
    mine, theirs = successes_of(odds["pools"][0]["count"]), successes_of(odds["pools"][1]["count"])
    total = 6 ** (odds["pools"][0]["count"] + odds["pools"][1]["count"])
    past = sum(F(a * b, total) for sa, a in mine.items() for sb, b in theirs.items() if sa > sb)
    assert F(odds["fractions"]["damage"]) == past
    assert odds["distribution"]["damage to Ann"] == {"0": 1.0}
    assert sum(odds["distribution"]["damage to Tank"].values()) == pytest.approx(1.0)


def test_a_charge_against_a_passive_defence_rolls_the_chargers_backlash(campaign) -> None:
    """L252: the charger's own passive defence against his roll; he takes what it lets through, less what he dealt."""
    campaign.of("heroes")
    campaign.given(*in_battle(hero("Ann", strength=3), hero("Tank", agility=1, stamina=4)))
    odds = campaign.odds({"type": "attack", "attacker": "Ann", "target": "Tank", "trait": "strength", "charge": True})
    assert [(p["character"], p["role"]) for p in odds["pools"]] == [
        ("Ann", "attack"), ("Tank", "defence"), ("Ann", "defence")]
    attack, defence, own = (successes_of(p["count"]) for p in odds["pools"])
    total = 6 ** sum(p["count"] for p in odds["pools"])
    hurt = sum(F(a * d * o, total) for sa, a in attack.items() for sd, d in defence.items() for so, o in own.items()
               if max(0, sa - so) - max(0, sa - sd) > 0)
    assert 1 - odds["distribution"]["backlash"]["0"] == pytest.approx(float(hurt))
    assert sum(F(text) for text in odds["fractions"].values()) == 1


def test_a_team_attack_adds_the_nets_of_its_members(campaign) -> None:
    campaign.of("heroes", trait_limit=6)
    campaign.given(*in_battle(hero("Ann", strength=2), hero("Bea", strength=2), hero("Ogre", agility=1, stamina=6,
                                                                                     strength=6, will=6)),
                   {"type": "pass", "character": "Ogre"})  # a team attack comes at the page's end (L272)
    team = {"type": "team_attack", "target": "Ogre", "members": [
        {"attacker": "Ann", "trait": "strength", "explode": True}, {"attacker": "Bea", "trait": "strength"}]}
    odds = campaign.odds(team)
    assert [(p["character"], p["role"], p["explode"]) for p in odds["pools"]] == [
        ("Ann", "attack", True), ("Ogre", "defence", False), ("Bea", "attack", False), ("Ogre", "defence", False)]
    assert sum(fractions(odds).values()) == 1
    assert campaign.sheet("Ann")["resolve"] == campaign.sheet("Bea")["resolve"]  # the explosion is not paid


def test_a_player_asking_for_another_players_hero_is_refused(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", player="ann")))
    with pytest.raises(CommandRejected, match="player:bob cannot act for 'Ann'"):
        campaign.odds(check(actor="player:bob", difficulty=1))


def test_resolve_bought_before_the_roll_must_be_there(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", strength=3)))
    resolve = campaign.sheet("Ann")["resolve"]
    with_resolve = campaign.odds(check(difficulty=1, resolve=1))
    assert with_resolve["pools"][0]["count"] == 4
    with pytest.raises(CommandRejected, match="[Rr]esolve"):
        campaign.odds(check(difficulty=1, resolve=resolve + 1))


def test_the_rolled_checks_follow_the_odds(memory_campaign) -> None:
    """The real check, rolled 600 times with the campaign's seeded dice, lands in the bands as the odds say."""
    memory_campaign.of("heroes")
    memory_campaign.given(*in_scene(hero("Ann", strength=3)))
    odds, rolls = rolled_many(memory_campaign, check(difficulty=1))
    assert len(rolls) == ROLLS
    assert agrees([r["outcome"] for r in rolls], odds["fractions"])


def test_resolve_dice_bought_after_the_roll_have_no_odds_yet_and_say_so(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*in_scene(hero("Ann", strength=3)))
    campaign.dice(1, 1, 1).given(check(difficulty=1))
    resolve = campaign.sheet("Ann")["resolve"]
    with pytest.raises(CommandRejected, match="cannot give the odds of this roll"):
        campaign.odds({"type": "spend_resolve", "character": "Ann", "purpose": "dice"})
    assert campaign.sheet("Ann")["resolve"] == resolve
