"""Who is present (issue 22): a battle's participants (L130: «участники боя») and the heroes in play in
an issue (L118: «количеству героев в начале игры»; H-9). Only they are in the initiative order, act in
its pages and have their Resolve renewed; without a list, everyone, as before."""

from __future__ import annotations

from pathlib import Path

from rollbook.testing import ANY, events
from rollbook.testing.cli import CliCampaign

from .heroes_builders import BLAST, hero

#: Fast (Edge 9) would act first (L126-L128), but he is elsewhere: the battle is Slow's against Boss.
ROSTER = [hero("Fast", player="fay", agility=6, powers={"Blast": BLAST}),
          hero("Slow", player="sam", powers={"Blast": BLAST}), hero("Boss", role="villain")]
OPEN = [{"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}]
SLOW_AGAINST_BOSS = {"type": "start_battle", "characters": ["Slow", "Boss"]}


def attack(attacker: str, target: str, **fields: object) -> dict[str, object]:
    return {"type": "attack", "attacker": attacker, "target": target, "trait": "Blast", **fields}


def test_an_absent_hero_is_not_in_the_order_and_needs_no_pass(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, SLOW_AGAINST_BOSS)
    campaign.when({"type": "next_page"})
    campaign.then(events.Ticked(), events.InitiativeSet(page=1, order=[["Slow"], ["Boss"]],
                                                        edges={"Slow": 6, "Boss": 6}))
    campaign.dice(*[1] * 9).given(attack("Slow", "Boss"))  # Fast did not have to pass first
    assert len(campaign.rolls()) == 2
    campaign.when(attack("Fast", "Boss"))
    campaign.then_rejected(match=r"Fast is not in battle 1: the GM brings him in with `join_battle`")
    campaign.when(attack("Boss", "Fast", trait="strength"))
    campaign.then_rejected(match=r"Fast is not in battle 1")


def test_without_a_list_everyone_standing_is_in_the_battle_as_before(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, {"type": "start_battle"}, {"type": "next_page"})
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Fast"], ["Slow"], ["Boss"]]
    campaign.when({"type": "join_battle", "character": "Fast"})
    campaign.then_rejected(match="started without `characters`: everyone standing is in it")


def test_a_hero_joining_is_in_the_order_from_the_next_page(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, SLOW_AGAINST_BOSS, {"type": "next_page"})
    campaign.when({"type": "join_battle", "character": "Fast", "actor": "player:fay"})
    campaign.then(events.CharacterJoinedBattle(character="Fast"))
    # He joined after this page's order was set: he acts in it without holding up anyone (L126).
    campaign.dice(*[1] * 9).given(attack("Fast", "Boss"))
    campaign.given({"type": "next_page"})
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Fast"], ["Slow"], ["Boss"]]
    campaign.when({"type": "join_battle", "character": "Fast"})
    campaign.then_rejected(match="Fast is already in battle 1")


def test_a_hero_leaving_is_out_of_the_order_and_a_new_battle_starts_afresh(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, {"type": "start_battle", "characters": ["Fast", "Slow", "Boss"]},
                   {"type": "next_page"}, {"type": "leave_battle", "character": "Fast"}, {"type": "next_page"})
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Slow"], ["Boss"]]
    campaign.given({"type": "end_battle"}, {"type": "start_battle"}, {"type": "next_page"})
    assert campaign.campaign_sheet()["initiative"]["order"] == [["Fast"], ["Slow"], ["Boss"]]


def test_a_player_brings_only_his_own_hero_into_a_battle(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, SLOW_AGAINST_BOSS)
    campaign.when({"type": "join_battle", "character": "Fast", "actor": "player:sam"})
    campaign.then_rejected(match="player:sam cannot act for 'Fast', who belongs to player:fay")
    campaign.when({"type": "leave_battle", "character": "Slow", "actor": "player:fay"})
    campaign.then_rejected(match="player:fay cannot act for 'Slow', who belongs to player:sam")


def test_a_player_passes_only_his_own_heros_turn(campaign) -> None:
    """`pass` names its hero as the other actions do: the ownership check names the field."""
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, {"type": "start_battle"}, {"type": "next_page"})
    campaign.when({"type": "pass", "character": "Fast", "actor": "player:sam"})
    campaign.then_rejected(match=r"^character: player:sam cannot act for 'Fast', who belongs to player:fay")


def test_a_battle_names_characters_of_the_campaign_once_each(campaign) -> None:
    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN)
    campaign.when({"type": "start_battle", "characters": ["Slow", "Nobody"]})
    campaign.then_rejected(match="Nobody")
    campaign.when({"type": "start_battle", "characters": ["Slow", "Slow"]})
    campaign.then_rejected(match="Slow named twice")


def test_an_issue_renews_the_resolve_of_the_heroes_in_play_only(campaign) -> None:
    """L19: the starting Resolve is renewed at each new issue; L118: Adversity = the heroes at its start (H-9)."""
    campaign.of("heroes", trait_limit=8)
    campaign.given(hero("Ann", strength=7), hero("Bea", strength=7), hero("Boss", role="villain"),
                   *OPEN, {"type": "gain_resolve", "character": "Ann", "reason": "heroic"},
                   {"type": "gain_resolve", "character": "Bea", "reason": "heroic"}, {"type": "end_issue"})
    campaign.when({"type": "start_issue", "characters": ["Ann", "Boss"]})
    campaign.then(events.ScopeStarted(scope="chapter", label="issue", number=2),
                  events.ResolveRenewed(character="Ann", resolve=2, starting=2, reading="reset"),
                  events.ResolveRenewed(character="Boss", resolve=ANY, starting=ANY, reading="reset"),
                  events.AdversityRenewed(adversity=1, heroes=1))
    assert campaign.sheet("Bea")["resolve"] == 3  # not in play: her stock waits for her issue


def test_a_battle_with_its_participants_on_the_campaigns_own_dice_verifies(tmp_path: Path) -> None:
    table = CliCampaign(tmp_path, "heroes")
    # Boss's Health 8 outlasts Slow's Blast 6 (6 successes at most), whatever the seed rolls.
    table.run(*ROSTER[:2], hero("Boss", role="villain", stamina=8, strength=8), *OPEN, SLOW_AGAINST_BOSS,
              {"type": "next_page"}, attack("Slow", "Boss", id="slow-hits", actor="player:sam"),
              {"type": "join_battle", "character": "Fast", "actor": "player:fay"}, {"type": "next_page"})
    refused = table.refused(attack("Slow", "Boss", actor="player:sam"))
    assert refused["reason"].startswith("Fast (Edge 9) acts before Slow in page 2")
    table.run(attack("Fast", "Boss", id="fast-hits", actor="player:fay"))
    rolls = table.rolls()
    assert [r["id"] for r in rolls] == ["slow-hits", "slow-hits#2", "fast-hits", "fast-hits#2"]
    assert all(r["source"] == "hmac" for r in rolls)
    verified = table.verify()
    assert verified.exit_code == 0, verified.output


def test_a_scene_end_visits_only_the_characters_written_since_the_last_one(campaign) -> None:
    """Issue 22: the roster index. Everyone else had nothing pending at the last scene end, and
    nothing has changed him since."""
    from rollbook.domain.ids import member_id

    campaign.of("heroes")
    campaign.given(*ROSTER, *OPEN, {"type": "end_scene"}, {"type": "start_scene"},
                   {"type": "gain_resolve", "character": "Slow", "reason": "flaw"})
    by_id = {member_id(campaign.name, "character", n): n for n in ("Fast", "Slow", "Boss")}
    loads, load = [], campaign.service.load
    campaign.service.load = lambda aggregate_id: loads.append(by_id.get(aggregate_id)) or load(aggregate_id)
    campaign.when({"type": "end_scene"})
    assert [name for name in loads if name] == ["Slow"]
