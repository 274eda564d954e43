"""A campaign's revisions: the rulings that made them, and what a ruling changed (sheets, limits, timeline,
the campaign), before → after, as `dispute` shows it."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..domain.revisions import revision_key
from ..projections.queries import Reader
from ..store import Store


@dataclass
class Difference:
    what: str
    path: str
    before: Any
    after: Any

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, inner in value.items():
            flat.update(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: value}


def _compare(what: str, before: Any, after: Any) -> list[Difference]:
    old, new = _flatten(before), _flatten(after)
    return [
        Difference(what, path, old.get(path), new.get(path))
        for path in sorted(set(old) | set(new))
        if old.get(path) != new.get(path)
    ]


def differences(before: Reader, before_key: str, after: Reader, after_key: str) -> list[Difference]:
    found: list[Difference] = []
    old_sheets = {s["name"]: (k, s) for k, s in before.sheets(before_key)}
    new_sheets = {s["name"]: (k, s) for k, s in after.sheets(after_key)}
    for name in sorted(set(old_sheets) | set(new_sheets)):
        kind = (old_sheets.get(name) or new_sheets[name])[0]
        found += _compare(f"{kind} {name}", (old_sheets.get(name) or (kind, {}))[1], (new_sheets.get(name) or (kind, {}))[1])

    def limits(reader: Reader, key: str) -> dict[str, Any]:
        return {f"{r['limit']} {r['instance'] or ''} {r['holder'] or ''}".strip(): r["used"] for r in reader.limits(key)}

    found += _compare("limits", limits(before, before_key), limits(after, after_key))

    def timeline(reader: Reader, key: str) -> dict[str, Any]:
        return {
            f"{e['label']} {e['number']}": {"title": e["title"], "open": e["end"] is None}
            for e in reader.views.all(key, "timeline")
        }

    found += _compare("timeline", timeline(before, before_key), timeline(after, after_key))
    ignore = {"campaign", "current_key", "revision", "commands"}
    old_campaign = {k: v for k, v in before.campaign(before_key).items() if k not in ignore}
    new_campaign = {k: v for k, v in after.campaign(after_key).items() if k not in ignore}
    found += _compare("campaign", old_campaign, new_campaign)
    return found


def revisions(store: Store, campaign: str) -> list[dict[str, Any]]:
    """Every revision of a campaign, with the ruling that made it."""
    from .history import campaign_events

    listed: list[dict[str, Any]] = [{"revision": 1, "key": campaign, "dispute": None}]
    for _, event in campaign_events(store, campaign, names=("Disputed", "Ruled")):
        replaces = {"replaces": event["replaces"]} if "replaces" in event else {}
        listed.append({
            "revision": event["revision"], "key": revision_key(campaign, event["revision"]),
            "dispute": event["dispute"], "roll": event["roll"], "actor": event["actor"], "reason": event["reason"],
            "decision": event["decision"], "at": event["timestamp"].isoformat(), **replaces,
        })
    return listed
