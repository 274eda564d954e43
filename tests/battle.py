"""The server's tests' campaign: a pirate battle under way, a GM and a player for each client.

    tokens = prepare(url, players=20)               # the battle, a GM `gm`, players p0…p19
    with serving(url, count=2) as servers:         # rollbook.testing.serving
        run = load(servers, tokens, plan(20, moves=10))
"""

from __future__ import annotations

from typing import Any

from rollbook.testing import serving

CAMPAIGN = "black-sails"


def base_commands(players: int) -> list[dict[str, Any]]:
    """A pirate battle under way, with one character for each player (`P0` of `p0`, …) and the ship Chaika."""
    commands: list[dict[str, Any]] = [
        {"type": "create_campaign", "campaign": CAMPAIGN, "ruleset": "pirates", "title": "Black Sails"},
        {"type": "create_ship", "campaign": CAMPAIGN, "name": "Chaika", "navigation": 2, "firepower": 1,
         "displacement": 1, "hull": 4, "secrets": ["X1", "X2"]},
    ]
    commands += [{"type": "create_character", "campaign": CAMPAIGN, "name": f"P{n}", "player": f"p{n}",
                  "stats": {"audacity": 2, "guile": 1, "foresight": 1, "reputation": -1}, "luck": 1}
                 for n in range(players)]
    commands += [{"type": "start_chapter", "campaign": CAMPAIGN}, {"type": "start_scene", "campaign": CAMPAIGN},
                 {"type": "start_battle", "campaign": CAMPAIGN}]
    return [{**c, "id": f"base-{n}"} for n, c in enumerate(commands)]


def prepare(store_url: str, players: int) -> dict[str, str]:
    """The battle in the store, a GM `gm` and players `p0`…; every user's token."""
    return serving.prepare(store_url, CAMPAIGN, base_commands(players), [f"p{n}" for n in range(players)])


def planned(user: str, key: str, body: dict[str, Any]) -> serving.Planned:
    """A command of the battle a client posts."""
    return serving.Planned(user, key, body, CAMPAIGN)


def plan(players: int, moves: int) -> list[list[serving.Planned]]:
    """What each client posts: its player's `moves` rolled moves, then, as the GM, one bid for a
    once-only limit every client races for (a breakdown instead of a hole, once per battle: L140)."""
    faces = [(3, 4), (6, 2), (1, 1), (5, 5), (2, 6), (4, 3)]
    return [
        [planned(f"p{n}", f"p{n}-{m}", {"type": "roll_move", "character": f"P{n}", "stat": "audacity",
                                        "dice": list(faces[(n + m) % len(faces)])}) for m in range(moves)]
        + [planned("gm", f"breakdown-{n}", {"type": "take_breakdown", "ship": "Chaika",
                                              "breakdown": ("torn_sails", "wrecked_deck", "wet_powder")[n % 3]})]
        for n in range(players)
    ]
