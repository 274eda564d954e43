"""`verify`'s check of the projections: what the store shows is what its events make.

The CLI, the API and the pages read the stored documents (sheets, rolls, timeline, the ledger
of limits), not the events. A document edited there would be shown to everyone while every
check of the events passes. So `verify` projects the store again, in memory, up to the
position the stored projections have read, and compares every document of the campaign with
the one stored.

A stored document ahead of everything the campaign's events still make is a cut at the
campaign's end: its later events were removed, whatever other campaigns wrote after them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..domain.ids import campaign_id
from ..projections.projector import Projector, collector_paused
from ..store import EventStore
from ..store.views import MemoryViews, ViewStore
from .verify import Finding

#: How many differing documents one campaign's finding names before it counts the rest.
NAMED = 5


def check_views(store: EventStore, stored: ViewStore, keys: Iterable[str]) -> list[Finding]:
    """The findings of comparing the stored projections of each campaign key with a fresh projection."""
    fresh = MemoryViews()
    projector = Projector(store, fresh)
    try:
        with collector_paused():
            projector.catch_up_to(stored.position())
    except Exception as error:  # noqa: BLE001 - a store the events' checks find broken: said, not raised
        return [Finding(None, None, f"the projections could not be checked: the events do not project again "
                                    f"({type(error).__name__}: {error})")]
    findings: list[Finding] = [Finding(None, None, f"the projections cannot show it: {failure}")
                               for failure in projector.failures]
    for key in keys:
        findings += _compare(key, stored.documents(key), fresh.documents(key))
    return findings


def _compare(key: str, kept: dict[tuple[str, str], tuple[int, dict[str, Any]]],
             made: dict[tuple[str, str], tuple[int, dict[str, Any]]]) -> list[Finding]:
    aggregate = campaign_id(key).hex
    differing = sorted(place for place in kept.keys() | made.keys()
                       if place not in kept or place not in made or kept[place][1] != made[place][1])
    if not differing:
        return []
    shown_to = max(position for position, _ in kept.values()) if kept else 0
    events_end = max(position for position, _ in made.values()) if made else 0
    if shown_to > events_end:
        return [Finding(events_end, None, f"the projections show this campaign up to position {shown_to}, but its "
                        f"events end at {events_end}: events at its end were removed ({len(differing)} documents "
                        "differ from what its events make)", aggregate)]
    findings = [Finding(kept.get(place, made.get(place, (None, {})))[0], None, _problem(place, kept, made), aggregate)
                for place in differing[:NAMED]]
    if len(differing) > NAMED:
        findings.append(Finding(None, None, f"and {len(differing) - NAMED} more stored documents differ from what "
                                "the events make", aggregate))
    return findings


def _problem(place: tuple[str, str], kept: dict[tuple[str, str], tuple[int, dict[str, Any]]],
             made: dict[tuple[str, str], tuple[int, dict[str, Any]]]) -> str:
    kind, name = place
    what = f"the stored {kind}{f' {name!r}' if name else ''}"
    if place not in made:
        return f"{what} is made by no event (the projections were edited)"
    if place not in kept:
        return f"{what} is missing from the projections (`rollbook rebuild` makes it again)"
    ours, theirs = kept[place][1], made[place][1]
    fields = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
    return (f"{what} differs from what its events make, in {', '.join(fields)} (the projections were edited; "
            "`rollbook rebuild` makes them again)")
