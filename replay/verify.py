"""`rollbook verify`: is the stored history the history that was recorded, and nothing else?

It only reads (a read-only store file, a full disk), and reports every finding with the
position and the aggregate it concerns:

1. the hash chain — every command's hash is recomputed over the command as recorded and
   the stored bytes of every event it wrote, chained to the previous command's hash; an
   edited payload, a removed event or an edited command breaks it. The copies of the
   command's id and time on its `CommandApplied` must be the chained ones;
2. nothing beside the chain — the whole store is read once: every event of an aggregate
   the campaign wrote to, and every aggregate naming the campaign, must be listed by a
   recorded command (an injected event, a foreign topic, a gap, an extra version are
   not); every command has its claim and every claim its command; a campaign with no
   recorded command has no claims, snapshots or projections either (a wiped store is
   not a verified one);
3. snapshots — each is recomputed as the fold of the events before it;
4. given history — a `history` record (the testing kit's `given`) is only allowed in a
   campaign the kit created (its `create_campaign` says `testing_kit`, in the chain);
5. the dice — every roll from the campaign's seeded source is recomputed from the seed,
   once that seed is revealed (its SHA-256 must be the commitment recorded before the
   rolls); the seeded rolls of a campaign take strictly consecutive nonces, so no roll
   can have been made and then left out, and no nonce is rolled at twice in any revision
   (replay/nonces.py). Rolls whose seed is not revealed yet are listed; a seed replaced by
   the next one is revealed (or abandoned, said so) first, so a forged roll cannot hide
   behind a reveal taken out.

6. folds — every aggregate of the campaign folds from its events, snapshot or not
   (replay/folds.py).

7. checkpoints — each one given (and each one a chapter's end recorded in the campaign)
   must be signed by the campaign's key, and the chain must have its head at its size.

What no check of the store alone can catch: a history cut after its last command, or
rewritten from some point on with the chain recomputed. Only a head published before (a
checkpoint) tells those apart.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.utils import get_topic

from ..domain.accounts import Roster
from ..domain.revisions import REVISION_MARK, revision_of
from ..domain.chain import GENESIS_CHAIN, chain_hash, event_digest
from ..domain.checkpoint import Checkpoint, hold
from ..domain.dice import recompute_roll
from ..domain.ids import campaign_id, command_claim_id
from ..domain.imports import ImportRecord
from ..domain.members import CommandClaim
from ..store import EventStore
from ..store.port import position_of
from ..store.reads import AggregateNotFoundError, aggregate, decoded, encoded, events_between, head, stored_snapshots
from ..store.roster_chunks import RosterChunkError
from .folds import fold_problems
from .history import applied_version, chain_start, notifications, recorded_commands
from .nonces import nonce_problems

CLAIM_TOPIC = get_topic(CommandClaim.Recorded)
#: Aggregates that name a campaign but are not its play (who may sign in): outside the chain.
OUTSIDE_THE_CHAIN = get_topic(Roster).split(":", 1)[0] + ":"


@dataclass
class Finding:
    position: int | None
    command: str | None
    problem: str
    aggregate: str | None = None

    def __str__(self) -> str:
        where = f"position {self.position}" if self.position is not None else "position unknown"
        what = f" (command {self.command})" if self.command else ""
        of = f" [aggregate {self.aggregate}]" if self.aggregate else ""
        return f"{where}{what}{of}: {self.problem}"

    def as_dict(self) -> dict[str, Any]:
        return {"position": self.position, "command": self.command, "aggregate": self.aggregate,
                "problem": self.problem}


@dataclass
class Unverifiable:
    """A seeded roll whose seed is not revealed, so its faces cannot be recomputed (yet)."""

    roll: str
    commitment: str
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"roll": self.roll, "commitment": self.commitment, "reason": self.reason}


@dataclass
class Report:
    commands: int
    rolls_checked: int
    seeds_revealed: int
    findings: list[Finding]
    head: str = GENESIS_CHAIN
    testing_kit: bool = False
    public_key: str | None = None
    unverifiable: list[Unverifiable] = field(default_factory=list)
    #: Every command's chain hash, in order: what a checkpoint of any size is held to.
    chain: list[str] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return not self.findings

    def as_dict(self) -> dict[str, Any]:
        return {
            "commands": self.commands, "head": self.head, "rolls_checked": self.rolls_checked,
            "seeds_revealed": self.seeds_revealed, "testing_kit": self.testing_kit, "public_key": self.public_key,
            "findings": [f.as_dict() for f in self.findings],
            "unverifiable_rolls": [u.as_dict() for u in self.unverifiable],
            "unverifiable_count": len(self.unverifiable),
        }


@dataclass
class _Listed:
    """An event a recorded command names: where its record stands and what it must be."""

    command: str
    digest: str | None  # None for a CommandApplied: the chain itself holds it
    position: int | None


def verify(
    store: EventStore, key: str, *, projected: bool = False, checkpoints: Sequence[tuple[str, Checkpoint]] = (),
    projected_to: int | None = None,
) -> Report:
    """Verify campaign revision `key`; `projected`: whether the projections show it.

    `checkpoints` (where each was read, and what it says) are published heads the store's
    chain must have at their sizes. `projected_to`: the position the projections have read
    up to, which no store that only grows can fall behind.
    """
    findings: list[Finding] = []
    listed: dict[tuple[UUID, int], _Listed] = {}
    report = Report(commands=0, rolls_checked=0, seeds_revealed=0, findings=findings)
    # A later revision's first command chains to the ruling that made it (chain.revision_start).
    _check_chain(store, key, report, listed, chain_start(store, key) or GENESIS_CHAIN)
    if REVISION_MARK not in key:
        findings += _unfinished_import(store, key, report.commands)
    root, revision = key.split(REVISION_MARK, 1)[0], revision_of(key)
    for where, checkpoint in checkpoints:
        if (checkpoint.campaign, checkpoint.revision) != (root, revision):
            findings.append(Finding(None, None, f"checkpoint {where} is of {checkpoint.campaign} revision "
                                    f"{checkpoint.revision}, not of {root} revision {revision}", campaign_id(key).hex))
            continue
        findings.extend(Finding(None, None, problem, campaign_id(key).hex)
                        for problem in hold(checkpoint, where, report.chain, report.public_key))
    claims = {command_claim_id(key, command) for command in {e.command for e in listed.values()}}
    members = {originator for originator, _ in listed} - claims  # a claim is never snapshotted
    _check_store(store, key, report, listed)
    _check_snapshots(store, key, report, members)
    _check_folds(store, report, members)
    last = head(store)
    if projected_to is not None and projected_to > last:
        findings.append(Finding(last, None, f"the projections have read up to position {projected_to}, but the "
                                f"store ends at {last}: events at its end were removed", campaign_id(key).hex))
    if report.commands == 0 and projected:
        findings.append(Finding(None, None, "the campaign has projections (sheets, rolls) but no recorded "
                                "command: its history is gone", campaign_id(key).hex))
    findings.sort(key=lambda f: (f.position is None, f.position or 0))
    return report


def _check_chain(store: EventStore, key: str, report: Report, listed: dict[tuple[UUID, int], _Listed],
                 previous: str) -> None:
    findings = report.findings
    expected_seq = 1
    seeded: list[tuple[dict[str, Any], int | None, str]] = []
    revealed: dict[str, bytes] = {}
    abandoned: set[str] = set()
    current_seed: str | None = None  # the commitment the campaign's seeded rolls now come from
    campaign_uuid = campaign_id(key)
    campaign_version = 0
    root = key.split(REVISION_MARK, 1)[0]

    for recorded in recorded_commands(store, key, unreadable=_unreadable(store, report)):
        report.commands += 1
        campaign_version = applied_version(recorded, campaign_uuid, campaign_version)
        here = position_of(store, campaign_uuid, campaign_version)
        listed[(campaign_uuid, campaign_version)] = _Listed(recorded.id, None, here)
        if recorded.seq != expected_seq:
            findings.append(Finding(here, recorded.id, f"command {expected_seq} is missing (next recorded is {recorded.seq})",
                                    campaign_uuid.hex))
        expected_seq = recorded.seq + 1
        if recorded.seq == 1 and recorded.type == "create_campaign":
            report.testing_kit = recorded.command.get("testing_kit") is True
        if recorded.public_key is not None:
            report.public_key = recorded.public_key
        for signed in recorded.checkpoints:
            # Signed by the command that ended a chapter: of the commands before it.
            checkpoint = Checkpoint(campaign=root, **signed)
            findings.extend(Finding(here, recorded.id, problem, campaign_uuid.hex)
                            for problem in hold(checkpoint, "recorded in the campaign", report.chain, report.public_key))
        if recorded.type == "history" and not report.testing_kit:
            findings.append(Finding(here, recorded.id, "given history (a `history` record, which no rule decided) "
                                    "in a campaign the testing kit did not create", campaign_uuid.hex))
        if recorded.applied_id != recorded.id or recorded.applied_at != recorded.command.get("at"):
            findings.append(Finding(here, recorded.id, f"its CommandApplied says command {recorded.applied_id!r} at "
                                    f"{recorded.applied_at}, not the chained {recorded.id!r} at {recorded.command.get('at')}",
                                    campaign_uuid.hex))
        claim = command_claim_id(key, recorded.id)
        if not any(UUID(originator) == claim for originator, _, _ in recorded.writes):
            findings.append(Finding(here, recorded.id, "the command wrote no claim of its id", claim.hex))
        for originator, version, digest in recorded.writes:
            listed[(UUID(originator), version)] = _Listed(recorded.id, digest, here)
        if chain_hash(previous, recorded.command, recorded.writes) != recorded.chain:
            findings.append(Finding(here, recorded.id, "the command record was edited (hash chain broken)" if
                                    recorded.seq > 1 or previous == GENESIS_CHAIN else "it does not chain to the "
                                    "ruling that made the revision (the ruling or the command was edited)",
                                    campaign_uuid.hex))
        previous = recorded.chain
        report.chain.append(recorded.chain)

        seeded += [(roll, here, recorded.id) for roll in recorded.rolls if roll.get("source") == "hmac"]
        abandoned.update(recorded.abandoned)
        for commitment, seed_hex in recorded.reveals.items():
            seed = bytes.fromhex(seed_hex)
            if hashlib.sha256(seed).hexdigest() != commitment:
                findings.append(Finding(here, recorded.id, f"revealed seed does not match its commitment {commitment[:12]}…",
                                        campaign_uuid.hex))
            else:
                revealed[commitment] = seed
        for commitment in recorded.commitments:
            if current_seed is not None and current_seed not in revealed and current_seed not in abandoned:
                findings.append(Finding(here, recorded.id, f"a new seed {commitment[:12]}… is committed, but the "
                                        f"seed {current_seed[:12]}… before it was neither revealed nor abandoned: "
                                        "a finished chapter reveals its seed", campaign_uuid.hex))
            current_seed = commitment
    report.head = previous
    findings.extend(Finding(here, command, problem, campaign_uuid.hex)
                    for here, command, problem in nonce_problems(store, key, seeded))

    for roll, here, command in seeded:
        seed = revealed.get(roll["commitment"])
        if seed is None:
            why = ("its seed was abandoned, lost unrevealed (abandon_seed)" if roll["commitment"] in abandoned
                   else "its seed is not revealed yet")
            report.unverifiable.append(Unverifiable(roll["id"], roll["commitment"], why))
            continue
        report.rolls_checked += 1
        expected = recompute_roll(seed, root, roll)
        if expected != roll["faces"]:
            findings.append(Finding(here, command, f"roll {roll['id']} shows {roll['faces']}, but its seed gives {expected}",
                                    campaign_uuid.hex))
    report.seeds_revealed = len(revealed)


def _unreadable(store: EventStore, report: Report) -> Any:
    """What the chain's reading says of an event of the campaign whose bytes do not decode: a finding
    (the chain, which holds its bytes, names the command), and the reading goes on past it."""

    def found(stored: Any, error: Exception) -> None:
        report.findings.append(Finding(position_of(store, stored.originator_id, stored.originator_version), None,
                                       f"event {stored.topic.rsplit('.', 1)[-1]} v{stored.originator_version} does "
                                       f"not decode: {error}"[:400], stored.originator_id.hex))

    return found


def _check_folds(store: EventStore, report: Report, aggregates: set[UUID]) -> None:
    """Every aggregate of the campaign must fold from its events (replay/folds.py). One whose damage
    the checks before found already (an event gone or edited) is not found twice."""
    found = {f.aggregate for f in report.findings}
    report.findings.extend(Finding(position, None, problem, originator.hex)
                           for position, problem, originator in fold_problems(store, aggregates)
                           if originator.hex not in found)


def _names_campaign(notification: Any, key: str) -> bool:
    """Whether an aggregate's first event says it belongs to campaign `key` (as projections read it)."""
    if notification.originator_version != 1 or notification.topic.startswith(OUTSIDE_THE_CHAIN):
        return False
    try:
        state = json.loads(notification.state)
    except ValueError:
        return False
    return isinstance(state, dict) and state.get("campaign") == key


def _check_store(store: EventStore, key: str, report: Report, listed: dict[tuple[UUID, int], _Listed]) -> None:
    """Read the whole store once: every event of the campaign must be one a recorded command names."""
    findings = report.findings
    ours = {originator for originator, _ in listed}
    for notification in notifications(store):
        place = (notification.originator_id, notification.originator_version)
        name = notification.topic.rsplit(".", 1)[-1]
        expected = listed.pop(place, None)
        if expected is not None:
            if expected.digest is not None and event_digest(notification) != expected.digest:
                findings.append(Finding(notification.id, expected.command,
                                        f"event {name} v{place[1]} was edited", place[0].hex))
            continue
        if place[0] in ours or _names_campaign(notification, key):
            ours.add(place[0])
            what = ("a claim of a command id that no recorded command has" if notification.topic == CLAIM_TOPIC
                    else f"event {notification.topic} v{place[1]} is written by no recorded command")
            findings.append(Finding(notification.id, None, what, place[0].hex))
    for (originator, version), expected in listed.items():
        findings.append(Finding(expected.position, expected.command, f"an event it wrote is gone (v{version})",
                                originator.hex))


def _check_snapshots(store: EventStore, key: str, report: Report, aggregates: set[UUID]) -> None:
    """Every snapshot must be the fold of its aggregate's events up to its version."""
    for originator in {campaign_id(key), *aggregates}:
        snapshots = {s.originator_version: s for s in stored_snapshots(store, originator)}
        if not snapshots:
            continue
        if report.commands == 0:
            report.findings.append(Finding(None, None, "the campaign has snapshots but no recorded command: "
                                           "its history is gone", originator.hex))
            continue
        aggregate: Any = None
        for event in events_between(store, originator, 1, max(snapshots)):
            try:
                aggregate = event.mutate(aggregate)
            except Exception:  # noqa: BLE001 - a gap or a foreign event: found above, nothing to fold
                break
            stored = snapshots.get(event.originator_version)
            if stored is None:
                continue
            try:
                snapshot = decoded(store, stored)
            except RosterChunkError as broken:
                report.findings.append(Finding(position_of(store, originator, event.originator_version), None,
                                               f"the snapshot at v{event.originator_version}: {broken}", originator.hex))
                continue
            folded = decoded(store, encoded(store, type(snapshot).take(aggregate))).state
            kept = snapshot.state
            if kept.get("class_version", 1) < folded.get("class_version", 1):
                # Taken by an older class: held, as it is restored, through its upcasts, on what it kept
                # and they rebuild (what they leave out, the class's defaults give).
                kept = upcast(type(aggregate), kept)
                folded = {k: v for k, v in folded.items() if k in kept}
            agrees = getattr(type(aggregate), "snapshot_agrees", dict.__eq__)
            if not agrees(kept, folded):
                report.findings.append(Finding(
                    position_of(store, originator, event.originator_version), None,
                    f"the snapshot at v{event.originator_version} is not the fold of the events before it",
                    originator.hex,
                ))



def upcast(cls: type, state: dict[str, Any]) -> dict[str, Any]:
    """An older snapshot's state as the library restores it (`Snapshot.mutate`), with the class version it now has."""
    state = dict(state)
    version = state.pop("class_version", 1)
    while version < cls.class_version:
        getattr(cls, f"upcast_v{version}_v{version + 1}")(state)
        version += 1
    return {**state, "class_version": version}


def _unfinished_import(store: EventStore, key: str, commands: int) -> list[Finding]:
    """A campaign copied by an import that has not finished is a fragment, however well it verifies."""
    try:
        record = aggregate(store, ImportRecord.id_for(key))
    except AggregateNotFoundError:
        return []
    if record.finished:
        return []
    return [Finding(None, None, f"the import of this campaign is unfinished: {commands} commands stored of the "
                                f"{record.commands} its export counts; run the same `rollbook import` again to finish it",
                    record.id.hex)]
