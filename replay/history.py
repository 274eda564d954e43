"""A campaign's recorded history: its commands in order, each with the dice it rolled.

Everything replay needs is on the campaign's own stream: every command ends with
`CommandApplied` (the command as given, what it wrote, its hash), preceded by the
`DiceRolled` events of its rolls and any seed commitments it made. The stream is read in
pages, so a long history is never held in memory whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent

from ..domain.ids import campaign_id

PAGE = 2000
NEEDED = ("DiceRolled", "SeedCommitted", "SeedRevealed", "SeedAbandoned", "SigningKeyRecorded", "CheckpointSigned",
          "CommandApplied", "Disputed", "RevisionAdopted")


@dataclass
class RecordedCommand:
    seq: int
    command: dict[str, Any]
    chain: str
    writes: list[list[Any]]
    rolls: list[dict[str, Any]] = field(default_factory=list)
    commitments: list[str] = field(default_factory=list)
    reveals: dict[str, str] = field(default_factory=dict)
    #: The copies on `CommandApplied` of the command's id and time (both also in `command`).
    applied_id: str | None = None
    applied_at: str | None = None
    #: The campaign's public key, if this command recorded it (its creation).
    public_key: str | None = None
    #: The checkpoints it signed (its fields without the campaign), in order.
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    #: Commitments given up without a reveal (abandon_seed): their rolls cannot be recomputed.
    abandoned: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return str(self.command["id"])

    @property
    def type(self) -> str:
        return str(self.command["type"])


def _topic_name(topic: str) -> str:
    return topic.rsplit(".", 1)[-1]


def campaign_events(
    app: Application, key: str, *, names: tuple[str, ...] = NEEDED,
    pages: Callable[[list[StoredEvent]], None] | None = None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The campaign aggregate's events of the given kinds, in order, page by page: each its
    name and its fields, decoded straight to a dict (no event object is built).

    `pages` is shown every page as it is read (a verifying replay compares the campaign's
    stream from these very pages instead of reading it twice).
    """
    originator = campaign_id(key)
    mapper = app.mapper
    version = 0
    while True:
        page = app.recorder.select_events(originator, gt=version, limit=PAGE)
        if not page:
            return
        if pages is not None:
            pages(page)
        for stored in page:
            name = _topic_name(stored.topic)
            if name in names:
                state = stored.state
                if mapper.cipher:
                    state = mapper.cipher.decrypt(state)
                if mapper.compressor:
                    state = mapper.compressor.decompress(state)
                yield name, mapper.transcoder.decode(state)
        version = page[-1].originator_version


def recorded_commands(
    app: Application, key: str, *, until_seq: int | None = None,
    pages: Callable[[list[StoredEvent]], None] | None = None,
) -> Iterator[RecordedCommand]:
    rolls: list[dict[str, Any]] = []
    commitments: list[str] = []
    reveals: dict[str, str] = {}
    public_key: str | None = None
    checkpoints: list[dict[str, Any]] = []
    abandoned: list[str] = []
    for name, event in campaign_events(app, key, pages=pages):
        if name == "DiceRolled":
            rolls.append(event["roll"])
        elif name == "SeedCommitted":
            commitments.append(event["commitment"])
        elif name == "SeedRevealed":
            reveals[event["commitment"]] = event["seed"]
        elif name == "SigningKeyRecorded":
            public_key = event["public_key"]
        elif name == "CheckpointSigned":
            checkpoints.append({k: event[k] for k in ("revision", "commands", "head", "time", "signature")})
        elif name == "SeedAbandoned":
            abandoned.append(event["commitment"])
        elif name == "CommandApplied":
            if until_seq is not None and event["seq"] > until_seq:
                return
            yield RecordedCommand(
                seq=event["seq"], command=event["command"], chain=event["chain"], writes=event["writes"],
                rolls=rolls, commitments=commitments, reveals=reveals,
                applied_id=event["command_id"], applied_at=event["timestamp"].isoformat(),
                public_key=public_key, checkpoints=checkpoints, abandoned=abandoned,
            )
            rolls, commitments, reveals, public_key, checkpoints, abandoned = [], [], {}, None, [], []


def applied_version(recorded: RecordedCommand, campaign_uuid: UUID, previous: int) -> int:
    """The campaign version of this command's CommandApplied: one after its last campaign write."""
    versions = [w[1] for w in recorded.writes if w[0] == campaign_uuid.hex]
    return (max(versions) if versions else previous) + 1


def notifications(app: Application) -> Iterator[StoredEvent]:
    """Every event of the store in notification (commit) order, read page by page."""
    position = 0
    while True:
        page = app.recorder.select_notifications(position, PAGE, inclusive_of_start=False)
        if not page:
            return
        yield from page
        position = page[-1].id
