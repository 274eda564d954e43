"""The service layer: one command in, its events stored in one transaction, or nothing.

`Rollbook.execute` is the only way commands reach the store. For each command it

1. skips it if its id is already recorded in the campaign (reruns are safe);
2. sets the command's time and opens a journal of the events it causes;
3. lets the ruleset's handler decide at a `Table` (validate, roll, call event methods);
4. transcodes the events once, chains their hash to the campaign's previous command and
   appends `CommandApplied` (the command, what it wrote, the chain) to the campaign;
5. stores everything in one transaction. If another writer got there first (the
   campaign's version moved on), it forgets what it loaded and decides again on fresh
   state; a refused command leaves nothing behind, in the store or in the cache.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import structlog
from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

from ..domain.aggregate import command_time, event_journal
from ..domain.campaign import Campaign
from ..domain.errors import CommandRejected, PermissionDenied
from ..domain.ids import campaign_id, command_claim_id
from ..domain.members import CommandClaim
from ..domain.rulesets import ruleset
from ..domain.table import DiceSupply, SeedSupply, Table, TypedSupply
from ..store import Store
from .base import Command
from .catalogue import commands_for
from .common import CreateCampaign

log = structlog.get_logger("rollbook")

MAX_ATTEMPTS = 20


@dataclass
class Applied:
    """What happened to one command."""

    command_id: str
    status: str  # "applied" or "skipped"
    events: int = 0
    rolls: list[str] = field(default_factory=list)
    position: int | None = None


class ConcurrencyError(CommandRejected):
    pass


def canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chain_hash(previous: str, command: dict[str, Any], stored: list[Any]) -> str:
    """The hash of a command chained to the previous one: over the command and every event it wrote."""
    digest = hashlib.sha256(previous.encode())
    digest.update(canonical(command))
    for event in stored:
        digest.update(event.topic.encode())
        digest.update(event.state)
    return digest.hexdigest()


class Rollbook:
    def __init__(self, store: Store, *, dice_for: Callable[[Command], DiceSupply] | None = None) -> None:
        self.store = store
        self.app = store.app
        self._dice_for = dice_for

    # --- reading ----------------------------------------------------------------------

    def load(self, aggregate_id: Any) -> Any:
        try:
            return self.app.repository.get(aggregate_id)
        except AggregateNotFoundError:
            return None

    def campaign(self, name: str) -> Campaign | None:
        return self.load(campaign_id(name))

    def ruleset_of(self, name: str) -> str | None:
        campaign = self.campaign(name)
        return campaign.ruleset if campaign is not None else None

    def is_recorded(self, campaign: str, command_id: str) -> bool:
        claim = command_claim_id(campaign, command_id)
        return bool(self.app.recorder.select_events(claim, limit=1))

    # --- writing ----------------------------------------------------------------------

    def execute(self, command: Command) -> Applied:
        command_id = command.id or f"c-{uuid.uuid4().hex[:12]}"
        assert command.campaign is not None, "the parser fills the campaign"
        started = time.perf_counter()
        for attempt in range(1, MAX_ATTEMPTS + 1):
            if command.id is not None and self.is_recorded(command.campaign, command_id):
                log.info("command.skipped", command_id=command_id, type=command.type,
                         campaign=command.campaign, reason="id already recorded")
                return Applied(command_id, "skipped")
            touched: dict[Any, Any] = {}
            try:
                applied = self._attempt(command, command_id, touched)
            except IntegrityError:
                self.app.forget(touched)
                if self.is_recorded(command.campaign, command_id):
                    return Applied(command_id, "skipped")
                log.info("command.retry", command_id=command_id, type=command.type,
                         campaign=command.campaign, attempt=attempt,
                         reason="another writer changed the campaign first")
                time.sleep(min(0.002 * attempt, 0.05))
                continue
            except CommandRejected as error:
                self.app.forget(touched)
                log.info("command.refused", command_id=command_id, type=command.type,
                         campaign=command.campaign, field=error.field, reason=error.message)
                raise
            except BaseException:
                self.app.forget(touched)
                raise
            log.info(
                "command.applied", command_id=command_id, type=command.type, actor=command.actor,
                campaign=command.campaign, aggregates=len(touched), events=applied.events,
                rolls=applied.rolls, ms=round((time.perf_counter() - started) * 1000, 2),
            )
            return applied
        raise ConcurrencyError(f"gave up after {MAX_ATTEMPTS} conflicting attempts", field="campaign")

    def _attempt(self, command: Command, command_id: str, touched: dict[Any, Any]) -> Applied:
        assert command.campaign is not None

        def decide(table: Table) -> None:
            self._authorise(command, table.campaign)
            _, handler = commands_for(table.campaign.ruleset)[command.type]
            handler(command, table)

        return self._transact(
            command.campaign, command_id, command.at, command.actor,
            recorded=command.payload() | {"id": command_id},
            campaign_for=lambda: self._campaign_for(command),
            decide=decide, dice=self._dice(command), touched=touched,
        )

    def append_history(
        self, campaign: str, description: str, apply: Callable[[Table], None], *, at: datetime | None = None
    ) -> Applied:
        """Append events as history without deciding them (the testing kit's `given`).

        `apply` calls the aggregates' event methods directly; the result is recorded like a
        command of type `history`, hash-chained, so the campaign's record stays whole.
        """
        command_id = f"history-{uuid.uuid4().hex[:12]}"

        def existing() -> Campaign:
            found = self.campaign(campaign)
            if found is None:
                raise CommandRejected(f"no campaign {campaign!r}", field="campaign")
            return found

        touched: dict[Any, Any] = {}
        try:
            return self._transact(
                campaign, command_id, at, "gm",
                recorded={"type": "history", "campaign": campaign, "id": command_id, "description": description},
                campaign_for=existing, decide=apply, dice=TypedSupply([]), touched=touched,
            )
        except BaseException:
            self.app.forget(touched)
            raise

    def _transact(
        self,
        campaign_name: str,
        command_id: str,
        at: datetime | None,
        actor: str,
        *,
        recorded: dict[str, Any],
        campaign_for: Callable[[], Campaign],
        decide: Callable[[Table], None],
        dice: DiceSupply,
        touched: dict[Any, Any],
    ) -> Applied:
        time_token = command_time.set(at)
        journal: list[Any] = []
        journal_token = event_journal.set(journal)
        try:
            claim = CommandClaim(campaign=campaign_name, command_id=command_id)
            campaign = campaign_for()
            table = Table(
                campaign, command_id=command_id, actor=actor, dice=dice,
                seeds=self.store.seeds, load=self.load, touched=touched,
            )
            decide(table)
            table.dice.finish()

            events = list(journal)
            stored = self.app.stored(events)
            if at is None:
                recorded = recorded | {"at": events[0].timestamp.isoformat()}
            writes = [[e.originator_id.hex, e.originator_version] for e in events]
            chain = chain_hash(campaign.chain, recorded, stored)
            campaign.record_command(
                seq=campaign.seq + 1, command_id=command_id, command=recorded, writes=writes, chain=chain
            )
            closing = journal[len(events):]
            positions = self.app.record(
                [*events, *closing], [*stored, *self.app.stored(closing)], [claim, *touched.values()]
            )
            return Applied(
                command_id, "applied", events=len(journal), rolls=list(table.rolls),
                position=positions[-1] if positions else None,
            )
        finally:
            event_journal.reset(journal_token)
            command_time.reset(time_token)

    def _campaign_for(self, command: Command) -> Campaign:
        assert command.campaign is not None
        if isinstance(command, CreateCampaign):
            rules = ruleset(command.ruleset)
            unknown = set(command.options) - set(rules.default_options)
            if unknown:
                raise CommandRejected(
                    f"unknown rule options {sorted(unknown)} for {rules.name} "
                    f"(known: {sorted(rules.default_options) or 'none'})",
                    field="options",
                )
            if self.campaign(command.campaign) is not None:
                raise CommandRejected(f"campaign {command.campaign!r} already exists", field="campaign")
            return rules.campaign_class(
                campaign=command.campaign,
                ruleset=rules.name,
                title=command.title,
                options={**rules.default_options, **command.options},
            )
        campaign = self.campaign(command.campaign)
        if campaign is None:
            raise CommandRejected(f"no campaign {command.campaign!r}", field="campaign")
        if command.type not in commands_for(campaign.ruleset):
            raise CommandRejected(f"{command.type} is not a command of the {campaign.ruleset} rules", field="type")
        return campaign

    def _dice(self, command: Command) -> DiceSupply:
        if self._dice_for is not None:
            return self._dice_for(command)
        if command.dice is not None:
            return TypedSupply(command.dice)
        return SeedSupply(self.store.seeds.seed)

    @staticmethod
    def _authorise(command: Command, campaign: Campaign) -> None:
        if command.actor.startswith("auditor:"):
            raise PermissionDenied(f"{command.actor} may dispute rolls but not play ({command.type})")
        if command.actor.startswith("player:") and command.gm_only:
            raise PermissionDenied(f"only the GM may {command.type}")
