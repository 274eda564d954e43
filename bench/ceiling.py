"""The ceiling of `replay --verify`: parsing and deciding the recorded commands alone, in memory.

    python -m bench.ceiling STORE_URL CAMPAIGN

Reads the campaign's recorded history first (not timed), then re-decides every command as
replay does (the same service, dice and times from the record, aggregates in memory) with
nothing read from the store and nothing compared. Prints the commands per second as JSON.
"""

from __future__ import annotations

import json
import sys
import time


def decide_only(url: str, key: str) -> float:
    from rollbook.commands.catalogue import all_types
    from rollbook.store.unit_of_work import MemoryUnit
    from rollbook.replay.history import recorded_commands
    from rollbook.replay.reexecute import reexecute
    from rollbook.store import Store

    from .sampling import quiet_logging

    quiet_logging()
    all_types()
    store = Store.open(url)
    try:
        history = list(recorded_commands(store.app, key))
        started = time.perf_counter()
        outcome = reexecute(history, store, key=key, keeper=store.seeds, signing_keys=store.keys, source=store,
                            unit=MemoryUnit(store.app))
        elapsed = time.perf_counter() - started
    finally:
        store.close()
    return outcome.applied / elapsed


def main(argv: list[str]) -> int:
    url, key = argv
    print(json.dumps({"rate": decide_only(url, key)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
