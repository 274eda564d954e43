"""What the read verbs show: sheets, timeline, limits, rolls, commands and the raw log.

Every answer is served from the projections after catching them up, except the raw log,
which is the event store itself read in position order.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, is_dataclass
from typing import Any

from ..domain.errors import UnknownName, Word
from ..domain.ids import campaign_id, member_id
from ..domain.names import lookalike_hint
from ..domain.revisions import REVISION_MARK, spoken
from ..store import Store
from ..store.reads import logged
from ..store.views import views_for
from .projector import Projector

BOOKKEEPING = {"originator_id", "originator_version", "timestamp", "originator_topic"}


def event_payload(event: Any) -> dict[str, Any]:
    """An event's own fields, without the envelope (ids, version, time)."""
    state = asdict(event) if is_dataclass(event) else dict(vars(event))
    return {k: v for k, v in state.items() if k not in BOOKKEEPING}


def event_name(event: Any) -> str:
    return type(event).__name__


class Reader:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.views = views_for(store, store.kind)
        self.projector = Projector(store, self.views)
        #: The projector holds the aggregates it folds between batches: one thread catches up at a time
        #: (a server's readers; what they read, the views, any thread may read while it does).
        self._catching_up = threading.Lock()

    def catch_up(self) -> int:
        with self._catching_up:
            return self.projector.catch_up()

    def rebuild(self, progress: Callable[[int], None] | None = None) -> int:
        with self._catching_up:
            return self.projector.rebuild(progress)

    @contextmanager
    def still(self) -> Iterator[None]:
        """The views as they are, written by no other thread of this process meanwhile (compared with the events)."""
        with self._catching_up:
            yield

    # --- from the projections ---------------------------------------------------------

    def campaign(self, campaign: str) -> dict[str, Any]:
        doc = self.views.get(campaign, "campaign", "")
        if doc is None:
            # The campaigns, not their stored revisions' keys (`tortuga@r2`): a revision is asked for by number.
            names = [name for name in self.views.campaigns() if REVISION_MARK not in name]
            known, lookalike = ", ".join(names) or Word("none"), lookalike_hint(campaign, names)
            root, mark, revision = campaign.partition(REVISION_MARK)
            if mark:
                raise UnknownName("no revision {revision} of {campaign} in {store} (known: {known}){lookalike}",
                                  field="campaign", revision=revision, campaign=root, store=self.store.url,
                                  known=known, lookalike=lookalike)
            raise UnknownName("no campaign {campaign!r} in {store} (known: {known}){lookalike}", field="campaign",
                              campaign=campaign, store=self.store.url, known=known, lookalike=lookalike)
        return doc

    def sheet(self, campaign: str, name: str) -> tuple[str, dict[str, Any]]:
        self.campaign(campaign)
        doc = self.views.get(campaign, "sheet", name)
        if doc is None:
            names = [d["sheet"]["name"] for d in self.views.all(campaign, "sheet")]
            raise UnknownName(
                "no character, ship or enemy named {name!r} in {campaign} (known: {known}){lookalike}", field="name",
                name=name, campaign=spoken(campaign), known=", ".join(names) or Word("none"),
                lookalike=lookalike_hint(name, names),
            )
        return doc["kind"], doc["sheet"]

    def sheets(self, campaign: str) -> list[tuple[str, dict[str, Any]]]:
        self.campaign(campaign)
        return [(d["kind"], d["sheet"]) for d in self.views.all(campaign, "sheet")]

    def timeline(self, campaign: str) -> dict[str, Any]:
        doc = self.campaign(campaign)
        return {"campaign": doc, "entries": self.views.all(campaign, "timeline")}

    def rolls(self, campaign: str) -> list[dict[str, Any]]:
        self.campaign(campaign)
        return self.views.all(campaign, "roll")

    def commands(self, campaign: str) -> list[dict[str, Any]]:
        self.campaign(campaign)
        return self.views.all(campaign, "command")

    def limits(self, campaign: str) -> list[dict[str, Any]]:
        """Every declared limit of the ruleset, with its uses in the scopes now open."""
        doc = self.campaign(campaign)
        ledger = (self.views.get(campaign, "limits", "") or {"ledger": []})["ledger"]
        return self.limit_rows(doc["ruleset"], ledger)

    @staticmethod
    def limit_rows(ruleset_name: str, ledger: list[dict[str, Any]]) -> list[dict[str, Any]]:
        from ..domain.rulesets import ruleset  # the rules, here only: a sheet needs none of them

        rows = []
        for limit in ruleset(ruleset_name).limits:
            uses = [u for u in ledger if u["limit"] == limit.name]
            base = {
                "limit": limit.name, "scope": limit.scope.value, "count": limit.count,
                "rule": limit.rule, "description": limit.description,
            }
            if not uses:
                rows.append({**base, "instance": None, "holder": None, "used": 0, "remaining": limit.count})
            for use in uses:
                rows.append({**base, "instance": use["instance"], "holder": use["holder"],
                             "used": use["used"], "remaining": max(limit.count - use["used"], 0)})
        return rows

    # --- from the event store ---------------------------------------------------------

    def aggregate_names(self, campaign: str, doc: dict[str, Any] | None = None) -> dict[Any, str]:
        """Originator id -> a readable name ("campaign", "character:Anna", "scene:2").

        `doc` is the campaign's sheet if the caller holds it fresher than the projections do
        (a server answering for the command it has just stored)."""
        doc = doc if doc is not None else self.campaign(campaign)
        names: dict[Any, str] = {campaign_id(campaign): "campaign"}
        for name, entry in doc["members"].items():
            names[member_id(campaign, entry["kind"], name)] = f"{entry['kind']}:{name}"
        scenes = doc["clock"].get("scene", {}).get("number", 0)
        for number in range(1, scenes + 1):
            names[member_id(campaign, "scene", str(number))] = f"scene:{number}"
        return names

    def log(
        self, campaign: str, *, start: int = 0, stop: int | None = None, doc: dict[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        names = self.aggregate_names(campaign, doc)
        if stop is not None and stop <= start:
            return
        for position, originator, version, event in logged(self.store, start=start, stop=stop, page=1000, originators=names):
            yield {
                "position": position,
                "aggregate": names[originator],
                "version": version,
                "type": event_name(event),
                "at": event.timestamp.isoformat(),
                "data": event_payload(event),
            }
