"""The service layer: one command in, its events stored in one transaction, or nothing.

`Rollbook.execute` is the only way commands reach the store. For each command it

1. skips it if its id is already recorded in the campaign with the same command (reruns
   are safe), and refuses it if the id was recorded with a different one;
2. sets the command's time and opens a journal of the events it causes;
3. lets the ruleset's handler decide at a `Table` (validate, roll, call event methods);
4. transcodes the events once, chains their hash to the campaign's previous command and
   appends `CommandApplied` (the command, what it wrote, the chain) to the campaign;
5. stores everything in one transaction. If another writer got there first (the
   campaign's version moved on), it forgets what it loaded and decides again on fresh
   state; a refused command leaves nothing behind, in the store or in the cache.

The service decides and retries; its other concerns are parts of their own: repeat detection
(`repeats.py`), rule-option validation (`rule_options.py`), transcoding and the chain (`recording.py`).
`foresee` (the odds) and `append_history` (rulings) reuse the same steps.
"""

from __future__ import annotations

import copy
import itertools
import random
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from eventsourcing.domain import datetime_now_with_tzinfo

from .. import settings
from ..domain.aggregate import command_time, event_journal
from ..domain.campaign import Campaign
from ..domain.campaign_revisions import first_unrolled_nonce
from ..domain.checkpoint import Signer
from ..domain.errors import CommandRejected
from ..domain.ids import campaign_id, command_claim_id
from ..domain.members import CommandClaim
from ..domain.rulesets import ruleset
from ..domain.table import DiceSupply, Foreseen, Seeds, SeedSupply, Table, TypedSupply, Unthrown
from ..store import Store
from ..store.failures import IntegrityError, PersistenceError
from ..store.logs import Log
from ..store.reads import StoredEvent
from ..store.tlog import fill_tree
from ..store.unit_of_work import BatchUnit, Recorded, StoreUnit, Transaction, UnitOfWork
from .base import Command
from .catalogue import commands_for
from .common import CreateCampaign
from .ownership import authorise
from .recording import record_chained
from .repeats import as_recorded, repeats, rerun
from .rule_options import chosen_options, refuse_unknown_options

log = Log("rollbook")

#: How long a command keeps deciding again while other writers overtake it. A writer whose
#: cache is warm decides faster than one that just reloaded after a conflict, so under a
#: stream of writes the loser can lose many times in a row; it waits (a random, growing
#: pause, so the losers do not collide again in step) and wins once the stream thins.
RETRY_SECONDS = 60.0


@dataclass
class Applied:
    """What happened to one command."""

    command_id: str
    status: str  # "applied" or "skipped"
    events: int = 0
    rolls: list[str] = field(default_factory=list)
    position: int | None = None
    #: For a skip: the recorded command it repeats (where the unit of work can still read it).
    repeats: Recorded | None = None
    #: The checkpoint it signed (a chapter, issue or story ended), as pasted into a thread.
    checkpoint: str | None = None
    #: How many aggregates it loaded (read or changed), for the log.
    aggregates: int = 0
    #: The rows its transaction stored, in order (the claim first, CommandApplied last): a server
    #: answers the post from them without reading them back.
    stored: list[StoredEvent] = field(default_factory=list)


class ConcurrencyError(CommandRejected):
    """Other writers kept changing the campaign first, attempt after attempt."""


class RollsNothing(CommandRejected):
    """The command, decided as it stands, throws no dice: it has no odds (and a form asks for no salt)."""


class Rollbook:
    def __init__(
        self,
        store: Store,
        *,
        dice_for: Callable[[Command], DiceSupply] | None = None,
        route: Callable[[str], str] | None = None,
        seeds: Seeds | None = None,
        unit: UnitOfWork | None = None,
        testing_kit: bool = False,
        signer: Signer | None = None,
        chain_start: str | None = None,
    ) -> None:
        """`testing_kit`: campaigns marked as the testing kit's may be created (the kit; a replay).
        `signer`: the campaigns' signing keys (the store's own by default). `chain_start`: what a campaign's
        first command chains to, if not zeros (a revision a ruling makes: `chain.revision_start`)."""
        self.chain_start = chain_start
        self.store = store
        self.signer: Signer = signer if signer is not None else store.keys
        self.testing_kit = testing_kit
        self._dice_for = dice_for
        self._route = route
        self.seeds: Seeds = seeds if seeds is not None else store.seeds
        self.unit: UnitOfWork = unit if unit is not None else StoreUnit(store)

    @contextmanager
    def batch(self, *, claims_enforced: bool = False) -> Iterator[Rollbook]:
        """A service whose commands are stored in one transaction, at the end of the block (imports).

        Its commands still decide one by one on the state the earlier ones left; if one is
        refused, or the batch cannot be stored, nothing of the batch is. `claims_enforced`:
        see `BatchUnit`.
        """
        assert isinstance(self.unit, StoreUnit), "a batch stores into the event store"
        with BatchUnit(self.unit, claims_enforced=claims_enforced) as unit:
            batched = copy.copy(self)
            batched.unit = unit
            yield batched
            unit.commit()

    # --- reading ----------------------------------------------------------------------

    def load(self, aggregate_id: Any) -> Any:
        return self.unit.load(aggregate_id)

    def campaign(self, name: str) -> Campaign | None:
        return self.load(campaign_id(name))

    def key_for(self, name: str) -> str:
        """Where commands for campaign `name` go: its current revision, unless routed elsewhere."""
        if self._route is not None:
            return self._route(name)
        root = self.campaign(name)
        return root.current_key if root is not None else name

    def ruleset_of(self, name: str) -> str | None:
        campaign = self.campaign(self.key_for(name))
        return campaign.ruleset if campaign is not None else None

    def is_recorded(self, campaign: str, command_id: str) -> bool:
        return self.unit.is_recorded(command_claim_id(campaign, command_id))

    # --- writing ----------------------------------------------------------------------

    def execute(self, command: Command, *, precondition: Callable[[Campaign], None] | None = None) -> Applied:
        """Apply one command. `precondition` is called on the very campaign state the command is
        decided on (refusing it raises CommandRejected): a server's If-Match holds exactly when
        the command is stored, because a campaign that moved on makes the store refuse the write."""
        command_id = command.id or f"c-{uuid.uuid4().hex[:12]}"
        assert command.campaign is not None, "the parser fills the campaign"
        started = time.perf_counter()
        for attempt in itertools.count(1):
            key = self.key_for(command.campaign)
            if repeats(self.unit, command, command_id, key):
                return self._skipped(command, command_id, key)
            try:
                applied = self._attempt(command, command_id, key, precondition)
            except (CommandRejected, PersistenceError) as failure:
                if repeats(self.unit, command, command_id, key, failure):
                    return self._skipped(command, command_id, key)
                if not isinstance(failure, IntegrityError):
                    if isinstance(failure, CommandRejected):
                        log.info("command.refused", command_id=command_id, type=command.type,
                                 campaign=command.campaign, field=failure.field, reason=failure.message)
                    raise
                if time.perf_counter() - started > RETRY_SECONDS:
                    break
                log.info("command.retry", command_id=command_id, type=command.type,
                         campaign=command.campaign, attempt=attempt,
                         reason="another writer changed the campaign first")
                time.sleep(random.uniform(0, min(0.002 * 2**attempt, 0.25)))
                continue
            log.info(
                "command.applied", command_id=command_id, type=command.type, actor=command.actor,
                campaign=command.campaign, aggregates=applied.aggregates, events=applied.events,
                rolls=applied.rolls, ms=round((time.perf_counter() - started) * 1000, 2),
            )
            return applied
        refused = ConcurrencyError("gave up after {attempts} attempts in {seconds} s, each overtaken by another writer",
                                   field="campaign", attempts=attempt, seconds=f"{RETRY_SECONDS:.0f}")
        log.info("command.refused", command_id=command_id, type=command.type, campaign=command.campaign,
                 field="campaign", reason=refused.message)
        raise refused

    def _skipped(self, command: Command, command_id: str, key: str) -> Applied:
        """A command whose id is recorded already: skipped as a rerun, or refused if it differs (repeats.py)."""
        return Applied(command_id, "skipped", repeats=rerun(self.unit, command, command_id, key))

    def _attempt(
        self, command: Command, command_id: str, key: str, precondition: Callable[[Campaign], None] | None = None,
    ) -> Applied:

        def decide(table: Table) -> None:
            if precondition is not None:
                precondition(table.campaign)
            _decide(command, table)

        return self._transact(
            key, command_id, command.at, command.actor,
            recorded=as_recorded(command, command_id),
            campaign_for=lambda: self._campaign_for(command, key),
            decide=decide, dice=self._dice(command),
        )

    def foresee(self, command: Command) -> tuple[Any, Campaign]:
        """Decide `command` as `execute` would, up to its dice; what it would roll, and its campaign.

        The same authorisation, handler and rules run on copies of the live aggregates, so a
        command they refuse is refused here with the same words, and what the decision changes
        on the way (luck spent, a chance used) changes only the copies: nothing is rolled or
        stored, and the cached aggregates stay as they were (no reload for the next query).
        """
        assert command.campaign is not None, "the parser fills the campaign"
        key = self.key_for(command.campaign)

        def copy_of(aggregate_id: Any) -> Any:
            found = self.load(aggregate_id)
            return copy.deepcopy(found) if found is not None else None

        with _command_context(command.at or datetime_now_with_tzinfo(), []):
            try:
                campaign = copy.deepcopy(self._campaign_for(command, key))
                table = Table(
                    campaign, command_id=command.id or "odds", actor=command.actor, dice=Unthrown(),
                    seeds=self.seeds, load=copy_of, foresight=True,
                )
                _decide(command, table)
            except Foreseen as seen:
                return seen.plan, campaign
        raise RollsNothing("{type} rolls no dice: there are no odds to give", field="type", type=command.type)

    def odds(self, campaign: str, command: dict[str, Any], compare: dict[str, Any] | None = None) -> dict[str, Any]:
        """The chance of each outcome of `command` (a command's body) as it would be decided now (commands/odds.py)."""
        from .odds import odds

        return odds(self, campaign, command, compare=compare)

    def append_history(
        self,
        campaign: str,
        description: str,
        apply: Callable[[Table], None],
        *,
        at: datetime | None = None,
        recorded: dict[str, Any] | None = None,
        command_id: str | None = None,
    ) -> Applied:
        """Append events without deciding them: the testing kit's `given`, an auditor's ruling.

        `apply` calls the aggregates' event methods directly; the result is recorded like a
        command (of type `history` unless `recorded` says otherwise), hash-chained, so the
        campaign's record stays whole.
        """
        command_id = command_id or f"history-{uuid.uuid4().hex[:12]}"
        record = {"type": "history", "description": description, **(recorded or {})}

        def existing() -> Campaign:
            found = self.campaign(campaign)
            if found is None:
                raise CommandRejected("no campaign {campaign!r}", field="campaign", campaign=campaign)
            return found

        return self._transact(
            campaign, command_id, at, "gm",
            recorded={**record, "campaign": campaign, "id": command_id},
            campaign_for=existing, decide=apply, dice=TypedSupply([]),
        )

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
    ) -> Applied:
        """Decide and store one command in one transaction; anything it raises rolls the transaction back."""
        # One time for every event of the command, recorded with it, so a replay stamps them alike.
        at = at or datetime_now_with_tzinfo()
        # Canonical: sorted keys, so re-parsing the record gives the very same bytes.
        recorded = dict(sorted((recorded | {"at": at.isoformat()}).items()))
        journal: list[Any] = []
        with _command_context(at, journal), Transaction(self.unit) as work:
            claim = command_claim_id(campaign_name, command_id)
            journal.append(CommandClaim.recorded(claim, campaign_name, command_id))
            campaign = campaign_for()
            if campaign.tree is None:  # restored from a snapshot older than the tree: filled from the record
                fill_tree(self.store, campaign)
            campaign.check_in_order(at)
            if isinstance(dice, SeedSupply):
                dice.skip_to(self.nonces_spent(campaign))
                dice.revisions = self.campaign
            table = Table(
                campaign, command_id=command_id, actor=actor, dice=dice,
                seeds=self.seeds, load=self.load, touched=work.touched, signer=self.signer,
            )
            decided_on = campaign.version
            try:
                decide(table)
            except CommandRejected:
                # Refused on a cached campaign another process has moved on (a character the CLI just made):
                # not a refusal yet. Decided again on what is stored, as a write it overtook would be.
                if self.unit.overtaken(campaign.id, decided_on):
                    raise IntegrityError(f"{campaign_name} moved on in another process while this was decided") \
                        from None
                if getattr(dice, "short", False):
                    dice.finish()  # the rules judged stand-in faces: the missing ones are the refusal
                raise
            table.dice.finish()
            signed = table.signed_tree or table.signed
            checkpoint = signed.text(campaign.public_key) if signed is not None else None

            everything, transcoded = record_chained(campaign, command_id, recorded, journal, self.store.stored,
                                                    start=self.chain_start)
            # Members only read (a rule that looks at every character) are not saved again or re-cached.
            changed = {event.originator_id for event in everything}
            position = work.commit(
                everything, transcoded, [a for a in work.touched.values() if a.id in changed]
            )
            return Applied(command_id, "applied", events=len(journal), rolls=list(table.rolls), position=position,
                           checkpoint=checkpoint, aggregates=len(work.touched), stored=transcoded)

    def nonces_spent(self, campaign: Campaign) -> int:
        """The first nonce no revision of `campaign` before it has rolled at (campaign_revisions.py)."""
        return first_unrolled_nonce(campaign, self.campaign)

    def _campaign_for(self, command: Command, key: str) -> Campaign:
        if isinstance(command, CreateCampaign):
            rules = ruleset(command.ruleset)
            options = command.rule_options()
            refuse_unknown_options(rules, options)
            if self.campaign(key) is not None:
                raise CommandRejected("campaign {campaign!r} already exists", field="campaign", campaign=command.campaign)
            if command.testing_kit and not self.testing_kit:
                raise CommandRejected("only the testing kit creates a testing-kit campaign", field="testing_kit")
            return rules.campaign_class(campaign=key, ruleset=rules.name, title=command.title,
                                        options=chosen_options(rules, options))
        campaign = self.campaign(key)
        if campaign is None:
            raise CommandRejected("no campaign {campaign!r}", field="campaign", campaign=command.campaign)
        if command.type not in commands_for(campaign.ruleset):
            raise CommandRejected("{type} is not a command of the {ruleset} rules", field="type", type=command.type,
                                  ruleset=campaign.ruleset)
        return campaign

    def _dice(self, command: Command) -> DiceSupply:
        if self._dice_for is not None:
            return self._dice_for(command)
        if command.dice is not None:
            return TypedSupply(command.dice)
        return SeedSupply(self.seeds.seed, salt=command.salt, commitment=command.commitment,
                          player=command.actor.startswith("player:"), salt_required=settings.current().require_salt)


def _decide(command: Command, table: Table) -> None:
    """Decide `command` at `table`: who may give it, then its ruleset's handler (validate, roll, call event
    methods). The one place a command is decided, for `execute` and for `foresee` alike."""
    authorise(command, table)
    _, handler = commands_for(table.campaign.ruleset)[command.type]
    handler(command, table)


@contextmanager
def _command_context(at: datetime, journal: list[Any]) -> Iterator[None]:
    """Every event caused within takes the time `at` and is journalled in `journal`, in order."""
    time_token = command_time.set(at)
    journal_token = event_journal.set(journal)
    try:
        yield
    finally:
        event_journal.reset(journal_token)
        command_time.reset(time_token)
