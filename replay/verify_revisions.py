"""`verify`'s check of every later revision: revision N+1 is revision N re-executed with its ruling.

A ruling (`dispute`, `undo`) records what it decided in the first revision's chain, and the
corrected history is stored as the next revision. Each revision's own chain proves only that
it was not edited since it was written, not that it is what the ruling makes: a forged ruling
could write a revision that also changes commands it never named. So `verify` re-executes
revision N, in memory, with the ruling recorded for N+1 (the same change `dispute` applies,
`dispute.change_of`), and holds the stored revision N+1 to it, command by command, up to
where the ruling's re-execution ends (later commands were posted to N+1 itself and are held
by its own chain and checkpoints).

Checkpoints that the re-execution signs are taken from the stored revision when their
message is the same, so a store without the campaign's signing key (a copy) verifies too.

A ruling made since rulings name the revision they replace (`Ruled`) is also held to its own record: the
ruling as shown (`rollbook revisions`) must be the ruling the first revision's chain recorded, and the head it
names must be revision N's at the size it names, with nothing but rulings after it. Revision N+1's chain starts
from the ruling's hash (`chain.revision_start`), so its checkpoints cover all of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..domain.chain import RULING_FIELDS, revision_start
from ..domain.revisions import revision_key
from ..domain.ids import campaign_id
from ..store import Store
from ..store.logs import silenced
from .dispute import change_of
from .revisions import revisions
from .history import RecordedCommand, recorded_commands
from .reexecute import KnownSignatures, reexecute
from .verify import Finding


def check_revisions(store: Store, campaign: str, numbers: Iterable[int]) -> dict[int, list[Finding]]:
    """For each revision number in `numbers` after the first: the findings of holding it to its ruling."""
    rulings = {entry["revision"]: entry for entry in revisions(store, campaign)[1:]}
    wanted = [n for n in numbers if n > 1]
    recorded = _recorded_rulings(store, campaign) if any("replaces" in r for r in rulings.values()) else {}
    return {n: _ruled(store, campaign, n, rulings.get(n), recorded.get(n)) + _check(store, campaign, n, rulings.get(n))
            for n in wanted}


def _recorded_rulings(store: Store, campaign: str) -> dict[int, RecordedCommand]:
    """The rulings as the first revision's chain recorded them (its `dispute` commands), by the revision each made."""
    return {int(r.command.get("revision", 0)): r for r in recorded_commands(store, campaign) if r.type == "dispute"}


def _ruled(store: Store, campaign: str, revision: int, ruling: dict[str, Any] | None,
           recorded: RecordedCommand | None) -> list[Finding]:
    """A ruling that names the revision it replaces, held to its chained record and to that revision's head."""
    if ruling is None or "replaces" not in ruling:
        return []
    aggregate = campaign_id(campaign).hex
    if recorded is None:
        return [Finding(None, None, f"the ruling that made revision {revision} is not among the commands recorded",
                        aggregate)]
    differs = [k for k in RULING_FIELDS if ruling.get(k) != recorded.command.get(k)]
    if differs:
        return [Finding(None, recorded.id, f"the ruling that made revision {revision} shows {', '.join(differs)} "
                                           "other than the chain recorded it: its event was rewritten", aggregate)]
    replaces = ruling["replaces"]
    size, head, before = int(replaces["size"]), str(replaces["head"]), revision - 1
    chain = list(recorded_commands(store, revision_key(campaign, before)))
    head_there = chain[size - 1].chain if 0 < size <= len(chain) else None
    played_after = [r.id for r in chain[size:] if r.type != "dispute"]  # the first revision records the rulings
    if replaces.get("revision") != before or head_there != head or played_after:
        return [Finding(None, recorded.id, f"the ruling that made revision {revision} names revision "
                                           f"{replaces.get('revision')} at {size} commands with head {head[:12]}…, "
                                           f"which is not revision {before} as stored", aggregate)]
    return []


def _check(store: Store, campaign: str, revision: int, ruling: dict[str, Any] | None) -> list[Finding]:
    key = revision_key(campaign, revision)
    aggregate = campaign_id(key).hex
    if ruling is None:
        return [Finding(None, None, f"revision {revision} has no ruling recorded in the campaign that made it",
                        aggregate)]
    stored = list(recorded_commands(store, key))
    scratch = Store.open("memory://")
    try:
        with silenced():  # a history re-executed is not news: its commands log nothing again
            reexecute(recorded_commands(store, revision_key(campaign, revision - 1)), scratch, key=key,
                      keeper=store.seeds, signing_keys=KnownSignatures(
                          (c for recorded in stored for c in recorded.checkpoints), campaign, store.keys),
                      change=change_of(ruling["roll"], ruling["decision"], ruling["dispute"]), strict=False,
                      start=revision_start(ruling) if "replaces" in ruling else None)
        again = list(recorded_commands(scratch, key))
    except Exception as error:  # noqa: BLE001 - what cannot be re-executed is a finding, not a crash
        return [Finding(None, None, f"revision {revision - 1} with the ruling {ruling['dispute']} cannot be "
                                    f"re-executed here ({type(error).__name__}: {error}), so revision {revision} "
                                    "cannot be held to it", aggregate)]
    finally:
        scratch.close()
    for made, kept in zip(again, stored):
        if made.chain != kept.chain:
            return [Finding(None, kept.id, f"revision {revision} is not revision {revision - 1} re-executed with "
                                           f"the ruling {ruling['dispute']} on {ruling['roll']}: from command "
                                           f"{kept.seq} ({kept.id}) on, {_how(made, kept)}", aggregate)]
    if len(stored) < len(again):
        return [Finding(None, None, f"revision {revision} holds {len(stored)} commands, but revision "
                                    f"{revision - 1} re-executed with the ruling {ruling['dispute']} gives "
                                    f"{len(again)}", aggregate)]
    return []


def _how(made: RecordedCommand, kept: RecordedCommand) -> str:
    """What differs in the first command the stored revision and the re-execution disagree on."""
    if made.command != kept.command:
        fields = sorted(k for k in made.command.keys() | kept.command.keys()
                        if made.command.get(k) != kept.command.get(k))
        return f"the stored command differs in {', '.join(fields)}"
    if [r.get("faces") for r in made.rolls] != [r.get("faces") for r in kept.rolls]:
        return (f"its dice are {[r.get('faces') for r in kept.rolls]} where the re-execution rolls "
                f"{[r.get('faces') for r in made.rolls]}")
    return "the events it wrote differ"
