"""Importing a version-2 export by copying its stored events, checked, instead of re-deciding.

A version-2 command line names every event its command stored (originator, version,
topic), in the order they were stored, ending with the command's own `CommandApplied`; the
next lines are those events' stored bytes, verbatim, one event a line (the JSON transcoder
writes one line of UTF-8 JSON). Verbatim, not quoted inside the command's JSON: a quoted
event is a string full of escapes, slow to parse, and the copy never needs to parse it — its
bytes go to the store as read, and only the checking pass decodes them, once. Those bytes are what the command's record fingerprints
(`writes`) and what its hash chain covers, so the copy can be checked without running a
single rule:

- each event's digest (topic and bytes) is the one its command's `writes` recorded, at the
  same aggregate and version, and the events are exactly those writes plus the closing
  `CommandApplied` at the campaign's next version;
- that `CommandApplied` says what the line says (seq, command, writes, chain);
- the hash chain recomputes from the genesis hash, command after command (as `verify`);
- every aggregate's versions run 1, 2, 3… without a gap, each command's claim is the
  claim of its own id, and every topic is one of Rollbook's domain events (a topic names a
  class to import: nothing outside the domain is ever resolved);
- none of the aggregates exists in the target store yet.

Trust: this proves the file is the history some Rollbook store recorded, unedited since,
not that the rules would decide it again the same way (a forger can compute hashes too).
`rollbook replay --verify` re-decides every command; `rollbook import --reexecute` imports
by re-deciding.

All or nothing: a first streaming pass checks the whole file and writes nothing; only
then does a second pass insert the events, one transaction per batch of commands. Neither
pass holds more than one line's events. What the first pass keeps is small: the last
version of each aggregate, the aggregates themselves (not their events) and the snapshots.

Snapshots: the store snapshots an aggregate when a command takes it across a multiple of
SNAPSHOT_INTERVAL (store/app.py), from the state in memory. The checking pass does the
same: it folds every event but the command claims into its aggregate (decode and
`mutate`, evolving only, no deciding — so an event that does not decode or does not fit
its aggregate is refused before anything is written too; a claim is decoded, not kept),
snapshots each aggregate after the command that takes it across the interval, and keeps the snapshot's bytes (a few
hundred kilobytes for a 20,000-command campaign) for the copying pass to store once every
event is in. The folded aggregates, at their last version, are left in the
repository's cache, where the next command would have found them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.utils import TopicError, resolve_topic

from ..domain.chain import GENESIS_CHAIN, chain_hash, event_digest
from ..domain.campaign import Campaign
from ..domain.errors import CommandRejected
from ..domain.ids import campaign_id, command_claim_id
from ..domain.members import CommandClaim
from ..store import Store
from ..store import SNAPSHOT_INTERVAL
from ..store.reads import MapperDeserialisationError, StoredEvent, decoded, has_events
from ..store.roster_chunks import RosterChunks
from .export_lines import command_fields, refused, stored_event
from .history import derived_fields

#: Topics must name a class in this package's domain: a topic is imported to be decoded.
DOMAIN_PREFIX = f"{__package__.rsplit('.', 1)[0]}.domain."

#: Deeper than any event Rollbook writes (a few levels), far below what Python's JSON decoder gives up on:
#: an event nested near that limit decodes here, and then breaks the readers that encode it again.
MAX_NESTING = 100

#: Called with the phase ("checking", "copying", "re-executing"), how many commands it has done and how
#: many it will do (None where the file does not say).
Progress = Callable[[str, int, int | None], None]


@dataclass
class Checked:
    """What the checking pass learnt: enough to copy and snapshot, never the events."""

    commands: int = 0
    events: int = 0
    #: Stored snapshots, in the order they were taken, each after the roster chunks it seals first.
    snapshots: list[StoredEvent] = field(default_factory=list)
    #: The roster chunks among them, by id, with their digests.
    chunks: dict[UUID, str] = field(default_factory=dict)
    #: Every aggregate but the claims, folded to its last version.
    aggregates: dict[str, Any] = field(default_factory=dict)


class HistoryCheck:
    """The checking pass over the command lines of one campaign's export, in order."""

    def __init__(self, store: Store, campaign: str) -> None:
        self.store = store
        self.campaign = campaign
        self.campaign_hex = campaign_id(campaign).hex
        self.previous_chain = GENESIS_CHAIN
        self.versions: dict[str, int] = {}
        self.claims: set[str] = set()
        self.checked = Checked()
        self._classes: dict[str, type] = {}
        #: Whether its `create_campaign` marks it as the testing kit's (given history allowed).
        self.testing_kit = False

    def line(self, number: int, entry: dict[str, Any]) -> None:
        where = f"line {number}"
        seq, command, chain, writes, events = command_fields(where, entry)
        where = f"line {number} (command {command.get('id')!r}, seq {seq})"
        if seq != self.checked.commands + 1:
            raise refused(where, f"expected command seq {self.checked.commands + 1}: a command is missing or out of order")
        if len(events) != len(writes) + 1:
            raise refused(where, f"carries {len(events)} events; its record names {len(writes)} writes and a CommandApplied")
        if seq == 1:
            self.testing_kit = command.get("type") == "create_campaign" and command.get("testing_kit") is True
        if command.get("type") == "history" and not self.testing_kit:
            raise refused(where, "given history (a `history` record, which no rule decided) in a campaign "
                           "the testing kit did not create")
        claims = 0
        folded: list[tuple[int, list[Any]]] = []
        first = entry.get("first_event_line", number + 1)

        def label(index: int) -> str:  # built only for a refusal: most lines have none
            originator, version, topic, _ = events[index]
            return f"its event on line {first + index} ({_name(topic)} v{version} of {originator[:8]}…)"

        for index, (write, event) in enumerate(zip(writes, events, strict=False)):
            originator, version, topic, state = event
            if originator != write[0] or version != write[1]:
                raise refused(where, f"{label(index)} is not the write its record names ({write[0][:8]}… v{write[1]})")
            event_class = self._classes.get(topic) or self._check_topic(where, label(index), topic)
            if event_digest(_Stored(topic, state)) != write[2]:
                raise refused(where, f"{label(index)} was edited: its digest is not the one its command recorded")
            if self.versions.get(originator, 0) + 1 != version:
                self._advance(where, label(index), originator, version)  # refuses, naming the version expected
            self.versions[originator] = version
            if issubclass(event_class, CommandClaim.Event):
                self._check_claim(where, label(index), originator, str(command.get("id")))
                self._decode(where, label, index, event)  # read by every later look-up of the command's id
                claims += 1
            else:
                folded.append((index, event))
        if claims != 1:
            raise refused(where, f"writes {claims} command claims; a command writes exactly one")
        applied = self._check_applied(where, seq, command, chain, writes, events[-1], first + len(writes))
        if chain_hash(self.previous_chain, command, writes) != chain:
            raise refused(where, "the hash chain is broken: the command or its writes were edited")
        decoded = self._fold(where, folded, label, applied)
        self._check_derived(where, entry, [event for originator, event in decoded if originator == self.campaign_hex],
                            applied)
        self.previous_chain = chain
        self.checked.commands += 1
        self.checked.events += len(events)

    def finish(self) -> Checked:
        """The whole file checked: the target store must not hold any of its aggregates."""
        if self.checked.commands == 0:
            raise CommandRejected("the export has no commands", field="file")
        if has_events(self.store, UUID(self.campaign_hex)):
            raise CommandRejected("campaign {campaign!r} already exists in this store", field="campaign",
                                  campaign=self.campaign)
        # The claims are this campaign's own ids (checked above); the other aggregates, a few
        # hundred even in a long campaign, are looked up one by one.
        for originator in self.versions.keys() - self.claims:
            if has_events(self.store, UUID(originator)):
                raise CommandRejected("aggregate {originator} of the export already exists in this store",
                                      field="file", originator=originator)
        return self.checked

    def _check_topic(self, where: str, label: str, topic: str) -> type:
        if topic in self._classes:
            return self._classes[topic]
        if not topic.startswith(DOMAIN_PREFIX):
            raise refused(where, f"{label} has topic {topic!r}, not a Rollbook domain event")
        try:
            event_class = resolve_topic(topic)
        except TopicError:
            raise refused(where, f"{label} has topic {topic!r}, which names no event class here") from None
        if not (isinstance(event_class, type) and issubclass(event_class, Aggregate.Event)):
            raise refused(where, f"{label} has topic {topic!r}, which is not a domain event")
        self._classes[topic] = event_class
        return event_class

    def _advance(self, where: str, label: str, originator: str, version: int) -> None:
        expected = self.versions.get(originator, 0) + 1
        if version != expected:
            raise refused(where, f"{label}: expected version {expected} of that aggregate")
        self.versions[originator] = version

    def _check_claim(self, where: str, label: str, originator: str, command_id: str) -> None:
        if originator != command_claim_id(self.campaign, command_id).hex:
            raise refused(where, f"{label} claims another command's id, not {command_id!r}")
        self.claims.add(originator)

    def _check_applied(
        self, where: str, seq: int, command: dict[str, Any], chain: str, writes: list[Any], closing: list[Any],
        entry_line: int,
    ) -> Any:
        originator, version, topic, _ = closing
        label = f"its closing event ({_name(topic)} v{version}, line {entry_line})"
        if originator != self.campaign_hex:
            raise refused(where, f"{label} is not on the campaign {self.campaign!r}")
        self._check_topic(where, label, topic)
        if not issubclass(self._classes[topic], Campaign.CommandApplied):
            raise refused(where, f"{label} is not a CommandApplied")
        self._advance(where, label, originator, version)
        applied = self._decode(where, label, -1, closing)
        recorded = {"seq": seq, "command_id": command.get("id"), "command": command, "writes": writes, "chain": chain}
        for name, value in recorded.items():
            if getattr(applied, name, None) != value:
                raise refused(where, f"{label} does not record the line's {name}")
        return applied

    def _check_derived(self, where: str, entry: dict[str, Any], campaign_events: list[Any], applied: Any) -> None:
        """A line's copies of what its events say (its rolls, seeds, key, checkpoints) must be what they say:
        a copy keeps the events, so an edited copy would be silently dropped; it is refused, naming the field."""
        found = derived_fields((type(event).__name__, vars(event)) for event in campaign_events)
        found.update(applied_id=applied.command_id, applied_at=applied.timestamp.isoformat())
        for name, value in found.items():
            if name in entry and entry[name] != value:
                raise refused(where, f"its {name} are not what its events record: the line's copy was edited")

    def _fold(
        self, where: str, folded: list[tuple[int, list[Any]]], label: Callable[[int], str], applied: Any
    ) -> list[tuple[str, Any]]:
        """Evolve the aggregates by this command's events; snapshot those it took across the interval.
        The events decoded (aggregate, event), in order."""
        aggregates = self.checked.aggregates
        decoded = [(index, entry[0], self._decode(where, label, index, entry)) for index, entry in folded]
        due: set[str] = set()
        for index, originator, event in [*decoded, (None, self.campaign_hex, applied)]:
            try:
                aggregates[originator] = event.mutate(aggregates.get(originator))
            except (TypeError, ValueError, AttributeError, KeyError, AssertionError) as error:
                which = "its CommandApplied" if index is None else label(index)
                raise refused(where, f"{which} does not fit its aggregate: {error!r}") from None
            if event.originator_version % SNAPSHOT_INTERVAL == 0:
                due.add(originator)
        # Like RollbookApplication._snapshot: after the whole command, and transcoded at once,
        # since the aggregate goes on changing and a snapshot shares its nested objects.
        for originator in due:
            rows = self.store.snapshot_rows(aggregates[originator], self.checked.chunks)
            self.checked.chunks.update(RosterChunks.digests(rows))
            self.checked.snapshots += rows
        return [(originator, event) for _, originator, event in decoded]

    def _decode(self, where: str, label: Callable[[int], str] | str, index: int, entry: list[Any]) -> Any:
        try:
            event = decoded(self.store, stored_event(entry))
        except (ValueError, TypeError, KeyError) as error:
            from ..commands.lines import undecodable

            which = label if isinstance(label, str) else label(index)
            # The mapper wraps what the JSON decoder said (too deep, a number too long): say it as `run` does.
            problem = undecodable(error.__cause__) if isinstance(error, MapperDeserialisationError) else None
            if problem is not None:
                raise refused(where, f"{which} is not JSON ({problem.removeprefix('broken JSON: ')})") from None
            raise refused(where, f"{which} cannot be decoded: {error}") from None
        # Counting brackets is quick; only a line with more of them than the limit is walked.
        state = entry[3]
        if state.count(b"[") + state.count(b"{") > MAX_NESTING and _nesting(vars(event)) > MAX_NESTING:
            which = label if isinstance(label, str) else label(index)
            raise refused(where, f"{which} nests more than {MAX_NESTING} levels deep, which no Rollbook store writes")
        return event


def _nesting(value: Any) -> int:
    """How deep lists and objects nest in a decoded value (walked without recursing)."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list | tuple) else None
        if children is not None:
            deepest = max(deepest, depth)
            pending.extend((child, depth + 1) for child in children)
    return deepest


def copy_history(
    store: Store,
    commands: Iterator[tuple[int, dict[str, Any]]],
    checked: Checked,
    *,
    batch_size: int,
    progress: Progress | None = None,
    after: int = 0,
    begun: list[StoredEvent] | None = None,
) -> int:
    """Insert the checked command lines' events, `batch_size` commands per transaction; how many commands.

    `begun` (the import's record) goes in with the first batch; `after` commands are in the
    store already (a rerun of a killed import carries on after them).
    """
    copied = after
    batch: list[StoredEvent] = list(begun or [])
    in_batch = 0

    def insert() -> None:
        nonlocal copied, batch, in_batch
        store.insert_copied(batch)
        copied += in_batch
        batch, in_batch = [], 0
        if progress is not None:
            progress("copying", copied, checked.commands)

    for index, (_, entry) in enumerate(commands):
        if index < after:
            continue
        batch += [stored_event(e) for e in entry["events"]]
        in_batch += 1
        if in_batch >= batch_size:
            insert()
    if in_batch or batch:
        insert()
    # After every event, in one transaction of their own (as RollbookApplication.record, a
    # snapshot never runs ahead of its events): one commit instead of one per batch; a rerun
    # finds them all stored, or none.
    if checked.snapshots:
        store.insert_copied_snapshots(checked.snapshots)
    if copied > after:
        # At their last version, as after the last command: where the next command looks first.
        # Only when this run stored that command: a rerun that found every command stored may
        # find the rulings stored too, which took the aggregates past the file's last command.
        store.remember(checked.aggregates.values())
    return copied


@dataclass
class _Stored:
    """The two fields `event_digest` reads."""

    topic: str
    state: bytes


def _name(topic: str) -> str:
    return topic.rsplit(".", 1)[-1]
