"""A campaign's recorded history: its commands in order, each with the dice it rolled.

Everything replay needs is on the campaign's own stream: every command ends with
`CommandApplied` (the command as given, what it wrote, its hash), preceded by the
`DiceRolled` events of its rolls and any seed commitments it made. The stream is read in
pages, so a long history is never held in memory whole.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from ..domain.campaign_revisions import root_of
from ..domain.chain import revision_start
from ..domain.errors import DamagedHistory
from ..domain.ids import campaign_id
from ..domain.revisions import revision_of
from ..store import EventStore
from ..store.failures import describe
from ..store.reads import StoredEvent, decoded_state, stored_log, stored_pages

PAGE = 2000
NEEDED = ("DiceRolled", "SeedCommitted", "SeedRevealed", "SeedAbandoned", "SigningKeyRecorded", "CheckpointSigned",
          "CommandApplied", "Disputed", "Ruled", "RevisionAdopted")


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
    store: EventStore, key: str, *, names: tuple[str, ...] = NEEDED,
    pages: Callable[[list[StoredEvent]], None] | None = None,
    unreadable: Callable[[StoredEvent, Exception], None] | None = None,
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The campaign aggregate's events of the given kinds, in order, page by page: each its
    name and its fields, decoded straight to a dict (no event object is built).

    `pages` is shown every page as it is read (a verifying replay compares the campaign's
    stream from these very pages instead of reading it twice). An event whose bytes do not
    decode (a damaged or edited store) is refused (`DamagedHistory`), or shown to `unreadable`
    and passed over: `verify` reports it and goes on.
    """
    originator = campaign_id(key)
    for page in stored_pages(store, originator, PAGE):
        if pages is not None:
            pages(page)
        for stored in page:
            name = _topic_name(stored.topic)
            if name in names:
                try:
                    decoded = _decoded(store, stored.state)
                except ValueError as error:
                    if unreadable is None:
                        raise DamagedHistory("event {name} v{version} of {key} does not decode ({why})", name=name,
                                             version=stored.originator_version, key=key,
                                             why=describe(error)) from None
                    unreadable(stored, error)
                    continue
                yield name, decoded


def _decoded(store: EventStore, state: bytes) -> dict[str, Any]:
    decoded = decoded_state(store, state)
    if not isinstance(decoded, dict):
        raise ValueError(f"an event's state is an object, not {type(decoded).__name__}")
    return decoded


def derived_fields(events: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """What a recorded command keeps beside its command of the campaign events it wrote (each its name
    and fields, in order): its rolls, the seeds committed, revealed and abandoned, the key, the checkpoints."""
    found: dict[str, Any] = {"rolls": [], "commitments": [], "reveals": {}, "public_key": None, "checkpoints": [],
                             "abandoned": []}
    for name, event in events:
        if name == "DiceRolled":
            found["rolls"].append(event["roll"])
        elif name == "SeedCommitted":
            found["commitments"].append(event["commitment"])
        elif name == "SeedRevealed":
            found["reveals"][event["commitment"]] = event["seed"]
        elif name == "SigningKeyRecorded":
            found["public_key"] = event["public_key"]
        elif name == "CheckpointSigned":
            found["checkpoints"].append({k: event[k] for k in ("revision", "commands", "head", "time", "signature")})
        elif name == "SeedAbandoned":
            found["abandoned"].append(event["commitment"])
    return found


def recorded_commands(
    store: EventStore, key: str, *, until_seq: int | None = None,
    pages: Callable[[list[StoredEvent]], None] | None = None,
    unreadable: Callable[[StoredEvent, Exception], None] | None = None,
) -> Iterator[RecordedCommand]:
    written: list[tuple[str, dict[str, Any]]] = []
    for name, event in campaign_events(store, key, pages=pages, unreadable=unreadable):
        if name != "CommandApplied":
            written.append((name, event))
            continue
        if until_seq is not None and event["seq"] > until_seq:
            return
        yield RecordedCommand(
            seq=event["seq"], command=event["command"], chain=event["chain"], writes=event["writes"],
            applied_id=event["command_id"], applied_at=event["timestamp"].isoformat(), **derived_fields(written),
        )
        written = []


def chain_start(store: EventStore, key: str) -> str | None:
    """What revision `key`'s first command chains to: the hash of the ruling that made it, as the first revision
    records it (`chain.revision_start`); None (zeros) for the first revision, and for one made before rulings
    named the revision they replace."""
    revision = revision_of(key)
    if revision == 1:
        return None
    ruled = (event for _, event in campaign_events(store, root_of(key), names=("Ruled",)))
    return next((revision_start(event) for event in ruled if event.get("revision") == revision), None)


def applied_version(recorded: RecordedCommand, campaign_uuid: UUID, previous: int) -> int:
    """The campaign version of this command's CommandApplied: one after its last campaign write."""
    versions = [w[1] for w in recorded.writes if w[0] == campaign_uuid.hex]
    return (max(versions) if versions else previous) + 1


def notifications(store: EventStore) -> Iterator[StoredEvent]:
    """Every event of the store in notification (commit) order, read page by page."""
    return stored_log(store, PAGE)
