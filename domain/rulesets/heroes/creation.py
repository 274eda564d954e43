"""Character creation (§8): traits within the GM's Trait Limit, derived Edge and Health, starting Resolve."""

from __future__ import annotations

from typing import Any

from ...errors import RuleViolation
from ...table import Table
from . import rules
from .exchange import campaign_of
from .hero import Hero


def create_character(
    table: Table,
    name: str,
    *,
    player: str | None,
    role: str,
    abilities: dict[str, int] | None,
    talents: dict[str, int],
    powers: dict[str, dict[str, Any]],
    perks: list[str],
    flaws: list[str],
    motivation: str | None,
    danger_rank: int | None,
    count: int,
) -> None:
    """Heroes and villains have six Abilities; minions may have only a danger rank (L23-L27)."""
    # Whose hero it is, is checked with every owned field (commands/ownership.py); what, here.
    if table.actor.startswith("player:") and role != rules.HERO:
        raise RuleViolation("{actor} can only create a hero of their own", field="player", actor=table.actor)
    limit = campaign_of(table).trait_limit
    if role == rules.MINION:
        if danger_rank is None:
            raise RuleViolation("a minion group has a common danger rank (L26)", field="danger_rank")
        abilities = {a: (abilities or {}).get(a, danger_rank) for a in rules.ABILITIES}
    else:
        if danger_rank is not None or count != 1:
            raise RuleViolation("only minions have a danger rank and come in groups (L26)", field="danger_rank")
        if abilities is None:
            raise RuleViolation(
                "a {role} has the six Abilities {abilities} (L79)",
                field="abilities", role=role, abilities=", ".join(rules.ABILITIES),
            )
    ranks = [("abilities." + k, v) for k, v in abilities.items()]
    ranks += [("talents." + k, v) for k, v in talents.items()]
    ranks += [("powers." + k, p["rank"]) for k, p in powers.items() if p["rank"] is not None]
    for field, rank in ranks:
        if rank > limit:
            raise RuleViolation(
                "rank {rank} is above the GM's Trait Limit of {limit} (L27)",
                field=field, rank=rank, limit=limit,
            )
    names = [n.casefold() for n in [*rules.ABILITIES, *talents, *powers]]
    if len(set(names)) != len(names):
        raise RuleViolation("a trait name is used twice among Abilities, Talents and Powers", field="powers")
    minion = role == rules.MINION
    table.campaign.enrol(name, Hero.kind, player)
    table.add(Hero(
        campaign=table.campaign.campaign, name=name, player=player, role=role, abilities=abilities,
        talents=talents, powers=powers, perks=perks, flaws=flaws, motivation=motivation, count=count,
        # Starting Resolve (L86-L96) and full Health (§8); a minion group's Health is its minions (L191).
        resolve=0 if minion else rules.starting_resolve(limit, rules.highest_rank(abilities, powers)),
        health=count if minion else rules.max_health(abilities),
    ))
