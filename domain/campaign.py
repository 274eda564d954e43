"""The Campaign aggregate: the rule system, roster, clock, limits ledger, dice and command log.

Every command of a campaign ends by appending `CommandApplied` here, so the campaign's
version orders its commands: two writers that decide on the same state collide on it
(optimistic concurrency) and the loser decides again on the fresh state. That is what
makes the once-only limits race-proof without any lock.

Its events stay here, each stored by a topic naming this module (`rollbook.domain.campaign:Campaign.…`);
what they evolve stays plain values (a snapshot is `vars(campaign)`). The parts that read and change those
are modules of their own, with their tests: `campaign_roster` (the roster and its index), `campaign_ledger`,
`campaign_chain` (the command log's order and tree), `campaign_revisions`, `campaign_rules` and
`campaign_snapshots`. What stays is the class and its events, which is why it is a little over 400 lines.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import event

from . import campaign_chain, campaign_ledger, campaign_roster, campaign_snapshots
from .aggregate import RollbookAggregate
from .campaign_revisions import root_of
from .campaign_rules import declared_options, scopes_of
from .chain import GENESIS_CHAIN
from .dice import SALTED
from .errors import RuleViolation, Word
from .ids import campaign_id, member_id
from .timeline import COMMON_SCOPES, Limit, Scope


class Campaign(RollbookAggregate):
    """One campaign of one rule system. Rulesets subclass it for their table-wide state."""

    #: The ruleset's own names for the generic scopes (a chapter may be an "issue").
    scope_labels: ClassVar[dict[Scope, str]] = {}
    #: When the last recorded command happened (its `at`); a class default, so a campaign
    #: restored from a snapshot taken before it was kept reads None, not an error.
    last_at: str | None = None
    #: The Ed25519 public key (hex) its checkpoints are signed with; a campaign created
    #: before checkpoints existed has none.
    public_key = None
    #: The ruling that made the current revision (dispute id, roll, decision): a retry of the
    #: same ruling finds it here and writes nothing. A class default, as `last_at`.
    last_ruling: dict[str, Any] | None = None
    #: The first nonce no revision of the campaign has rolled at, as the last ruling left it (kept on
    #: the first revision): a revision made by a ruling may have struck the rolls at its last nonces, and
    #: the same nonce under the same seed would show the struck faces again. A class default, as `last_at`:
    #: None where no ruling kept it (none made, or all made before it was kept).
    nonces_spent: int | None = None
    #: Salt -> the command that rolled with it under the current seed (used once: campaign_revisions.salt_used).
    salts: dict[str, str] | None = None
    #: The command that committed the current seed, named to a poster whose salt was chosen under an earlier one
    #: (SeedSupply): "" from the commitment until that command is recorded. A class default, as `last_at`: None
    #: where no seed was committed since it was kept.
    seeded_by: str | None = None
    #: The Merkle tree over its recorded commands as its compact range (campaign_chain.py). None in a
    #: campaign restored from a snapshot taken before it was kept; the service fills it from the
    #: recorded commands (store/tlog.py) before a command.
    tree: list[str] | None = None
    #: Snapshots of older versions lack parts of the roster index or the tree: the upcasters below say which.
    class_version = 5
    #: The ruleset's boundary rules that visit the roster, each under the key of the campaign event
    #: that says it ran (`start:SCOPE`, `end:SCOPE`, `tick:SCOPE`, or the ruleset's own): for each,
    #: `stirred` keeps the members written since it last ran, the only ones it can find anything to do
    #: for (a member it left untouched had nothing pending, and nothing has changed him since).
    roster_visits: ClassVar[tuple[str, ...]] = ()

    @staticmethod
    def create_id(campaign: str, **_: Any) -> UUID:
        return campaign_id(campaign)

    @event("Created")
    def __init__(
        self, campaign: str, ruleset: str, title: str | None, options: dict[str, Any]
    ) -> None:
        self.campaign = campaign
        self.ruleset = ruleset
        self.title = title
        self.options = options
        self.roster: dict[str, dict[str, Any]] = {}
        self.clock: dict[str, dict[str, Any]] = {}
        self.limits: dict[str, dict[str, int]] = {}
        self.nonce = 0
        self.commitment: str | None = None
        self.seq = 0
        self.chain = GENESIS_CHAIN
        self.tree = []
        self.moves = 0
        self.revision = 1
        self.current_key = campaign
        #: The roster index, so that no rule visits every member ever created (campaign_roster.py).
        self.member_of: dict[str, list[Any]] = {}
        self.stirred: dict[str, dict[str, int]] = {key: {} for key in self.roster_visits}
        self.open_moves: dict[str, str] = {}
        self.move_of: dict[str, str] = {}
        self.moves_unknown: dict[str, int] = {}

    @classmethod
    def upcast_v1_v2(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the roster index: it is rebuilt from the roster, wider than the fold's
        (campaign_roster.rebuilt_index)."""
        state.update(campaign_roster.rebuilt_index(state["campaign"], state["roster"], cls.roster_visits))

    @classmethod
    def upcast_v2_v3(cls, state: dict[str, Any]) -> None:
        """A snapshot from before its ruleset's rule came to visit only the stirred (a battle's end in
        some rulesets): for such a rule every member counts as stirred, as `upcast_v1_v2` does."""
        campaign_roster.stir_everyone_for_new_visits(state, cls.roster_visits)

    @classmethod
    def upcast_v3_v4(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the last rules came to visit only the stirred (a page's or a day's end,
        hours passing): the same, every member stirred for a rule it did not know."""
        cls.upcast_v2_v3(state)

    @classmethod
    def upcast_v4_v5(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the Merkle tree: its compact range cannot be told from the snapshot,
        so it is left unknown (`tree` None) for the service to fill from the recorded commands."""

    def tree_root(self) -> str | None:
        """The root (hex) of the tree over the commands recorded so far; None while it is unknown."""
        return campaign_chain.tree_root(self.tree)

    @property
    def root(self) -> str:
        """The campaign's name as players know it; a corrected revision lives under `NAME@rN`."""
        return root_of(self.campaign)

    def option(self, name: str) -> Any:
        """The campaign's reading of one of its ruleset's rule options (domain/options.py)."""
        return declared_options(self.ruleset).value(self.options, name)

    def label(self, scope: str) -> str:
        """What the ruleset calls a scope (its chapter may be an issue); a scope or its name."""
        return self.scope_labels.get(scope, str(scope))

    def scope(self, name: str) -> Scope:
        """The scope an event names: a common one or one of the ruleset's own."""
        return COMMON_SCOPES.get(name) or scopes_of(self.ruleset)[1][name]

    def bounded_scopes(self) -> tuple[Scope, ...]:
        """The scopes the timeline opens and closes in this campaign, smallest first."""
        return scopes_of(self.ruleset)[0]

    # --- roster -----------------------------------------------------------------------

    def enrol(self, name: str, kind: str, player: str | None = None) -> None:
        campaign_roster.refuse_new_member(self.roster, self.campaign, name, kind, player)
        self._member_joined(name=name, kind=kind, player=player)

    @event("MemberJoined")
    def _member_joined(self, name: str, kind: str, player: str | None) -> None:
        self.roster[name] = {"kind": kind, "player": player}
        self.member_of[member_id(self.campaign, kind, name).hex] = [name, len(self.roster) - 1]

    def member(self, name: str, kind: str | None = None, *, field: str = "character") -> dict[str, Any]:
        return campaign_roster.find_member(self.roster, self.campaign, name, kind, field)

    def members(self, kind: str) -> list[str]:
        return [name for name, entry in self.roster.items() if entry["kind"] == kind]

    # --- timeline ---------------------------------------------------------------------

    def is_open(self, scope: Scope) -> bool:
        return bool(self.clock.get(scope.value, {}).get("open"))

    def number(self, scope: Scope) -> int:
        """The number of the current (or last) instance of a scope; 0 before the first."""
        return int(self.clock.get(scope.value, {}).get("number", 0))

    def start(self, scope: Scope, title: str | None = None) -> int:
        if self.is_open(scope):
            raise RuleViolation(
                "{scope} {number} is still open; end it first",
                scope=Word(self.label(scope)), number=self.number(scope),
            )
        number = self.number(scope) + 1
        self._scope_started(scope=scope.value, label=self.label(scope), number=number, title=title)
        return number

    def open_scopes_within(self, scope: Scope) -> list[Scope]:
        """The open scopes that ending `scope` closes, innermost first, `scope` last."""
        if not self.is_open(scope):
            raise RuleViolation("no {scope} is open", scope=Word(self.label(scope)))
        return [s for s in self.bounded_scopes() if s.rank <= scope.rank and self.is_open(s)]

    def end(self, scope: Scope) -> None:
        self._scope_ended(scope=scope.value, label=self.label(scope), number=self.number(scope))

    @event("ScopeStarted")
    def _scope_started(self, scope: str, label: str, number: int, title: str | None) -> None:
        self.clock[scope] = {"number": number, "open": True, "title": title}
        self.visited(f"start:{scope}")

    @event("ScopeEnded")
    def _scope_ended(self, scope: str, label: str, number: int) -> None:
        self.clock[scope]["open"] = False
        self.limits.pop(scope, None)
        self.visited(f"end:{scope}")

    def tick(self, scope: Scope = Scope.MOVE) -> int:
        """Advance a counted unit (a page, a round, a turn): a new instance, old uses forgotten."""
        number = self.number(scope) + 1
        self._ticked(scope=scope.value, label=self.label(scope), number=number)
        return number

    @event("Ticked")
    def _ticked(self, scope: str, label: str, number: int) -> None:
        self.clock[scope] = {"number": number, "open": True, "title": None}
        self.limits.pop(scope, None)
        self.visited(f"tick:{scope}")

    def begin_move(self, character: str, roll: str) -> None:
        """A character's move (page, round, turn) begins with this roll: a point on the timeline."""
        self._move_begun(number=self.moves + 1, character=character, roll=roll)

    @event("MoveBegun")
    def _move_begun(self, number: int, character: str, roll: str) -> None:
        self.moves = number
        campaign_roster.begin_move(self.open_moves, self.move_of, self.moves_unknown, character, roll)

    def open_move_of(self, roll: str) -> list[str]:
        """Who may have `roll` as his open move, in roster order: the one who began it, if it is still
        his last; else only those whose open move the index does not know (`moves_unknown`)."""
        return campaign_roster.open_move_of(self.open_moves, self.moves_unknown, roll)

    # --- the roster index -------------------------------------------------------------

    #: Does a snapshot's state decide as the fold of the events before it (campaign_snapshots.py)?
    snapshot_agrees = staticmethod(campaign_snapshots.agrees)

    def visited(self, key: str) -> None:
        """The rule under `key` has just visited the members stirred for it: from now on only those its
        command writes (added with it, `record_command`) and those written later are."""
        campaign_roster.visited(self.stirred, key)

    def stirred_members(self, key: str, kind: str) -> list[str]:
        """The members of `kind` the rule under `key` must visit, in roster order."""
        return campaign_roster.stirred_in_order(self.stirred[key], self.roster, kind)

    # --- once-only limits -------------------------------------------------------------

    def _instance(self, limit: Limit, instance: str | None) -> str:
        if instance is not None:
            return instance
        if limit.scope.lasting:
            return limit.scope.value
        label = self.label(limit.scope)
        if not self.is_open(limit.scope):
            raise RuleViolation(
                "{description} counts per {label} ({rule}), and no {label} is open",
                description=Word(limit.description), label=Word(label), rule=limit.rule,
            )
        return f"{label} {self.number(limit.scope)}"

    def uses(self, limit: Limit, holder: str, instance: str | None = None) -> int:
        return campaign_ledger.uses(self.limits, limit.scope.value, limit.name, self._instance(limit, instance), holder)

    def check_limit(self, limit: Limit, holder: str, instance: str | None = None) -> str:
        """Refuse a use of `limit` by `holder` past its count; the instance the use counts in."""
        where = self._instance(limit, instance)
        used = self.uses(limit, holder, where)
        if used >= limit.count:
            raise limit.refusal_in(used, limit.per or self.label(limit.scope), where)
        return where

    def use_limit(self, limit: Limit, holder: str, instance: str | None = None) -> None:
        """Count one use of `limit` by `holder`, refusing it past the limit's count."""
        where = self.check_limit(limit, holder, instance)
        self._limit_used(limit=limit.name, scope=limit.scope.value, instance=where, holder=holder)

    @event("LimitUsed")
    def _limit_used(self, limit: str, scope: str, instance: str, holder: str) -> None:
        campaign_ledger.count_use(self.limits, scope, limit, instance, holder)

    def release(self, scope: Scope, instance: str) -> None:
        """Forget the uses counted in one instance of a scope that closes on its own."""
        if campaign_ledger.counts_in(self.limits, scope.value, instance):
            self._limits_released(scope=scope.value, instance=instance)

    @event("LimitsReleased")
    def _limits_released(self, scope: str, instance: str) -> None:
        campaign_ledger.release(self.limits, scope, instance)

    def ledger(self) -> list[dict[str, Any]]:
        return campaign_ledger.rows(self.limits)

    # --- dice -------------------------------------------------------------------------

    def record_roll(self, roll: dict[str, Any]) -> None:
        self._dice_rolled(roll=roll)

    @event("DiceRolled")
    def _dice_rolled(self, roll: dict[str, Any]) -> None:
        if roll.get("source") == "hmac":
            self.nonce = roll["nonce"] + 1
            if roll.get("derivation") == SALTED and isinstance(roll.get("salt"), str):
                self.salts = self.salts or {}
                self.salts[roll["salt"]] = roll["id"].split("#", 1)[0]

    def modify_roll(self, roll: str, total: int, outcome: str | None, reason: str,
                    modifier: dict[str, Any] | None = None, fields: dict[str, Any] | None = None) -> None:
        self._roll_modified(roll=roll, modifier=modifier, total=total, outcome=outcome, reason=reason, fields=fields)

    @event("RollModified")
    def _roll_modified(
        self, roll: str, modifier: dict[str, Any] | None, total: int, outcome: str | None, reason: str,
        fields: dict[str, Any] | None = None,
    ) -> None:
        """The roll log's record of a change after the roll; the roll's owner keeps the rules' state.

        `fields` are the ruleset's own keys of the roll that the change revised (a success-counting
        roll's successes and net), so every derived value in the log follows its last change; events
        stored before it existed have none.
        """

    def commit_seed(self, commitment: str) -> None:
        self._seed_committed(commitment=commitment)

    @event("SeedCommitted")
    def _seed_committed(self, commitment: str) -> None:
        self.commitment = commitment
        self.seeded_by = ""  # the command being decided: named when it is recorded (record_command)
        if self.salts:  # a new seed: every salt may be used once again
            self.salts = {}

    def reveal_seed(self, seed: str) -> None:
        self._seed_revealed(commitment=self.commitment, seed=seed)

    @event("SeedRevealed")
    def _seed_revealed(self, commitment: str, seed: str) -> None:
        self.commitment = None

    def abandon_seed(self, reason: str) -> None:
        """Give up the current seed, lost with its secrets folder: its rolls can never be recomputed."""
        self._seed_abandoned(commitment=self.commitment, reason=reason)

    @event("SeedAbandoned")
    def _seed_abandoned(self, commitment: str, reason: str) -> None:
        self.commitment = None

    # --- checkpoints ------------------------------------------------------------------

    @event("SigningKeyRecorded")
    def record_signing_key(self, public_key: str) -> None:
        """The public key of the campaign's signing key (kept beside the store), recorded at creation."""
        self.public_key = public_key

    @event("CheckpointSigned")
    def record_checkpoint(self, revision: int, commands: int, head: str, time: str, signature: str) -> None:
        """A signed checkpoint of the commands recorded before this one (a chapter, issue or story ends)."""

    # --- the command log --------------------------------------------------------------

    def check_in_order(self, at: datetime) -> None:
        """Refuse a command dated before the campaign's last one (campaign_chain.check_in_order)."""
        campaign_chain.check_in_order(self.last_at, at)

    @event("CommandApplied")
    def record_command(
        self, seq: int, command_id: str, command: dict[str, Any], writes: list[list[Any]], chain: str
    ) -> None:
        """The command as given, what it wrote, and the hash chaining it to the previous one."""
        campaign_chain.extend_tree(self.tree, self.seq, seq, chain)
        self.seq = seq
        self.chain = chain
        self.last_at = command.get("at")
        if self.seeded_by == "":
            self.seeded_by = command_id
        campaign_roster.stir(self.stirred, self.member_of, writes)
        self.indexed(command_id, command, writes)

    def indexed(self, command_id: str, command: dict[str, Any], writes: list[list[Any]]) -> None:
        """A ruleset's own part of the roster index, evolved from each recorded command (its writes)."""

    # --- disputes and revisions ---------------------------------------------------------

    @event("Disputed")
    def record_dispute(
        self, dispute: str, roll: str, actor: str, reason: str, decision: dict[str, Any], revision: int
    ) -> None:
        """An auditor's ruling on a roll, and the revision whose history follows from it (as recorded before
        a ruling named the revision it replaces: `record_ruling`)."""
        self.last_ruling = {"dispute": dispute, "roll": roll, "decision": decision}

    @event("Ruled")
    def record_ruling(
        self, dispute: str, roll: str, actor: str, reason: str, decision: dict[str, Any], revision: int,
        replaces: dict[str, Any],
    ) -> None:
        """A ruling, as `record_dispute`, and the revision it replaces (`replaces`: its number, final size and
        head), which the new revision's chain starts from (chain.revision_start)."""
        self.last_ruling = {"dispute": dispute, "roll": roll, "decision": decision}

    @event("RevisionAdopted")
    def adopt_revision(self, revision: int, key: str, dispute: str, nonces_spent: int | None = None) -> None:
        """From now on the campaign is played and read in `revision` (stored under `key`); its seeded
        rolls start at `nonces_spent` (a ruling recorded before it was kept says nothing)."""
        self.revision = revision
        self.current_key = key
        if nonces_spent is not None:  # set only when said: a snapshot keeps no key its fold would not
            self.nonces_spent = max(self.nonces_spent or 0, nonces_spent)

    # --- what projections show --------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign, "ruleset": self.ruleset, "title": self.title, "options": self.options,
            "members": {n: dict(e) for n, e in self.roster.items()},
            "clock": {self.label(s): {"number": c["number"], "open": c["open"]} for s, c in self.clock.items()},
            "commands": self.seq, "revision": self.revision, "current_key": self.current_key,
        }
