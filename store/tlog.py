"""The Merkle tree of each campaign revision, kept beside its events, and the witnesses' cosignatures.

The campaign aggregate keeps its tree's compact range (enough for a root); proofs need the
hash of any complete subtree, which are kept here as tiles (the layout of C2SP tlog-tiles):
the tile at level L, index N holds the hashes of the complete subtrees of height 8L at
indexes 256N … 256N+255, concatenated (level 0: the leaf hashes). Full tiles never change;
the last tile of each level grows. A tree of a million commands is 32 MB of leaf hashes in
about 4,000 rows, and any proof reads at most two tiles per level.

The tiles are derived: they follow the recorded commands (`LogTree.caught_up` appends those
recorded since, O(1) hashes each amortised) and are built from all of them on first need, so
a store written before they existed needs nothing done. Their state row names the chain hash
at their size: a history changed below it (a cut, a rewrite) is noticed and they are rebuilt,
so a proof always speaks for the events as they are. `verify` holds the tree to the chain
without them.

The tiles, their state and the witnesses' cosignatures are kept in rows of their own (store/tlog_rows.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .. import settings
from ..domain.chain import GENESIS_CHAIN
from ..domain.errors import CommandRejected, Word
from ..domain.ids import campaign_id
from ..domain.transparency import merkle
from ..domain.transparency.note import name_problem
from ..domain.transparency.proof import command_leaf
from ..domain.transparency.tiles import TILE_HEIGHT, TILE_WIDTH
from .app import EventStore, application
from .failures import is_store_failure
from .tlog_rows import EMPTY, TreeState, rows_for

if TYPE_CHECKING:
    from ..domain.campaign import Campaign

HASH = merkle.HASH_SIZE
#: Commands appended per transaction while the tiles catch up.
BATCH = 20_000
APPLIED = "CommandApplied"


def public_host() -> str | None:
    """`$ROLLBOOK_PUBLIC_HOST`: the host a campaign's log is named under (`HOST/rollbook/CAMPAIGN`).
    Set it once, before the first checkpoint: the origin is the log's identity to its witnesses."""
    host = (settings.text("public_host") or "").strip().strip("/")
    if not host:
        return None
    problem = name_problem(host)
    if problem is not None:
        raise CommandRejected("ROLLBOOK_PUBLIC_HOST {host!r} cannot begin a key name: {problem}", field="store",
                              host=host, problem=Word(problem))
    return host



class LogTree:
    """The tree of one campaign revision (`key`), as its tiles hold it."""

    def __init__(self, store: EventStore, key: str) -> None:
        self.app, self.key = application(store), key
        self.rows = rows_for(store)
        self.state = self.rows.state(key) or EMPTY
        self._tiles: dict[tuple[int, int], bytes] = {}

    @property
    def size(self) -> int:
        return self.state.size

    @classmethod
    def caught_up(cls, store: EventStore, key: str) -> LogTree:
        tree = cls(store, key)
        tree.catch_up()
        return tree

    # --- following the record -----------------------------------------------------------

    def _applied(self, gt: int, lte: int | None = None, limit: int | None = None) -> Iterable[tuple[int, int, str]]:
        """(version, seq, chain) of the revision's recorded commands after campaign version `gt`."""
        recorder, mapper, originator = self.app.recorder, self.app.mapper, campaign_id(self.key)
        while True:
            page = recorder.select_events(originator, gt=gt, lte=lte, limit=limit or 2000)
            if not page:
                return
            for stored in page:
                if stored.topic.rsplit(".", 1)[-1] == APPLIED:
                    state = stored.state
                    if mapper.cipher:
                        state = mapper.cipher.decrypt(state)
                    if mapper.compressor:
                        state = mapper.compressor.decompress(state)
                    fields = mapper.transcoder.decode(state)
                    yield stored.originator_version, int(fields["seq"]), str(fields["chain"])
            gt = page[-1].originator_version
            if limit is not None:
                return

    def catch_up(self, *, rebuild: bool = False) -> None:
        """Append the commands recorded since the tiles' size; rebuild them if the history below it changed,
        or if asked (`rollbook rebuild`: tiles deleted or damaged, which their state row does not show)."""
        reset = rebuild
        if rebuild:
            self.state, self._tiles = EMPTY, {}
        elif self.state.size:
            below = list(self._applied(self.state.version - 1, lte=self.state.version, limit=1))
            if below != [(self.state.version, self.state.size, self.state.head)]:
                self.state, self._tiles, reset = EMPTY, {}, True
        leaves: list[bytes] = []
        last = self.state
        size = last.size
        for version, seq, chain in self._applied(last.version):
            leaves.append(command_leaf(seq, chain))
            size += 1
            last = TreeState(size, chain, version)
            if len(leaves) >= BATCH:
                self.append(leaves, last, reset=reset)
                leaves, reset = [], False
        if leaves or reset:
            self.append(leaves, last, reset=reset)

    def append(self, leaves: list[bytes], state: TreeState, *, reset: bool = False) -> None:
        """Append leaf hashes (their last command `state`), saved with their tiles in one transaction;
        `reset`: the tiles kept before are dropped first."""
        changed: dict[tuple[int, int], bytes] = {}
        level, entries, first = 0, leaves, self.state.size
        while entries:
            index, offset = divmod(first, TILE_WIDTH)
            data = self._tile(level, index)[: offset * HASH] + b"".join(entries)
            completed = []
            for start in range(0, len(data), TILE_WIDTH * HASH):
                chunk = data[start:start + TILE_WIDTH * HASH]
                changed[(level, index + start // (TILE_WIDTH * HASH))] = chunk
                if len(chunk) == TILE_WIDTH * HASH:
                    completed.append(merkle.complete_root(_hashes(chunk)))
            entries, first, level = completed, first // TILE_WIDTH, level + 1
        self._tiles.update(changed)
        self.state = state
        try:
            self.rows.save(self.key, state, changed, reset=reset)
        except Exception as error:  # read-only or full: the tree serves this run from memory
            if not is_store_failure(error):
                raise

    # --- reading ------------------------------------------------------------------------

    def _tile(self, level: int, index: int) -> bytes:
        if (level, index) not in self._tiles:
            found = self.rows.tiles(self.key, level, [index])
            self._tiles[(level, index)] = found.get(index, b"")
        return self._tiles[(level, index)]

    def tile(self, level: int, index: int) -> bytes:
        """The tile's hashes as kept now (C2SP tlog-tiles: full, or the prefix it grows from; empty if none)."""
        return self._tile(level, index)

    def subtree(self, height: int, index: int) -> bytes:
        """The hash of the complete subtree of `height` at `index` (within the tiles' size)."""
        level, rest = divmod(height, TILE_HEIGHT)
        width = 1 << rest
        tile, offset = divmod(index * width, TILE_WIDTH)
        data = self._tile(level, tile)
        if len(data) < (offset + width) * HASH:
            raise CommandRejected("the Merkle tree kept for {key} lacks the subtree {height}/{index}: its tiles "
                                  "were damaged or deleted: `rollbook rebuild` makes them again", field="campaign",
                                  key=self.key, height=height, index=index)
        return merkle.complete_root(_hashes(data[offset * HASH:(offset + width) * HASH]))

    def _within(self, size: int) -> None:
        if not 0 <= size <= self.size:
            raise CommandRejected("{key} has {recorded} commands recorded, not {size}", field="size", key=self.key,
                                  recorded=self.size, size=size)

    def root(self, size: int | None = None) -> bytes:
        size = self.size if size is None else size
        self._within(size)
        return merkle.range_hash(0, size, self.subtree) if size else merkle.EMPTY_ROOT

    def peaks(self, size: int) -> list[bytes]:
        self._within(size)
        return merkle.peaks_at(size, self.subtree)

    def inclusion(self, index: int, size: int) -> list[bytes]:
        self._within(size)
        return merkle.inclusion_path(index, size, self.subtree)

    def consistency(self, old: int, new: int) -> list[bytes]:
        self._within(new)
        return merkle.consistency_path(old, new, self.subtree)


    def damage(self, chain: Sequence[str]) -> str | None:
        """What is wrong with the kept tiles, held to the revision's chain hashes in order (`verify`); None if
        they hold its tree. Tiles behind a history changed below their size are rebuilt at their next use, and
        the chain's own findings say what changed: nothing is said of them here."""
        size = self.size
        if size == 0 or size > len(chain) or chain[size - 1] != self.state.head:
            return None
        try:
            root = self.root(size)
        except CommandRejected:
            return (f"the Merkle tiles kept for {self.key} lack part of its tree of {size} commands (deleted): "
                    "checkpoints and proofs are refused until `rollbook rebuild` makes them again")
        if root != merkle.root_of([command_leaf(seq, c) for seq, c in enumerate(chain[:size], start=1)]):
            return (f"the Merkle tiles kept for {self.key} do not hold the tree of its {size} commands (edited): "
                    "`rollbook rebuild` makes them again")
        return None


def rebuild_trees(store: EventStore, keys: Iterable[str]) -> None:
    """Make every revision's tiles again from its recorded commands (`rollbook rebuild`)."""
    app = application(store)
    for key in keys:
        LogTree(app, key).catch_up(rebuild=True)


def _hashes(data: bytes) -> list[bytes]:
    return [data[i:i + HASH] for i in range(0, len(data), HASH)]


def fill_tree(store: EventStore, campaign: Campaign) -> None:
    """Give a campaign restored from a snapshot older than the tree its compact range, from its record."""
    app = application(store)
    tree = LogTree.caught_up(app, campaign.campaign)
    if tree.size >= campaign.seq:
        campaign.tree = [peak.hex() for peak in tree.peaks(campaign.seq)]
    elif tree.size == campaign.seq - 1:  # its last command is still being committed (`run`'s writer thread)
        peaks = tree.peaks(tree.size)
        merkle.append(peaks, tree.size, command_leaf(campaign.seq, campaign.chain))
        campaign.tree = [peak.hex() for peak in peaks]
