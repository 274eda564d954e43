"""What sits at the table besides the campaign: characters (and ships, enemies), scenes, claims.

Each is its own aggregate with an id derived from the campaign and its name, so the store
finds "Anna" of "black-sails" without an index.
"""

from __future__ import annotations

from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import event
from eventsourcing.utils import get_topic

from .aggregate import RollbookAggregate
from .ids import command_claim_id, member_id


class Member(RollbookAggregate):
    """Anything on the roster with a sheet: a character, a ship, an enemy."""

    #: The roster kind ("character", "ship", "enemy"); part of the id, shown on the sheet.
    kind: ClassVar[str] = "character"

    @classmethod
    def create_id(cls, campaign: str, name: str, **_: Any) -> UUID:
        return member_id(campaign, cls.kind, name)

    @classmethod
    def id_for(cls, campaign: str, name: str) -> UUID:
        return member_id(campaign, cls.kind, name)

    def sheet(self) -> dict[str, Any]:
        """The sheet as `rollbook sheet --json` shows it (stable keys per ruleset)."""
        raise NotImplementedError(f"{type(self).__name__} must say what its sheet shows")


class Character(Member):
    """A character with an owner: `player` may act for it, the GM for everyone."""

    kind = "character"
    campaign: str
    name: str
    player: str | None


class Scene(RollbookAggregate):
    """One scene: who it is against, and the things only one may do in it."""

    @staticmethod
    def create_id(campaign: str, number: int, **_: Any) -> UUID:
        return member_id(campaign, "scene", str(number))

    @event("Started")
    def __init__(self, campaign: str, number: int, title: str | None, enemy: str | None) -> None:
        self.campaign = campaign
        self.number = number
        self.title = title
        self.enemy = enemy
        self.claims: dict[str, str] = {}
        self.ended = False

    @event("Ended")
    def end(self) -> None:
        self.ended = True

    @property
    def cacheable(self) -> bool:
        """An ended scene is read again only by a dispute or a replay: kept in the aggregate
        cache until pushed out, the scenes of a long campaign took places there that the
        members in play could hold."""
        return not self.ended

    @event("Claimed")
    def claim(self, what: str, by: str) -> None:
        """Record that `by` took the one-per-scene `what` (a defining moment, say)."""
        self.claims[what] = by


class CommandClaim(RollbookAggregate):
    """The id of a recorded command: a second command with the same id cannot be stored."""

    #: Only whether it exists is ever asked, never its state: kept in the aggregate cache,
    #: one claim per command would push the campaign's members out of it.
    cacheable = False

    @staticmethod
    def create_id(campaign: str, command_id: str) -> UUID:
        return command_claim_id(campaign, command_id)

    @event("Recorded")
    def __init__(self, campaign: str, command_id: str) -> None:
        self.campaign = campaign
        self.command_id = command_id

    @classmethod
    def recorded(cls, claim_id: UUID, campaign: str, command_id: str) -> Any:
        """The claim's one event, as creating the aggregate would trigger it (the same bytes once
        stored), made without the aggregate: a command only stores its claim, never reads it."""
        return cls.Recorded(  # type: ignore[attr-defined]
            originator_id=claim_id, originator_version=cls.INITIAL_VERSION,
            timestamp=cls.Recorded.create_timestamp(),  # type: ignore[attr-defined]
            originator_topic=CLAIM_TOPIC, campaign=campaign, command_id=command_id,
        )


#: The topic a claim's event names its aggregate by.
CLAIM_TOPIC = get_topic(CommandClaim)
