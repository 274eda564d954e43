"""We Can Be Heroes played through the `rollbook` CLI against the Russian original (issues 14 and 15).

Each test cites the line of shared/seeds/heroes-d6.ru.txt it checks; the dice are given, except
where the campaign's own seeded dice are the point.
"""

from __future__ import annotations

from pathlib import Path

from heroes_builders import BLAST, hero

from rollbook.testing.cli import CliCampaign

BATTLE = [{"type": "start_story"}, {"type": "start_issue"}, {"type": "start_scene"}, {"type": "start_battle"},
          {"type": "next_page"}]


def attack(attacker: str, target: str, trait: str = "Blast", **fields: object) -> dict[str, object]:
    return {"type": "attack", "attacker": attacker, "target": target, "trait": trait, **fields}


# --- issue 15: every roll takes its own nonce -----------------------------------------------


def test_both_sides_of_an_opposed_roll_take_their_own_nonce_and_verify_passes(tmp_path: Path) -> None:
    """An opposed check (L34) and an attack with its defence (L174-L175) roll two pools from the seed."""
    table = CliCampaign(tmp_path, "heroes")
    table.run(hero("Ann", player="ann", powers={"Blast": BLAST}), hero("Bob", role="villain"), *BATTLE,
              {"type": "roll_check", "id": "opp1", "character": "Ann", "trait": "strength",
               "opponent": "Bob", "opponent_trait": "strength"},
              attack("Ann", "Bob", id="hit1", actor="player:ann"))
    rolls = table.rolls()
    assert [r["id"] for r in rolls] == ["opp1", "opp1#2", "hit1", "hit1#2"]
    assert all(r["source"] == "hmac" for r in rolls)
    assert [r["nonce"] for r in rolls] == [0, 1, 2, 3]
    verified = table.verify()
    assert verified.exit_code == 0, verified.output
