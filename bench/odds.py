"""The odds of a typical command, in process: what `POST /campaigns/{c}/odds` and `rollbook odds` pay per query.

A typical query is one of the campaign's own rolls asked again at its end, without its faces:
the live sheets are read from the store, the command decided up to its dice, the chances
enumerated with icepool. Each query reads afresh (asking forgets what the decision touched),
so the time includes the reads a server pays for every request.
"""

from __future__ import annotations

import time
from typing import Any

from .generate import Campaign
from .sampling import Bench, BenchError, scale_of
from .stores import StoreRef
from .targets import Row

#: Command types with odds, by ruleset: the rolls a player asks about before posting.
ASKED = {"roll_move", "roll_check", "attack", "trait_check", "combat_turn"}
#: How far back from the campaign's end a playable roll is looked for.
CANDIDATES = 200
#: What a campaign that ends between fights needs before its rolls are allowed again (the store is the bench's own).
REOPEN = {"gladiators": {"type": "start_battle"}}


def typical(service: Any, campaign: Campaign) -> dict[str, Any]:
    """The campaign's latest roll the rules would still allow now, without its faces and id."""
    asked = [c for c in campaign.commands if c["type"] in ASKED][-CANDIDATES:]
    reopen = REOPEN.get(campaign.ruleset)
    if reopen is not None and asked and not _allowed(service, campaign, asked[-1]):
        from rollbook.commands.parse import parse_command

        service.execute(parse_command({**reopen, "campaign": campaign.campaign}, ruleset_of=service.ruleset_of))
    for command in reversed(asked):
        if _allowed(service, campaign, command):
            return _asked(command)
    raise BenchError(f"none of the last {len(asked)} rolls of {campaign.campaign} is allowed at its end")


def _allowed(service: Any, campaign: Campaign, command: dict[str, Any]) -> bool:
    from rollbook.domain.errors import CommandRejected

    try:
        service.odds(campaign.campaign, _asked(command))
    except CommandRejected:
        return False
    return True


def _asked(command: dict[str, Any]) -> dict[str, Any]:
    """A recorded command as a player asks it: without its faces, id, time and campaign."""
    return {k: v for k, v in command.items() if k not in ("dice", "id", "at", "campaign")}


def measure_odds(bench: Bench, ref: StoreRef, campaign: Campaign) -> None:
    from rollbook.commands.service import Rollbook
    from rollbook.store import Store

    store = Store.open(ref.url)
    try:
        service = Rollbook(store)
        body = typical(service, campaign)
        samples = max(bench.runs, 20)
        bench.say(f"  [{ref.kind}] odds of {body['type']} x{samples}")
        values = []
        for _ in range(samples):
            started = time.perf_counter()
            service.odds(campaign.campaign, body)
            values.append(time.perf_counter() - started)
    finally:
        store.close()
    bench.add(Row(
        "odds", ref.kind, campaign.ruleset, scale_of(len(campaign.commands)),
        f"odds of `{body['type']}` at the campaign's end, in process", "s", values,
    ))
