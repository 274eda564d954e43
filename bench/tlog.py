"""The transparency log's rows (issue 34): what the Merkle tree adds to each command, a proof's size and
time at 1M commands, and `rollbook checkpoint`'s wall on a store of 1M commands.

- `tlog-append`: `Campaign.record_command` with the tree's compact range against the same aggregate
  without it (its tree unknown), side by side in one loop: the cost every command pays. And the
  tiles' catch-up (`store/tlog.py`), per command, on the store: paid once per command, when a
  checkpoint or a proof is first asked after it.
- `tlog-proof`: tiles of `size` leaves stored once; inclusion and consistency proofs at that size
  from a fresh tree each (its tiles read from the store), at random leaves and sizes: time per
  proof, and hashes per proof in the note (O(log n): about 20 at 1M).
- `tlog-checkpoint`: `rollbook checkpoint` of a generated campaign of `size` commands, first on a
  store whose tiles are not built yet (a store written before them), then once they are.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from .sampling import Bench, side_by_side
from .stores import Stores
from .targets import Row

APPEND_COMMANDS = 20_000
PROOFS = 200


def _record_loop(with_tree: bool) -> float:
    """µs per `record_command` on a fresh pirates campaign in memory, with or without its tree."""
    from rollbook.domain.rulesets import ruleset

    campaign: Any = ruleset("pirates").campaign_class(campaign="bench", ruleset="pirates", title=None, options={})
    if not with_tree:
        campaign.tree = None
    campaign.collect_events()
    chain = "ab" * 32
    started = time.perf_counter()
    for seq in range(1, APPEND_COMMANDS + 1):
        campaign.record_command(seq=seq, command_id=f"c{seq}", command={"id": f"c{seq}", "type": "t"}, writes=[],
                                chain=chain)
        if seq % 1000 == 0:
            campaign.collect_events()
    return (time.perf_counter() - started) / APPEND_COMMANDS * 1e6


def measure_append(bench: Bench, runs: int) -> None:
    with_tree, without = side_by_side(runs, lambda _: _record_loop(True), lambda _: _record_loop(False))
    bench.add(Row("tlog-append", "memory", "pirates", f"{APPEND_COMMANDS // 1000}k commands",
                  "`Campaign.record_command` with the Merkle tree's compact range", "µs/command", with_tree,
                  baseline="the same without the tree (unknown)", baseline_values=without,
                  ratios=[a / b for a, b in zip(with_tree, without, strict=True)]))


def _tiles(kind: str, stores: Stores, size: int) -> tuple[Any, Any, float]:
    """A store holding the tiles of `size` synthetic leaves (key `bench-tlog`); µs per leaf to build them."""
    from rollbook.domain.transparency.merkle import leaf_hash
    from rollbook.store import Store
    from rollbook.store.tlog import BATCH, LogTree, TreeState

    ref = stores.fresh("tlog")
    store = Store.open(ref.url)
    tree = LogTree(store.app, "bench-tlog")
    started = time.perf_counter()
    for start in range(0, size, BATCH):
        leaves = [leaf_hash(n.to_bytes(8, "big")) for n in range(start, min(size, start + BATCH))]
        tree.append(leaves, TreeState(start + len(leaves), "00" * 32, start + len(leaves)), reset=False)
    return ref, store, (time.perf_counter() - started) / size * 1e6


def measure_proofs(bench: Bench, kind: str, size: int, runs: int) -> None:
    from rollbook.store.tlog import LogTree

    stores = bench.stores.get(kind) or Stores(kind, bench.workdir)
    ref, store, per_leaf = _tiles(kind, stores, size)
    chance = random.Random(34)
    inclusion, consistency, hashes, sizes = [], [], [], []
    try:
        for _ in range(runs):
            started = time.perf_counter()
            for _ in range(PROOFS):
                tree = LogTree(store.app, "bench-tlog")  # cold: its tiles read from the store
                hashes.append(len(tree.inclusion(chance.randrange(size), size)))
            inclusion.append((time.perf_counter() - started) / PROOFS * 1000)
            started = time.perf_counter()
            for _ in range(PROOFS):
                tree = LogTree(store.app, "bench-tlog")
                sizes.append(len(tree.consistency(chance.randrange(1, size), size)))
            consistency.append((time.perf_counter() - started) / PROOFS * 1000)
    finally:
        store.close()
        stores.remove(ref)
    scale = f"{size:,} commands"
    note = (f"hashes per proof: inclusion median {statistics.median(hashes):g} (max {max(hashes)}), consistency "
            f"median {statistics.median(sizes):g} (max {max(sizes)}); a proof reads ≤ 2 tiles per level")
    bench.add(Row("tlog-proof", kind, "—", scale, "inclusion proof from the stored tiles (a fresh tree each)", "ms",
                  inclusion, note=note))
    bench.add(Row("tlog-proof", kind, "—", scale, "consistency proof from the stored tiles (a fresh tree each)", "ms",
                  consistency))
    bench.add(Row("tlog-append", kind, "—", scale, "the tiles' catch-up (store/tlog.py), once per command", "µs/command",
                  [per_leaf], note="one run: the tiles of the proofs' rows"))


def measure_checkpoint(bench: Bench, kind: str, ruleset: str, size: int, runs: int) -> None:
    """`rollbook checkpoint` of a generated campaign of `size` commands (its store kept for later runs)."""
    import sqlite3

    from .big import _build_sqlite
    from .generate import VERSION

    stores = Stores("sqlite", bench.workdir)
    name = f"bench_tlog_{ruleset}_{size}_v{VERSION}"
    ref = stores.named(name)
    if not stores.exists(name) or not (bench.workdir / f"{name}.db").stat().st_size:
        ref = stores.named(name, clear=True)
        _build_sqlite(bench, ref, ruleset, size)
    campaign = f"bench-{ruleset}"
    first, warm = [], []
    for _ in range(runs):
        with sqlite3.connect(ref.name) as db:  # as a store written before the tiles: built on first need
            db.execute("DROP TABLE IF EXISTS rollbook_tlog_tiles")
            db.execute("DROP TABLE IF EXISTS rollbook_tlog")
        first.append(bench.timed_cli("checkpoint", "-c", campaign, "--store", ref.url)["wall"])
        warm.append(bench.timed_cli("checkpoint", "-c", campaign, "--store", ref.url)["wall"])
    bench.add(Row("tlog-checkpoint", "sqlite", ruleset, f"{size:,} commands", "`rollbook checkpoint`, tiles kept", "s",
                  warm, baseline="the same, the tiles built first (a store written before them)", baseline_values=first,
                  note=f"{kind} not measured: the tree is the same code on every store" if kind != "sqlite" else ""))
