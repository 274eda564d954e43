"""We Can Be Heroes through the `rollbook` CLI against the original, fourth reading (issue 43, items 3-4).

Each scenario runs with the faces given and with the campaign's own seeded dice for the rolls it is about
(`dice`; its setting-up rolls are typed), then `verify`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rollbook.testing.cli import CliCampaign

from .heroes_builders import hero
from .test_heroes_against_the_original import BATTLE, attack, dice, faces  # noqa: F401 (a fixture)

# --- 3. L11, L19, L266: a lost page is a page of its own battle --------------------------------------

#: Blast 8: [6, 6, 6, 1, 1, 1, 1, 1] = 6 against the Ogre's half Stamina 4: [1, 1, 1, 1] = 0 → 6 damage.
KNOCKED_BACK = [attack("Ann", "Ogre", dice=[6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
                {"type": "spend_resolve", "character": "Ann", "purpose": "knockback"}]


def knocked_back_in_the_last_page(tmp_path: Path) -> CliCampaign:
    """The Ogre thrown in page 1, the last of its battle: he would lose page 2 (L266)."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", player="ann", powers={"Blast": {"rank": 8, "uses": ["attack"]}}),
              hero("Ogre", role="villain", agility=1, stamina=8, strength=8), *BATTLE, *KNOCKED_BACK)
    assert table.sheet("Ogre")["lost_pages"] == [2]
    return table


@pytest.mark.parametrize(
    "between",
    [
        [{"type": "end_battle"}, {"type": "end_scene"}, {"type": "start_scene"}, {"type": "start_battle"}],
        [{"type": "end_battle"}, {"type": "start_battle"}],
        [{"type": "end_scene"}, {"type": "start_scene"}, {"type": "start_battle"}],  # the battle ends with it
    ],
    ids=["another-scene", "same-scene", "scene-ended"],
)
def test_a_page_lost_in_the_last_page_of_a_battle_is_gone_with_it_l266_l11_l19(
    tmp_path: Path, dice: str, between: list[dict[str, Any]]
) -> None:
    """L266 «Оппонент также теряет следующий ход»: the next page of that fight; a page is a few seconds of a
    fight (L11) and page effects last at most to the end of the scene (L19). In the next battle the Ogre acts
    in its first page."""
    table = knocked_back_in_the_last_page(tmp_path)
    table.run(*between)
    assert table.sheet("Ogre")["lost_pages"] == []
    table.run({"type": "next_page"}, {"type": "pass", "character": "Ann", "actor": "player:ann"},
              attack("Ogre", "Ann", "strength", id="again", **faces(dice, [1] * 11)))
    assert table.roll("again")["character"] == "Ogre" and table.campaign_sheet()["page"] == 2
    if dice == "seeded":
        assert table.roll("again")["source"] == "hmac"
    assert table.verify().exit_code == 0


def test_a_page_lost_within_the_battle_is_still_lost_l266(tmp_path: Path) -> None:
    table = knocked_back_in_the_last_page(tmp_path)
    table.run({"type": "next_page"}, {"type": "pass", "character": "Ann", "actor": "player:ann"})
    assert table.refused(attack("Ogre", "Ann", "strength", dice=[1] * 11))["reason"].startswith(
        "Ogre loses page 2 and cannot act in it: knocked back by Ann")


def test_a_protection_declared_in_the_last_page_lapses_with_the_battle_l257(tmp_path: Path) -> None:
    """The action given up for it goes too: the next battle's first page is his to act in."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Sol", player="sol", agility=5), hero("Ray", player="ray"), hero("Kane", role="villain"),
              *BATTLE, {"type": "protect", "character": "Sol", "ward": "Ray", "actor": "player:sol"},
              {"type": "end_battle"}, {"type": "start_battle"}, {"type": "next_page"})
    assert table.sheet("Sol")["actions_given_up"] == []
    table.run(attack("Sol", "Kane", "strength", id="free", actor="player:sol", dice=[1] * 6))
    # Nobody protects Ray any more: he defends alone.
    table.run({"type": "pass", "character": "Ray", "actor": "player:ray"},
              attack("Kane", "Ray", "strength", id="alone", dice=[1] * 6))
    assert table.roll("alone#2")["character"] == "Ray"


# --- 4. L257-L258: protecting another is the next page's, both the protection and its cost ---------

#: Kane, Strength 7; Sol (Agility 5, Edge 8) protects Ray (Agility 4, Stamina 5: Health 4, Edge 7).
TRIO = [hero("Sol", player="sol", agility=5), hero("Ray", player="ray", agility=4, stamina=5),
        hero("Kane", role="villain", strength=7)]


def test_protecting_another_defends_him_in_the_next_page_whose_action_it_costs_l257_l258(
    tmp_path: Path, dice: str
) -> None:
    """L257 «Вместо действия в следующем ходу персонаж может заявить защиту другого персонажа … Это позволяет
    делать бросок защиты за них»: the protection and the action it costs are the same page, the next one.
    L258: his active defence failed, the attack hurts the ward, who also defends."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(*TRIO, *BATTLE, {"type": "protect", "character": "Sol", "ward": "Ray", "actor": "player:sol"},
              {"type": "pass", "character": "Sol", "actor": "player:sol"},
              {"type": "pass", "character": "Ray", "actor": "player:ray"},
              # Page 1, the page of the declaration: Ray defends alone.
              attack("Kane", "Ray", "strength", id="now", dice=[1] * 11))
    assert [table.roll(r)["character"] for r in ("now", "now#2")] == ["Kane", "Ray"]
    assert len([r for r in table.rolls() if r["id"].startswith("now")]) == 2
    health = table.sheet("Ray")["health"]
    # Page 2: Sol's action is given up (he moves still, L141); his defence is rolled for Ray.
    table.run({"type": "next_page"}, {"type": "pass", "character": "Ray", "actor": "player:ray"},
              # Kane 7 dice [6, 6, 2, 1, 1, 1, 1] = 5; Sol's active 5 dice [2, 1, 1, 1, 1] = 1 fails;
              # Ray's own 4 dice [2, 2, 1, 1] = 2: 3 damage.
              attack("Kane", "Ray", "strength", id="next",
                     **faces(dice, [6, 6, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 2, 1, 1])))
    kane, sol, ray = (table.roll(r) for r in ("next", "next#2", "next#3"))
    assert [(r["character"], len(r["faces"])) for r in (kane, sol, ray)] == [("Kane", 7), ("Sol", 5), ("Ray", 4)]
    assert table.sheet("Sol")["health"] == table.sheet("Sol")["max_health"]
    if sol["successes"] >= kane["successes"]:
        assert table.sheet("Ray")["health"] == health
    else:
        assert table.sheet("Ray")["health"] == max(0, health - max(0, kane["successes"] - ray["successes"]))
    if dice == "typed":
        assert (kane["successes"], sol["successes"], ray["successes"], table.sheet("Ray")["health"]) == (5, 1, 2, 1)
    else:
        assert {kane["source"], sol["source"], ray["source"]} == {"hmac"}
    refused = table.refused(attack("Sol", "Kane", "strength", actor="player:sol", dice=[1] * 6))
    assert refused["reason"].startswith("Sol gave up his action of page 2: he protects Ray instead of acting (L257)")
    assert table.verify().exit_code == 0


def test_the_protection_is_declared_on_his_own_hero_and_for_the_next_page_only(tmp_path: Path) -> None:
    table = CliCampaign(tmp_path, "heroes")
    table.run(*TRIO, *BATTLE)
    refused = table.refused({"type": "protect", "character": "Sol", "ward": "Ray", "actor": "player:ray"})
    assert refused["field"] == "character"
    table.run({"type": "protect", "character": "Sol", "ward": "Ray", "actor": "player:sol"})
    events = [e for e in table.log() if e["type"] in ("ProtectionDeclared", "ActionGivenUp")]
    assert [(e["type"], e["data"]["page"]) for e in events] == [("ProtectionDeclared", 2), ("ActionGivenUp", 2)]
    table.run({"type": "next_page"}, {"type": "next_page"},
              {"type": "pass", "character": "Sol", "actor": "player:sol"},
              {"type": "pass", "character": "Ray", "actor": "player:ray"},
              attack("Kane", "Ray", "strength", id="later", dice=[1] * 11))
    assert [r["character"] for r in table.rolls() if r["id"].startswith("later")] == ["Kane", "Ray"]
