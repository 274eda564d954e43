"""Exporting a campaign (`rollbook export`): the file `rollbook import` reads (transfer.py).

The export is JSON Lines: a header, then every recorded command of the campaign's first
revision with the dice it rolled (faces and provenance), the seed commitments it made, the
seeds it revealed and — since format version 2 — every event it stored (originator,
version, topic and the stored bytes as text); then every dispute ruling, then (with
`--with-secrets`) the seeds not yet revealed; last, a trailer that counts what the file holds,
so that a file cut short or edited is refused.

Seeds not yet revealed stay secret: they are exported only with `--with-secrets` (for the
GM moving their own campaign), otherwise the copy cannot roll from the current seed until
the chapter's end reveals it — it can still be read, verified and played with typed dice.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any
from uuid import UUID

from ..domain.errors import CommandRejected, Word
from ..domain.ids import campaign_id
from ..store import Store
from ..store import EventStore
from ..store.reads import StoredEvent, stored_events
from .export_lines import command_lines, uuid_of
from .revisions import revisions
from .history import RecordedCommand, applied_version, notifications, recorded_commands

FORMAT = "rollbook-export"
#: 3: a version-2 file with its trailer; every file this Rollbook imports must end with one.
VERSION = 3
#: Versions this Rollbook imports: 1 carries no events and is always re-executed.
READABLE = (1, 2, 3)


def export_lines(store: Store, campaign: str, *, with_secrets: bool = False) -> Iterator[str]:
    yield json.dumps({"format": FORMAT, "version": VERSION, "campaign": campaign})
    pending: set[str] = set()
    commands = 0
    for recorded, stored in commands_with_events(store, campaign):
        if recorded.type == "dispute":
            continue
        pending.update(recorded.commitments)
        pending.difference_update(recorded.reveals)
        commands += 1
        yield from command_lines({"kind": "command", **asdict(recorded)}, stored)
    listed = revisions(store, campaign)
    for before, entry in itertools.pairwise(listed):
        # The checkpoints the revision signed: an import where the campaign's key is not kept re-makes them alike.
        signed = [c for recorded in recorded_commands(store, entry["key"]) for c in recorded.checkpoints]
        yield json.dumps({"kind": "dispute", **entry, "checkpoints": signed}, ensure_ascii=False)
        for recorded in played_after_ruling(store, before["key"], entry["key"]):
            pending.update(recorded.commitments)
            pending.difference_update(recorded.reveals)
            commands += 1
            yield json.dumps({"kind": "command", "revision": entry["revision"], **asdict(recorded)}, ensure_ascii=False)
    if with_secrets:
        for commitment in sorted(pending):
            yield json.dumps({"kind": "secret", "commitment": commitment,
                              "seed": store.seeds.seed(campaign, commitment).hex()})
    root = store.get(campaign_id(campaign))
    yield json.dumps(Trailer(commands, root.chain, [e["dispute"] for e in listed[1:]]).as_entry())


@dataclass(frozen=True)
class Trailer:
    """An export's last line: what the whole file holds, so a file cut short is refused.

    `head` is the campaign's hash chain after its last record (rulings included): what a
    published checkpoint of the campaign names, and what the copy's chain must come to.
    """

    commands: int
    head: str
    rulings: list[str]

    def as_entry(self) -> dict[str, Any]:
        return {"kind": "trailer", "commands": self.commands, "head": self.head, "rulings": self.rulings}

    @classmethod
    def read(cls, number: int, entry: dict[str, Any]) -> Trailer:
        commands, head, rulings = entry.get("commands"), entry.get("head"), entry.get("rulings")
        if not (isinstance(commands, int) and isinstance(head, str) and isinstance(rulings, list)
                and all(isinstance(r, str) for r in rulings)):
            raise CommandRejected("line {number}: a trailer needs commands, head and rulings; nothing was imported",
                                  field="file", number=number)
        return cls(commands, head, rulings)

    def check(self, commands: int, rulings: list[str]) -> None:
        """Refuse a file whose lines are not the ones its trailer counts."""
        if commands != self.commands:
            raise CommandRejected("the trailer counts {counted} commands, the file holds {commands}: "
                                  "it was cut or edited; nothing was imported", field="file", counted=self.commands,
                                  commands=commands)
        if rulings != self.rulings:
            raise CommandRejected("the trailer lists the rulings {listed}, the file holds {rulings}; "
                                  "nothing was imported", field="file", listed=self.rulings, rulings=rulings)

    def check_head(self, head: str, what: str) -> None:
        """`what`: which history ends at `head`, marked with `N_` (it is said in the reader's language)."""
        if head != self.head:
            raise CommandRejected("{what} ends at hash {head}…, the trailer's head is {trailer}…: "
                                  "the file does not hold the history its trailer names", field="file",
                                  what=Word(what), head=head[:16], trailer=self.head[:16])


def played_after_ruling(store: EventStore, previous_key: str, key: str) -> Iterator[RecordedCommand]:
    """The commands played on a revision once its ruling made it current.

    A ruling re-makes the previous revision's commands under the new key (same ids); what
    the new revision holds beyond those was played on it afterwards. Importing re-applies
    the ruling, which re-makes the former, so only the latter are exported — and decided
    again after the ruling (there is nothing of theirs to check a copy against).
    """
    remade = {recorded.id for recorded in recorded_commands(store, previous_key)}
    for recorded in recorded_commands(store, key):
        if recorded.id not in remade and recorded.type not in ("dispute", "history"):
            yield recorded


def commands_with_events(store: EventStore, campaign: str) -> Iterator[tuple[RecordedCommand, list[StoredEvent]]]:
    """Each recorded command of the campaign with the events it stored, its CommandApplied last.

    A command's events are one transaction's, so they follow each other in the store's
    notification order, just before its CommandApplied. Reading the notifications page by
    page finds them in one pass, instead of one query per event; what lies between two of
    the campaign's commands (other campaigns, revisions) is dropped. An event not found
    there (a store that numbered a transaction's events apart) is read by its id.
    """
    campaign_uuid = campaign_id(campaign)
    pages = notifications(store)
    between: dict[tuple[UUID, int], StoredEvent] = {}
    version = 0
    for recorded in recorded_commands(store, campaign):
        version = applied_version(recorded, campaign_uuid, version)
        closing = None
        for stored in pages:
            key = (uuid_of(stored.originator_id), stored.originator_version)
            if key == (campaign_uuid, version):
                closing = stored
                break
            between[key] = stored
        if closing is None:
            closing = _read_one(store, campaign_uuid, version)
        if not closing.topic.endswith(".CommandApplied"):
            raise CommandRejected(
                "{campaign}: command {id} does not end with its CommandApplied at version {version} "
                "(found {topic}); the export cannot say which command stored it", field="campaign",
                campaign=campaign, id=recorded.id, version=version, topic=closing.topic)
        written = [between.get((UUID(o), v)) or _read_one(store, UUID(o), v) for o, v, _ in recorded.writes]
        between.clear()
        yield recorded, [*written, closing]


def _read_one(store: EventStore, originator: UUID, version: int) -> StoredEvent:
    found = stored_events(store, originator, gt=version - 1, lte=version)
    if not found:
        raise CommandRejected("event v{version} of {originator}… is not in the store", field="campaign",
                              version=version, originator=originator.hex[:8])
    return found[0]
