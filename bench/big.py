"""A store of a million events for the rebuild measures, built once and kept in the work folder."""

from __future__ import annotations

from .sampling import Bench, BenchError
from .stores import StoreRef, Stores


def big_store(bench: Bench, kind: str, ruleset: str, events: int, events_per_command: float) -> StoreRef:
    """A store of at least `events` events, built once and kept in the work folder (or schema).

    Only the rebuild rows (time and peak RSS) read it, so it is built the quick way: on SQLite
    with `synchronous=OFF` (no fsync per command); on PostgreSQL by `rollbook import` of
    the SQLite one's export. Later runs of the harness reuse it.
    """
    from rollbook.store import Store

    from .generate import VERSION

    stores = bench.stores.get(kind) or Stores(kind, bench.workdir)
    name = f"bench_big_{ruleset}_{events}_v{VERSION}"
    if stores.exists(name):
        ref = stores.named(name)
        store = Store.open(ref.url)
        try:
            if (store.app.recorder.max_notification_id() or 0) >= events:
                return ref
        finally:
            store.close()
    ref = stores.named(name, clear=True)
    if kind == "sqlite":
        _build_sqlite(bench, ref, ruleset, int(events / events_per_command * 1.05) + 1000)
    else:
        source = big_store(bench, "sqlite", ruleset, events, events_per_command)
        history = bench.workdir / f"{name}.jsonl"
        bench.say(f"  [{kind}] importing the {events:,}-event store (kept for later runs)")
        history.write_text(bench.cli("export", "--campaign", f"bench-{ruleset}", "--store", source.url).stdout)
        bench.cli("-q", "import", str(history), "--store", ref.url, timeout=6 * 3600)
        history.unlink()
    return ref


def _build_sqlite(bench: Bench, ref: StoreRef, ruleset: str, size: int) -> None:
    from rollbook.commands.runner import run_file
    from rollbook.commands.service import Rollbook
    from rollbook.store import Store

    from .generate import generate

    bench.say(f"  [sqlite] building a store of {size:,} commands (kept for later runs)")
    store = Store.open(ref.url)
    try:
        with store.app.recorder.datastore.get_connection(commit=True) as connection:
            connection.cursor().execute("PRAGMA synchronous=OFF")
        report = run_file(Rollbook(store), generate(ruleset, size).jsonl(), allow_future=True)
    finally:
        store.close()
    if report.error is not None:
        raise BenchError(f"the generated campaign was refused: {report.error}")
