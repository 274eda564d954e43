"""A campaign under test: given / when / then over event streams.

    def test_a_ruling(campaign):
        campaign.of(RULESET)
        campaign.given(commands.StartChapter())
        campaign.when(commands.EndChapter())
        campaign.then(events.ScopeEnded(scope="chapter", number=1))

- `given(*items)`: commands (models or dicts) are decided as usual; `History` items (the
  ruleset builders' `wounded(...)` and the like) append events without deciding them.
- `when(command)`: runs one command and remembers the events it produced, or its refusal.
- `then(*expected)`: the exact events of the last `when` (order, types, given fields).
- `then_rejected(match=...)`: the last `when` was refused, and nothing was written.
- `dice(3, 4)`: faces for the next rolls; without it rolls come from a seeded source, so
  a test is reproducible. Consuming more faces than were fed fails with a clear message.
- `at("2026-03-01T20:00:00Z")`: the time of the next commands (freezegun works too).
- `sheet(name)`, `campaign_sheet()`, `events()`, `rolls()`: what the projections show.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..bootstrap import open_store, service_for
from ..commands.base import Command
from ..commands.parse import CommandError, parse_command
from ..domain.errors import CommandRejected, DiceError
from ..domain.table import DiceSupply, SeedSupply, Table, TypedSupply
from ..projections.queries import Reader, event_name, event_payload
from ..store.keys import MemorySigningKeys
from ..store.reads import logged
from ..store.seeds import MemorySeedKeeper
from .expect import ExpectedEvent, diff, matches

#: The audit trail's own events (the command log, the dice seeds' commitments, the signing key and checkpoints):
#: left out of `then` and `events()` so tests speak of what happened in the game.
BOOKKEEPING_EVENTS = {"CommandApplied", "SeedCommitted", "SeedRevealed", "SigningKeyRecorded", "CheckpointSigned"}


@dataclass(frozen=True)
class History:
    """Events to append as if they had happened, without deciding them."""

    ruleset: str
    description: str
    apply: Callable[[Table], None]


@dataclass(frozen=True)
class Given:
    """A command a ruleset builder prepared (its ruleset tells which campaign to create)."""

    ruleset: str
    command: dict[str, Any]


class FedFaces:
    """Faces fed with `dice(...)`; running out is a failure of the test, not a rule."""

    def __init__(self) -> None:
        self.faces: list[int] = []
        self.fed = 0

    def face(self, sides: int) -> int:
        if not self.faces:
            raise DiceError("the test fed {fed} faces with dice(...) and the command wants another (a d{sides}); "
                            "feed every face the commands roll", fed=self.fed, sides=sides)
        value = self.faces.pop(0)
        if not 1 <= value <= sides:
            raise DiceError("fed face {value} is impossible on a d{sides}", value=value, sides=sides)
        return value


class FedSupply:
    def __init__(self, fed: FedFaces) -> None:
        self.fed = fed

    def source_for(self, campaign: Any) -> tuple[FedFaces, dict[str, Any]]:
        return self.fed, {"source": "typed"}

    def finish(self) -> None:
        """Fed faces may serve later commands too; leftovers are checked when the test ends."""


class CampaignUnderTest:
    def __init__(self, store_url: str = "memory://", *, campaign: str = "test-campaign") -> None:
        self.name = campaign
        self.store = open_store(store_url, seeds=MemorySeedKeeper("deterministic"), keys=MemorySigningKeys("deterministic"))
        self.service = service_for(self.store, dice_for=self._dice_for, testing_kit=True)
        self.reader = Reader(self.store)
        self.ruleset: str | None = None
        self._fed = FedFaces()
        self._time: datetime | None = None
        self._counter = 0
        self._last_events: list[dict[str, Any]] | None = None
        self._last_error: CommandRejected | CommandError | None = None
        self._position_before = 0

    # --- setting up ---------------------------------------------------------------------

    def of(self, ruleset: str, *, title: str | None = None, **options: Any) -> CampaignUnderTest:
        """Create the campaign under test with a ruleset and rule options."""
        self._run(
            {"type": "create_campaign", "ruleset": ruleset, "title": title, "options": options, "testing_kit": True},
            check=True,
        )
        self.ruleset = ruleset
        return self

    def _ensure(self, ruleset: str) -> None:
        if self.ruleset is None:
            self.of(ruleset)

    def dice(self, *faces: int) -> CampaignUnderTest:
        self._fed.faces.extend(faces)
        self._fed.fed += len(faces)
        return self

    def at(self, when: str | datetime) -> CampaignUnderTest:
        self._time = datetime.fromisoformat(when.replace("Z", "+00:00")) if isinstance(when, str) else when
        return self

    def given(self, *items: Any) -> CampaignUnderTest:
        for item in items:
            if isinstance(item, History):
                self._ensure(item.ruleset)
                self.service.append_history(self.name, item.description, item.apply, at=self._time)
            elif isinstance(item, Given):
                self._ensure(item.ruleset)
                self._run(item.command, check=True)
            else:
                self._run(item, check=True)
        return self

    # --- acting -------------------------------------------------------------------------

    def when(self, command: Any) -> CampaignUnderTest:
        if isinstance(command, Given):
            self._ensure(command.ruleset)
            command = command.command
        self._position_before = self._position()
        self._last_events, self._last_error = None, None
        try:
            self._run(command, check=False)
        except (CommandRejected, CommandError) as error:
            self._last_error = error
            return self
        self._last_events = self._events_since(self._position_before)
        return self

    def then(self, *expected: ExpectedEvent) -> CampaignUnderTest:
        if self._last_error is not None:
            raise AssertionError(f"the command was refused: {self._last_error}")
        assert self._last_events is not None, "call when(...) before then(...)"
        if not matches(list(expected), self._last_events):
            raise AssertionError("events differ\n" + diff(list(expected), self._last_events))
        return self

    def then_rejected(self, match: str | None = None) -> CampaignUnderTest:
        if self._last_error is None:
            raise AssertionError(f"the command was applied, producing {self._last_events}")
        if match is not None and not re.search(match, str(self._last_error)):
            raise AssertionError(f"refused, but {str(self._last_error)!r} does not match {match!r}")
        written = self._position() - self._position_before
        if written:
            raise AssertionError(f"the refused command wrote {written} events")
        return self

    @property
    def error(self) -> CommandRejected | CommandError | None:
        return self._last_error

    @property
    def last_events(self) -> list[dict[str, Any]]:
        return list(self._last_events or [])

    def odds(self, command: Any, compare: dict[str, Any] | None = None) -> dict[str, Any]:
        """The chance of each outcome of `command` as the rules would decide it now (`rollbook odds`).

        Nothing is rolled or written; a command the rules would refuse raises its refusal.
        """
        data = command.model_dump(mode="json", exclude_none=True) if isinstance(command, Command) else dict(command)
        return self.service.odds(self.name, data, compare)

    # --- reading ------------------------------------------------------------------------

    def sheet(self, name: str) -> dict[str, Any]:
        self.reader.catch_up()
        return self.reader.sheet(self.name, name)[1]

    def campaign_sheet(self) -> dict[str, Any]:
        self.reader.catch_up()
        return self.reader.campaign(self.name)

    def rolls(self) -> list[dict[str, Any]]:
        self.reader.catch_up()
        return self.reader.rolls(self.name)

    def limits(self) -> list[dict[str, Any]]:
        self.reader.catch_up()
        return self.reader.limits(self.name)

    def events(self, *, bookkeeping: bool = False) -> list[dict[str, Any]]:
        """The campaign's whole stream as plain dicts, for `==` against a literal."""
        return self._events_since(0, bookkeeping=bookkeeping)

    def verifies(self) -> list[str]:
        """Reveal the campaign's seed (as a chapter's end would), then `rollbook verify` every revision.

        Its findings, as verify words them: empty if the hash chain holds and every seeded roll
        recomputes from the revealed seed with its own consecutive nonce.
        """
        from ..replay.verify import verify
        from ..replay.verify_views import check_views

        if self.ruleset is None:
            return []
        root = self.service.campaign(self.name)
        assert root is not None
        # At the campaign's last time: a later one would be the real clock's, perhaps earlier.
        at = self.service.campaign(root.current_key).last_at  # type: ignore[union-attr]
        self._run({"type": "rotate_seed", **({"at": at} if at else {})}, check=True)
        keys = dict.fromkeys([self.name, root.current_key])
        self.reader.catch_up()  # the projections as the campaign's reads left them, held to a fresh projection
        viewed = check_views(self.store, self.reader.views, keys)
        return [f"{key}: {finding}" for key in keys for finding in verify(self.store, key).findings] + [
            f"projections: {finding}" for finding in viewed]

    def replays_identically(self) -> str | None:
        """Re-execute this campaign from its record; None if the streams are identical, else the difference."""
        from ..replay.replayer import replay

        if not self._has_campaign():
            return None
        return replay(self.store, self.service.key_for(self.name), verify=True).difference

    def leftover_faces(self) -> list[int]:
        return list(self._fed.faces)

    def close(self) -> None:
        self.store.close()

    # --- internals ----------------------------------------------------------------------

    def _position(self) -> int:
        return self.store.head()

    def _dice_for(self, command: Command) -> DiceSupply:
        if command.dice is not None:
            return TypedSupply(command.dice)
        if self._fed.fed:
            return FedSupply(self._fed)
        return SeedSupply(self.store.seeds.seed, salt=command.salt)

    def _run(self, command: Any, *, check: bool) -> None:
        if isinstance(command, Command):
            data = command.model_dump(mode="json", exclude_none=True)
        else:
            data = dict(command)
        data.setdefault("campaign", self.name)
        if data.get("campaign") is None:
            data["campaign"] = self.name
        if self._time is not None and "at" not in data:
            data["at"] = self._time.isoformat()
        if "id" not in data:
            self._counter += 1
            data["id"] = f"t{self._counter}"
        if data["type"] == "create_campaign":
            data = {k: v for k, v in data.items() if v is not None}
        parsed = parse_command(data, ruleset_of=self.service.ruleset_of)
        self.service.execute(parsed)

    def _events_since(self, position: int, *, bookkeeping: bool = False) -> list[dict[str, Any]]:
        names = self.reader.aggregate_names(self.name) if self._has_campaign() else {}
        found = []
        for _, originator, _, event in logged(self.store, start=position, page=500, originators=names):
            if not bookkeeping and event_name(event) in BOOKKEEPING_EVENTS:
                continue
            found.append(plain(names[originator], event))
        return found

    def _has_campaign(self) -> bool:
        self.reader.catch_up()
        return self.reader.views.get(self.name, "campaign", "") is not None


def plain(label: str, event: Any) -> dict[str, Any]:
    """An event as the kit compares it: type, who it happened to, its fields."""
    origin: dict[str, Any] = {}
    if label != "campaign":
        kind, _, name = label.partition(":")
        origin[kind] = int(name) if kind == "scene" else name
    return {"type": event_name(event), **origin, **event_payload(event)}


def new_campaign(ruleset: str | None = None, store: str = "memory://", **options: Any) -> CampaignUnderTest:
    """A campaign under test outside a fixture (e.g. inside a hypothesis test body)."""
    campaign = CampaignUnderTest(store)
    if ruleset is not None:
        campaign.of(ruleset, **options)
    return campaign
