"""What the first post would pay, paid before the server takes requests (its lifespan).

A process imports a game's rules, builds its command models' validators and its aggregates' event
classes, reads its tables and its words the first time a command of it comes: some hundreds of
milliseconds, which the first post of the day waited for. Here each installed game plays a few
commands of its generated campaign (`Ruleset.generator`) in a store in memory, each decided, stored
and answered as a post is; nothing reaches the server's own store. Then the projections are caught up.
The games are played once a process (a test starts many servers in one).
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from ..commands.parse import parse_command
from ..commands.service import Rollbook
from ..domain.rulesets import available, ruleset
from ..projections.queries import Reader
from ..store import Store
from ..domain.errors import CommandRejected
from ..store.logs import Log, silenced
from ..hosting.answers import Answers

#: Commands of each game's generated campaign played: enough to reach its rolls.
COMMANDS = 30

log = Log("rollbook.server")


def warm_up(reader: Reader) -> None:
    """Play every installed game a little in memory (once a process), then catch the server's projections up."""
    _games_played()
    reader.catch_up()


@cache
def _games_played() -> None:
    for name in available():
        module = ruleset(name).generator
        if module is None:
            continue
        try:
            with silenced():  # the server's log is for its own store
                _play(importlib.import_module(module).generate(COMMANDS).commands)
        except Exception as error:  # noqa: BLE001 - a warm-up that fails costs the first post its time, no more
            log.error("warm_up.skipped", ruleset=name, problem=str(error)[:300])


def _play(commands: list[dict[str, Any]]) -> None:
    store = Store.open("memory://")
    try:
        service = Rollbook(store)
        answers = Answers(store, service, Reader(store))
        for number, body in enumerate(commands[:COMMANDS]):
            command = parse_command(body, line=number + 1, ruleset_of=service.ruleset_of)
            try:
                applied = service.execute(command)
            except CommandRejected:
                continue  # a generator writes some refused commands too: their refusal is warmed up as well
            if applied.status == "applied" and applied.position is not None:
                answers.decided(str(command.campaign), applied.command_id, applied)
    finally:
        store.close()
