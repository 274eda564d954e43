"""A page's end visits only the present heroes written since the last page's end (the roster index,
issue 22): outside a battle the page concerns everyone (L11: pages of a scene where things happen
fast), yet only a hero written since can hold a page effect to count down (L195; H-11) or a desperate
Resolve to lapse (L103); in a battle with a cast the page ends for the fighters alone (L126, L130), and
the others keep what they hold until a page ends for them."""

from __future__ import annotations

from typing import Any

import pytest

from rollbook.domain.campaign import Campaign
from rollbook.testing import ANY, events
from tests.loads import counted_loads

from .heroes_builders import STUN, hero

CAST = ("Fast", "Slow", "Boss", "Extra1", "Extra2")
ROSTER = [hero("Fast", player="fay", agility=6, powers={"Stun": STUN}), hero("Slow", player="sam", stamina=6, strength=6),
          hero("Boss", role="villain"), hero("Extra1", role="villain"), hero("Extra2", role="villain")]
SCENE = [{"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}]
PAGE = {"type": "next_page"}


@pytest.fixture
def loads(campaign: Any) -> list[str]:
    """The heroes a command loads from the store (those not already at its table)."""
    return counted_loads(campaign, "heroes", CAST)


def effect(character: str, pages: int) -> dict[str, Any]:
    return {"type": "apply_effect", "character": character, "effect": "web", "pages": pages}


def test_a_page_outside_battle_visits_only_the_heroes_written_since_the_last(campaign: Any, loads: list[str]) -> None:
    campaign.given(*ROSTER, *SCENE, PAGE, PAGE)  # the first page's end visited everyone created
    loads.clear()
    campaign.when(PAGE)
    campaign.then(events.Ticked())
    assert loads == []
    campaign.given(effect("Slow", 2))
    loads.clear()
    campaign.when(PAGE)
    campaign.then(events.EffectChanged(character="Slow", effect="web", state=ANY), events.Ticked())
    assert loads == ["Slow"]
    campaign.when(PAGE)
    campaign.then(events.EffectEnded(character="Slow", effect="web"), events.Ticked())
    for visited in (["Slow"], []):  # written by the last page's end: visited once more, then no longer
        loads.clear()
        campaign.when(PAGE)
        campaign.then(events.Ticked())
        assert loads == visited


def test_a_page_of_a_battle_with_a_cast_leaves_the_others_theirs_until_a_page_ends_for_them(
    campaign: Any, loads: list[str],
) -> None:
    campaign.given(*ROSTER, *SCENE, PAGE, PAGE, effect("Fast", 2))
    campaign.given({"type": "start_battle", "characters": ["Slow", "Boss"]})
    loads.clear()
    campaign.when(PAGE)
    campaign.then(events.Ticked(), events.InitiativeSet(order=[["Slow"], ["Boss"]]))
    assert loads == ["Slow", "Boss"]  # the order's; Fast, not in the battle, keeps his effect
    assert campaign.sheet("Fast")["effects"]["web"]["pages"] == 2
    campaign.given(PAGE, {"type": "end_battle"})
    loads.clear()
    campaign.when(PAGE)
    campaign.then(events.EffectChanged(character="Fast", effect="web", state=ANY), events.Ticked())
    assert loads == ["Fast"]
    assert campaign.sheet("Fast")["effects"]["web"]["pages"] == 1


def test_with_the_campaigns_own_dice_a_players_hero_stuns_anothers_and_only_he_counts_down(
    campaign: Any, loads: list[str],
) -> None:
    """Fay's Fast stuns Sam's Slow outside a battle, the dice the campaign's seeded ones: whatever they
    give, each page's end finds only the two written by the attack, then only Slow while he is stunned."""
    campaign.given(*ROSTER, *SCENE, PAGE, PAGE)
    campaign.when({"type": "attack", "attacker": "Fast", "target": "Slow", "trait": "Stun", "actor": "player:fay"})
    assert campaign.error is None, campaign.error
    assert campaign.sheet("Slow")["effects"]["stun"]["until"] == "pages"  # these seeded dice stun him
    for _ in range(4):
        before = campaign.sheet("Slow")["effects"].get("stun")
        loads.clear()
        campaign.when(PAGE)
        assert set(loads) <= {"Fast", "Slow"}
        changed = [e["character"] for e in campaign.last_events if e["type"] in ("EffectChanged", "EffectEnded")]
        assert changed == (["Slow"] if before and before["until"] == "pages" and not before["defeating"] else [])
    assert loads == [] and "stun" not in campaign.sheet("Slow")["effects"]


def test_a_snapshot_from_before_the_pages_were_indexed_counts_everyone_as_stirred(campaign: Any) -> None:
    campaign.of("heroes").given(*ROSTER, *SCENE, PAGE)
    aggregate = campaign.service.campaign(campaign.name)
    folded = dict(vars(aggregate))
    kept = {**folded, "stirred": {"end:scene": dict(folded["stirred"]["end:scene"])}}  # version 3's index
    type(aggregate).upcast_v3_v4(kept)
    assert list(kept["stirred"]["tick:move"]) == list(CAST)
    assert Campaign.snapshot_agrees(kept, folded)


def test_a_scene_end_leaves_no_page_to_end_for_anyone(campaign: Any, loads: list[str]) -> None:
    """Pages are a scene's (L11) and its end ends their effects (L195): the next scene's first page visits
    nobody the last scene wrote, not even Slow, written after his battle's last page ended."""
    campaign.given(*ROSTER, *SCENE, PAGE, PAGE, {"type": "start_battle", "characters": ["Slow", "Boss"]}, PAGE)
    campaign.given({"type": "gain_resolve", "character": "Slow", "reason": "flaw"}, {"type": "end_battle"})
    campaign.given({"type": "end_scene"}, {"type": "start_scene"})
    loads.clear()
    campaign.when(PAGE)
    campaign.then(events.Ticked())
    assert loads == []
