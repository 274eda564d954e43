"""An import under way: what a copied campaign must come to, kept until the copy is whole.

`rollbook import` stores a campaign in many transactions (batches of commands, then its
rulings and the commands played after them). Until the last one the store holds a
fragment, and a fragment is a history that verifies: a shorter one. This record, stored
in the import's first transaction, says what the whole is (the export's trailer: how many
commands, which head); `rollbook verify` reports a campaign whose import has begun and
not finished, and running the same import again finishes it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import event

from .aggregate import RollbookAggregate
from .ids import member_id


class ImportRecord(RollbookAggregate):
    """One campaign's import: begun with the trailer it must come to, finished when it has."""

    @staticmethod
    def create_id(copy_of: str, **_: Any) -> UUID:
        return member_id(copy_of, "import", copy_of)

    @classmethod
    def id_for(cls, campaign: str) -> UUID:
        return member_id(campaign, "import", campaign)

    @event("ImportBegun")
    def __init__(self, copy_of: str, commands: int, head: str) -> None:
        # `copy_of`, not `campaign`: the record is not part of the campaign's play, which verify
        # checks event by event (an aggregate whose first event names the campaign must be played).
        self.copy_of = copy_of
        self.commands = commands
        self.head = head
        self.finished = False

    @event("ImportFinished")
    def finish(self) -> None:
        self.finished = True
