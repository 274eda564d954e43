"""A campaign's snapshot without its whole roster: full chunks of it are stored once, by digest.

A campaign's state holds its roster (name -> kind and player) and the roster's id index
(`member_of`, id -> name and place) of every member ever created. Snapshotting that whole
state every `SNAPSHOT_INTERVAL` events would make a long campaign's snapshots grow with its
roster: a command's cost would grow with the campaign, and the snapshots kept forever would take
space quadratic in the roster (bench/RESULTS.md, "Where the code's shape came from").

The roster only grows, and an entry never changes once made (a member joins once; nothing
renames or reassigns him). So each full chunk of `CHUNK` members is stored once, as a row of
the snapshot store under an id derived from the campaign and the chunk's number, and a
snapshot keeps only the members after the last full chunk and, under `SEALED`, the SHA-256 of
each full chunk's stored bytes. Restoring a snapshot reads its chunks back, checks each
against its digest (a chunk edited in the store is an error, not another roster), and gives
the very state the whole snapshot would have had: the aggregate, `verify` and time travel
see no difference. A snapshot stored whole (older ones, small rosters) is read as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import islice
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Snapshot
from eventsourcing.persistence import Mapper, StoredEvent

#: Members a chunk holds: enough that a chunk row is a few tens of KB at most, few enough
#: that the snapshot's own part (fewer than CHUNK members) stays small.
CHUNK = 256
#: The key of a sealed snapshot's state that lists its chunks' digests, in roster order.
SEALED = "sealed_roster"
CHUNK_TOPIC = "rollbook.store.roster_chunks:Chunk"
#: The stored version of every chunk row: each is written once, never appended to.
CHUNK_VERSION = 1


class SealedSnapshot(Snapshot):
    """A library snapshot whose roster's full chunks are rows of their own (stored under this topic).

    Its own topic, so that a reader that does not unseal (the library's mapper, a Rollbook from before
    chunks) fails to restore it, instead of restoring the campaign without those members.
    """

    def mutate(self, aggregate: None) -> Any:
        if SEALED in self.state:
            raise RosterChunkError(f"the snapshot of {self.originator_id} was read without its roster chunks")
        return super().mutate(aggregate)


class RosterChunkError(ValueError):
    """A sealed snapshot's chunk is missing from the store, or is not the chunk it was sealed with."""


def chunk_id(campaign: UUID, number: int) -> UUID:
    return uuid5(campaign, f"roster-chunk:{number}")


def _in_roster_order(member_of: dict[Any, Any], start: int, end: int) -> bool:
    """Whether the index's entries `start` to `end` each give their own place in the roster."""
    return all(place == at for at, (_, place) in enumerate(islice(member_of.values(), start, end), start))


def _sealable(state: Any) -> bool:
    return (isinstance(state, dict) and isinstance(state.get("roster"), dict)
            and isinstance(state.get("member_of"), dict) and SEALED not in state)


class RosterChunks:
    """Seals a campaign snapshot's full roster chunks into rows of their own, and reads them back.

    `recorder` is the snapshot store's recorder (the rows live beside the snapshots, on every
    backend); `mapper` transcodes a chunk as it does any state. What this process knows to be
    stored is kept by chunk id (its digest and its members' names), so a snapshot seals the
    chunks it has sealed before without reading or encoding them again.
    """

    def __init__(self, recorder: Any, mapper: Mapper[Any]) -> None:
        self.recorder = recorder
        self.mapper = mapper
        #: By chunk id: its digest, and its members' names and ids as the roster sealed held them.
        self.known: dict[UUID, tuple[str, tuple[str, ...], tuple[Any, ...]]] = {}
        #: The same, of the chunk rows `seal` gave and that are not yet `stored`.
        self._sealing: dict[UUID, tuple[str, tuple[str, ...], tuple[Any, ...]]] = {}

    def seal(self, snapshot: Any, pending: Mapping[UUID, str] | None = None) -> tuple[list[StoredEvent], Any]:
        """The chunk rows to store before `snapshot` (those neither stored nor `pending`), and the snapshot sealed.

        `pending`: the chunk rows given before and not stored yet, by id, each with its digest
        (`digests`). A roster shorter than a chunk, or whose index is not in roster order, is kept whole.
        """
        pending = pending or {}
        state = snapshot.state
        if not _sealable(state) or len(state["roster"]) < CHUNK:
            return [], snapshot
        roster, member_of = state["roster"], state["member_of"]
        if len(member_of) != len(roster):
            return [], snapshot
        # Keys only, and chunks this process sealed compared as tuples of the very same objects: a
        # snapshot's cost must not grow with the roster, and a Python step per member makes it grow.
        names_of, ids_of = list(roster), list(member_of)
        rows: list[StoredEvent] = []
        digests: list[str] = []
        for number in range(len(roster) // CHUNK):
            start = number * CHUNK
            names, ids = tuple(names_of[start:start + CHUNK]), tuple(ids_of[start:start + CHUNK])
            ident = chunk_id(snapshot.originator_id, number)
            sealed = self.known.get(ident)
            if sealed is not None:
                if sealed[1] != names or sealed[2] != ids:
                    break
                digests.append(sealed[0])
                continue
            if not _in_roster_order(member_of, start, start + CHUNK):
                return [], snapshot
            if ident in pending:
                digests.append(pending[ident])
                continue
            body = {"roster": dict(islice(roster.items(), start, start + CHUNK)),
                    "member_of": dict(islice(member_of.items(), start, start + CHUNK))}
            stored = self._stored(ident)
            if stored is None:
                # Through the mapper's compressor and cipher, as every other row of the store.
                row = StoredEvent(ident, CHUNK_VERSION, CHUNK_TOPIC, self._encode(body))
                rows.append(row)
                self._sealing[ident] = (hashlib.sha256(row.state).hexdigest(), names, ids)
                digests.append(self._sealing[ident][0])
            elif self._holds(stored, body):
                # The very chunk (a cipher encrypts it differently each time): named by what is stored.
                self.known[ident] = (hashlib.sha256(stored.state).hexdigest(), names, ids)
                digests.append(self.known[ident][0])
            else:
                break  # a chunk stored from another history: the rest stays in the snapshot
        kept = len(digests) * CHUNK
        if not _in_roster_order(member_of, kept, len(member_of)):
            return [], snapshot
        if not digests:
            return [], snapshot
        sealed_state = dict(state)
        sealed_state["roster"] = dict(islice(roster.items(), kept, None))
        sealed_state["member_of"] = dict(islice(member_of.items(), kept, None))
        sealed_state[SEALED] = digests
        if type(snapshot) is Snapshot:
            return rows, SealedSnapshot(originator_id=snapshot.originator_id, originator_version=snapshot.originator_version,
                                        timestamp=snapshot.timestamp, topic=snapshot.topic, state=sealed_state)
        return rows, replace(snapshot, state=sealed_state)

    def stored(self, rows: Sequence[StoredEvent]) -> None:
        """`rows` (chunk rows `seal` gave) are committed: later snapshots seal them without a read."""
        for row in rows:
            if row.topic == CHUNK_TOPIC and row.originator_id in self._sealing:
                self.known[row.originator_id] = self._sealing.pop(row.originator_id)

    @staticmethod
    def digests(rows: Sequence[StoredEvent]) -> dict[UUID, str]:
        """The chunk rows among `rows`, by id, each with its digest: what `seal` takes as `pending`."""
        return {row.originator_id: hashlib.sha256(row.state).hexdigest() for row in rows if row.topic == CHUNK_TOPIC}

    def forget(self) -> None:
        """Another writer may have stored the chunks this process thought missing: ask the store again."""
        self.known.clear()
        self._sealing.clear()

    def unseal(self, originator_id: UUID, state: dict[str, Any]) -> dict[str, Any]:
        """The whole state a sealed snapshot's `state` stands for, its chunks read back and checked.

        Anything out of shape (the digests, the snapshot's own part, a chunk's body) is a
        RosterChunkError too: a snapshot edited in the store is passed over, never a crash.
        """
        digests = state.pop(SEALED)
        if not isinstance(digests, list) or not all(isinstance(state.get(key), dict) for key in ("roster", "member_of")):
            raise RosterChunkError(f"the sealed snapshot of {originator_id} is not of the shape a sealed snapshot has")
        roster: dict[str, Any] = {}
        member_of: dict[str, Any] = {}
        for number, digest in enumerate(digests):
            ident = chunk_id(originator_id, number)
            row = self._stored(ident)
            if row is None:
                raise RosterChunkError(f"roster chunk {number} of {originator_id} is missing from the store")
            if hashlib.sha256(row.state).hexdigest() != digest:
                raise RosterChunkError(f"roster chunk {number} of {originator_id} is not the chunk its snapshot was sealed with")
            try:
                body = self._decode(row.state)
                roster.update(body["roster"])
                member_of.update(body["member_of"])
            except Exception as error:  # noqa: BLE001 - whatever the edit broke
                raise RosterChunkError(f"roster chunk {number} of {originator_id} cannot be read: {error!r}") from None
        roster.update(state["roster"])
        member_of.update(state["member_of"])
        state["roster"], state["member_of"] = roster, member_of
        return state

    def _encode(self, body: dict[str, Any]) -> bytes:
        state = self.mapper.transcoder.encode(body)
        if self.mapper.compressor is not None:
            state = self.mapper.compressor.compress(state)
        if self.mapper.cipher is not None:
            state = self.mapper.cipher.encrypt(state)
        return state

    def _decode(self, state: bytes) -> Any:
        if self.mapper.cipher is not None:
            state = self.mapper.cipher.decrypt(state)
        if self.mapper.compressor is not None:
            state = self.mapper.compressor.decompress(state)
        return self.mapper.transcoder.decode(state)

    def _holds(self, stored: StoredEvent, body: dict[str, Any]) -> bool:
        """Whether a stored chunk row is `body`, in its order."""
        try:
            found = self._decode(stored.state)
            return all(list(found[key].items()) == list(body[key].items()) for key in ("roster", "member_of"))
        except Exception:  # noqa: BLE001 - a row that does not even decode is not this chunk
            return False

    def _stored(self, ident: UUID) -> StoredEvent | None:
        # Its one version exactly: a row put beside it under another version is not the chunk.
        rows = self.recorder.select_events(ident, gt=CHUNK_VERSION - 1, lte=CHUNK_VERSION, limit=1)
        return rows[0] if rows else None


class SealingMapper(Mapper[Any]):
    """The library's mapper, but a sealed campaign snapshot is given back whole (`RosterChunks.unseal`)."""

    chunks: RosterChunks | None = None

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        event = super().to_domain_event(stored_event)
        state = getattr(event, "state", None)
        if self.chunks is not None and isinstance(state, dict) and SEALED in state:
            self.chunks.unseal(stored_event.originator_id, state)
        return event
