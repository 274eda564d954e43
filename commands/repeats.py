"""Repeat detection: a command whose id is recorded already is a rerun if it is the same command, and
refused if it is another. The service asks here before deciding, or after a failure where the store
itself refuses a repeated claim (`UnitOfWork.claims_enforced`).
"""

from __future__ import annotations

import json
from typing import Any

from ..domain.errors import CommandRejected
from ..domain.ids import campaign_id, command_claim_id
from ..store.failures import IntegrityError, PersistenceError
from ..store.logs import Log
from ..store.unit_of_work import Recorded, UnitOfWork
from .base import Command

log = Log("rollbook")


def as_recorded(command: Command, command_id: str) -> dict[str, Any]:
    """The command as its record keeps it (its time, if given, as `isoformat` writes it)."""
    given = command.payload() | {"id": command_id}
    return given | {"at": command.at.isoformat()} if command.at is not None else given


def repeats(unit: UnitOfWork, command: Command, command_id: str, key: str, failure: Exception | None = None) -> bool:
    """Whether the command's id is recorded already in campaign `key`: the one place a repeat is looked for.

    Only a command given an id can repeat one. Where the store refuses a repeated claim
    itself (`claims_enforced`), nobody looks before deciding, sparing every new command
    a look-up: a repeat is found when its write is refused (the claim exists), when the
    rules refuse it (what it did is done), or when the store cannot take writes (read-only,
    full) but can still say the id is there. Elsewhere it is looked for before (`failure` None).
    """
    if command.id is None:
        return False
    claim = command_claim_id(key, command_id)
    if failure is None:
        return not unit.claims_enforced and unit.is_recorded(claim)
    if not unit.claims_enforced:
        return False  # it was looked for before deciding
    if isinstance(failure, PersistenceError) and not isinstance(failure, IntegrityError):
        try:
            return unit.is_recorded(claim)
        except PersistenceError:
            return False  # the store cannot even be read: the write's own error says more
    return unit.is_recorded(claim)


def rerun(unit: UnitOfWork, command: Command, command_id: str, key: str) -> Recorded | None:
    """The recorded command a repeat reruns (None where the unit can no longer read it); a repeat that
    differs from it is refused.

    The one place a repeated id is judged. "The same" is every field as recorded, but
    the time where the repeat gives none (a rerun of a file without `at`s is run later).
    """
    recorded = unit.recorded(command_claim_id(key, command_id), campaign_id(key))
    if recorded is not None:
        given = as_recorded(command, command_id)
        differs = [
            f"{name}: recorded {_said(recorded.command.get(name))}, given {_said(given.get(name))}"
            for name in sorted(set(given) | set(recorded.command))
            if given.get(name) != recorded.command.get(name) and (name != "at" or "at" in given)
        ]
        if differs:
            recorded_as = {"field": "id", "id": command_id, "seq": recorded.seq, "campaign": command.campaign,
                           "at": recorded.command.get("at"), "differs": "; ".join(differs)}
            refused = CommandRejected(
                "id {id!r} is already recorded as command {seq} of {campaign} (position {position}), at {at}, with a "
                "different command: {differs}", position=recorded.position, **recorded_as,
            ) if recorded.position is not None else CommandRejected(
                "id {id!r} is already recorded as command {seq} of {campaign}, at {at}, with a different command: "
                "{differs}", **recorded_as)
            log.info("command.refused", command_id=command_id, type=command.type, campaign=command.campaign,
                     field="id", reason=refused.message)
            raise refused
    log.info("command.skipped", command_id=command_id, type=command.type, campaign=command.campaign,
             reason="id already recorded", seq=recorded.seq if recorded else None,
             position=recorded.position if recorded else None)
    return recorded


def _said(value: Any) -> str:
    """A field's value in a message: as JSON writes it (true, "Anna", [3, 4]), "nothing" where there is none."""
    if value is None:
        return "nothing"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 80 else f"{text[:80]}…"
