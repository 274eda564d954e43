"""The campaign's ledger of once-only limits: how often each holder used each limit, per instance of its scope.

Plain functions over the Campaign aggregate's `limits` (scope -> ledger key -> uses), which the aggregate
keeps as a plain dict so its snapshots read the same; its commands and `@event` bodies call these.
"""

from __future__ import annotations

import json
from typing import Any

#: Made once: `json.dumps` with an option builds an encoder on every call (as chain.py says).
_LEDGER_KEY = json.JSONEncoder(ensure_ascii=False)


def ledger_key(limit: str, instance: str, holder: str) -> str:
    """A ledger entry's key: the three as a JSON array, so any name (`Bo|Red`) reads back whole."""
    return _LEDGER_KEY.encode([limit, instance, holder])


def ledger_parts(key: str) -> list[str]:
    """The limit, instance and holder of a ledger key."""
    if not key.startswith("["):  # a snapshot taken before keys were structured: "limit|instance|holder"
        limit, instance, holder = key.split("|", 2)
        return [limit, instance, holder]
    return list(json.loads(key))


def uses(limits: dict[str, dict[str, int]], scope: str, limit: str, instance: str, holder: str) -> int:
    """How often `holder` used `limit` in `instance` of `scope`."""
    return limits.get(scope, {}).get(ledger_key(limit, instance, holder), 0)


def count_use(limits: dict[str, dict[str, int]], scope: str, limit: str, instance: str, holder: str) -> None:
    """One more use of `limit` by `holder` in `instance` of `scope`."""
    key = ledger_key(limit, instance, holder)
    ledger = limits.setdefault(scope, {})
    ledger[key] = ledger.get(key, 0) + 1


def counts_in(limits: dict[str, dict[str, int]], scope: str, instance: str) -> bool:
    """Whether any use is counted in `instance` of `scope`."""
    return any(ledger_parts(key)[1] == instance for key in limits.get(scope, {}))


def release(limits: dict[str, dict[str, int]], scope: str, instance: str) -> None:
    """Forget the uses counted in `instance` of `scope`."""
    ledger = limits.get(scope, {})
    for key in [k for k in ledger if ledger_parts(k)[1] == instance]:
        del ledger[key]


def rows(limits: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """Every entry as a row: limit, scope, instance, holder and uses."""
    found = []
    for scope, entries in limits.items():
        for key, used in entries.items():
            limit, instance, holder = ledger_parts(key)
            found.append({"limit": limit, "scope": scope, "instance": instance, "holder": holder, "used": used})
    return found
