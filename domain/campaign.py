"""The Campaign aggregate: the rule system, roster, clock, limits ledger, dice and command log.

Every command of a campaign ends by appending `CommandApplied` here, so the campaign's
version orders its commands: two writers that decide on the same state collide on it
(optimistic concurrency) and the loser decides again on the fresh state. That is what
makes the once-only limits race-proof without any lock.

Why it is one module of over 400 lines: its `@event` methods must be declared on the aggregate,
and each event's stored topic names this module (`rollbook.domain.campaign:Campaign.…`), so the
roster, ledger, seeds, chain and revisions cannot leave it without a topic map for every stored
event (issue 31 plans that split, with the map, as parts with tests of their own).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import event

from .aggregate import RollbookAggregate
from .chain import GENESIS_CHAIN
from .errors import RuleViolation, UnknownName
from .ids import campaign_id, lookalike_problem, member_id
from .names import lookalike_hint
from .options import Options
from .revisions import REVISION_MARK, revision_key, revision_of, spoken
from .timeline import BOUNDED_SCOPES, COMMON_SCOPES, Limit, Scope
from .transparency.merkle import append_hex, peaks_root
from .transparency.proof import command_leaf

#: The campaign's roster index: derived from its events, so that no rule visits every member.
ROSTER_INDEX = ("member_of", "stirred", "open_moves", "move_of", "moves_unknown")


#: Made once: `json.dumps` with an option builds an encoder on every call (as chain.py says).
_LEDGER_KEY = json.JSONEncoder(ensure_ascii=False)


def ledger_key(limit: str, instance: str, holder: str) -> str:
    """A ledger entry's key: the three as a JSON array, so any name (`Bo|Red`) reads back whole."""
    return _LEDGER_KEY.encode([limit, instance, holder])


@cache
def _declared_options(ruleset: str) -> Options:
    """The rule options a ruleset declares, found once: the rules read options several times a command."""
    from .rulesets import ruleset as named  # the registry loads the rulesets' packages: imported on use

    return named(ruleset).options


@cache
def _scopes(ruleset: str) -> tuple[tuple[Scope, ...], dict[str, Scope]]:
    """The scopes a campaign of the ruleset opens and closes, smallest first, and every scope it knows by
    name: the common ones and its own."""
    from .rulesets import ruleset as named  # as above

    own = named(ruleset).scopes
    bounded = sorted(BOUNDED_SCOPES + tuple(scope for scope in own if not scope.lasting), key=lambda scope: scope.rank)
    return tuple(bounded), {**COMMON_SCOPES, **{scope.value: scope for scope in own}}


def ledger_parts(key: str) -> list[str]:
    """The limit, instance and holder of a ledger key."""
    if not key.startswith("["):  # a snapshot taken before keys were structured: "limit|instance|holder"
        limit, instance, holder = key.split("|", 2)
        return [limit, instance, holder]
    return list(json.loads(key))


class Campaign(RollbookAggregate):
    """One campaign of one rule system. Rulesets subclass it for their table-wide state."""

    #: The ruleset's own names for the generic scopes (the heroes' chapter is an "issue").
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
    #: The Merkle tree (RFC 9162) over its recorded commands as its compact range: the roots of its
    #: complete subtrees, largest first (hex), O(log n) of them, enough to append a command and to
    #: give the root a checkpoint signs. None in a campaign restored from a snapshot taken before
    #: it was kept; the service fills it from the recorded commands (store/tlog.py) before a command.
    tree: list[str] | None = None
    #: Snapshots of version 1 were taken before the roster index (`member_of`, `stirred`, `open_moves`)
    #: was kept: `upcast_v1_v2` rebuilds it.
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
        #: The roster index, so that no rule visits every member ever created: each member's
        #: id (hex) -> [name, place on the roster], to read a command's writes by name;
        self.member_of: dict[str, list[Any]] = {}
        #: for each of `roster_visits`, the members written since its rule last ran (name -> place);
        self.stirred: dict[str, dict[str, int]] = {key: {} for key in self.roster_visits}
        #: each character's open move (roll -> character, character -> roll): the last he began;
        self.open_moves: dict[str, str] = {}
        self.move_of: dict[str, str] = {}
        #: who may hold an open move the index does not know (name -> place): those who have not
        #: begun one since the campaign was restored from a snapshot older than the index.
        self.moves_unknown: dict[str, int] = {}

    @classmethod
    def upcast_v1_v2(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the roster index: what the roster tells is rebuilt; every member
        counts as stirred (a rule that visits more members decides the same), and who may hold an
        open move the snapshot did not keep is visited for it until he begins his next one."""
        roster = state["roster"]
        state["member_of"] = {
            member_id(state["campaign"], entry["kind"], name).hex: [name, place]
            for place, (name, entry) in enumerate(roster.items())
        }
        everyone = {name: place for place, name in enumerate(roster)}
        state["stirred"] = {key: dict(everyone) for key in cls.roster_visits}
        state["open_moves"], state["move_of"], state["moves_unknown"] = {}, {}, everyone

    @classmethod
    def upcast_v2_v3(cls, state: dict[str, Any]) -> None:
        """A snapshot from before its ruleset's rule came to visit only the stirred (gladiators' and
        Implant's battle end): for such a rule every member counts as stirred, as `upcast_v1_v2` does."""
        everyone = {name: place for place, name in enumerate(state["roster"])}
        for key in cls.roster_visits:
            state["stirred"].setdefault(key, dict(everyone))

    @classmethod
    def upcast_v3_v4(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the last rules came to visit only the stirred (the heroes' page end,
        Implant's day end and hours): the same, every member stirred for a rule it did not know."""
        cls.upcast_v2_v3(state)

    @classmethod
    def upcast_v4_v5(cls, state: dict[str, Any]) -> None:
        """A snapshot from before the Merkle tree: its compact range cannot be told from the snapshot,
        so it is left unknown (`tree` None) for the service to fill from the recorded commands."""

    def tree_root(self) -> str | None:
        """The root (hex) of the tree over the commands recorded so far; None while it is unknown."""
        return None if self.tree is None else peaks_root([bytes.fromhex(p) for p in self.tree]).hex()

    @property
    def root(self) -> str:
        """The campaign's name as players know it; a corrected revision lives under `NAME@rN`."""
        return self.campaign.split(REVISION_MARK, 1)[0]

    def option(self, name: str) -> Any:
        """The campaign's reading of one of its ruleset's rule options (domain/options.py)."""
        return _declared_options(self.ruleset).value(self.options, name)

    def label(self, scope: str) -> str:
        """What the ruleset calls a scope (the heroes' chapter is an issue); a scope or its name."""
        return self.scope_labels.get(scope, str(scope))

    def scope(self, name: str) -> Scope:
        """The scope an event names: a common one or one of the ruleset's own."""
        return COMMON_SCOPES.get(name) or _scopes(self.ruleset)[1][name]

    def bounded_scopes(self) -> tuple[Scope, ...]:
        """The scopes the timeline opens and closes in this campaign, smallest first."""
        return _scopes(self.ruleset)[0]

    # --- roster -----------------------------------------------------------------------

    def enrol(self, name: str, kind: str, player: str | None = None) -> None:
        if name in self.roster:
            raise RuleViolation(
                f"{self.roster[name]['kind']} {name!r} already exists in {spoken(self.campaign)}",
                field="name",
            )
        # Two members (or players) who only look alike would be told apart by no one reading the thread.
        for field, value in (("name", name), ("player", player)):
            problem = lookalike_problem(value) if value is not None else None
            if problem is not None:
                known = self.roster if field == "name" else {e["player"] for e in self.roster.values() if e["player"]}
                raise RuleViolation(f"{value!r} cannot be a {kind}'s {field}: it {problem}"
                                    + lookalike_hint(value, known), field=field)
        self._member_joined(name=name, kind=kind, player=player)

    @event("MemberJoined")
    def _member_joined(self, name: str, kind: str, player: str | None) -> None:
        self.roster[name] = {"kind": kind, "player": player}
        self.member_of[member_id(self.campaign, kind, name).hex] = [name, len(self.roster) - 1]

    def member(self, name: str, kind: str | None = None, *, field: str = "character") -> dict[str, Any]:
        entry = self.roster.get(name)
        if entry is None or (kind is not None and entry["kind"] != kind):
            known = sorted(n for n, e in self.roster.items() if kind is None or e["kind"] == kind)
            raise UnknownName(
                f"no {kind or 'member'} named {name!r} in campaign {spoken(self.campaign)}"
                f" (known: {', '.join(known) or 'none'})" + lookalike_hint(name, known),
                field=field,
            )
        return entry

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
                f"{self.label(scope)} {self.number(scope)} is still open; end it first"
            )
        number = self.number(scope) + 1
        self._scope_started(scope=scope.value, label=self.label(scope), number=number, title=title)
        return number

    def open_scopes_within(self, scope: Scope) -> list[Scope]:
        """The open scopes that ending `scope` closes, innermost first, `scope` last."""
        if not self.is_open(scope):
            raise RuleViolation(f"no {self.label(scope)} is open")
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
        self.open_moves.pop(self.move_of.get(character, ""), None)  # his next move closes the last
        self.open_moves[roll] = character
        self.move_of[character] = roll
        self.moves_unknown.pop(character, None)

    def open_move_of(self, roll: str) -> list[str]:
        """Who may have `roll` as his open move, in roster order: the one who began it, if it is still
        his last; else only those whose open move the index does not know (`moves_unknown`)."""
        if roll in self.open_moves:
            return [self.open_moves[roll]]
        return sorted(self.moves_unknown, key=self.moves_unknown.__getitem__)

    # --- the roster index -------------------------------------------------------------

    @staticmethod
    def snapshot_agrees(kept: dict[str, Any], folded: dict[str, Any]) -> bool:
        """Does a snapshot's state (`kept`) decide as the fold of the events before it (`folded`)?

        All of it is the fold's but the roster index, which a campaign restored from an older
        snapshot rebuilt wider (`upcast_v1_v2`): its stirred members may be more than the fold's,
        never fewer (a rule visiting more members decides the same), and each open move of the
        fold's is known to it or its character is among those it visits for unknown ones.
        """
        kept, folded = dict(kept), dict(folded)
        if kept.get("tree") is None:  # restored before the tree was kept, and not filled: unknown, not wrong
            kept.pop("tree", None)
            folded.pop("tree", None)
        mine = {key: kept.pop(key, None) for key in ROSTER_INDEX}
        fold = {key: folded.pop(key, None) for key in ROSTER_INDEX}
        if kept != folded or mine["member_of"] != fold["member_of"]:
            return False
        if any(value is None for value in mine.values()) or mine["stirred"].keys() != fold["stirred"].keys():
            return False
        unknown = mine["moves_unknown"]
        return (all(mine["stirred"][key].get(name) == place
                    for key, exact in fold["stirred"].items() for name, place in exact.items())
                and all(mine["open_moves"].get(roll) == name or name in unknown
                        for roll, name in fold["open_moves"].items())
                and all(mine["move_of"].get(name) == roll or name in unknown for name, roll in fold["move_of"].items()))

    def visited(self, key: str) -> None:
        """The rule under `key` has just visited the members stirred for it: from now on only those its
        command writes (added with it, `record_command`) and those written later are."""
        stirred = self.stirred.get(key)
        if stirred is not None:
            stirred.clear()

    def stirred_members(self, key: str, kind: str) -> list[str]:
        """The members of `kind` the rule under `key` must visit, in roster order."""
        stirred = self.stirred[key]
        return [n for n in sorted(stirred, key=stirred.__getitem__) if self.roster[n]["kind"] == kind]

    # --- once-only limits -------------------------------------------------------------

    def _instance(self, limit: Limit, instance: str | None) -> str:
        if instance is not None:
            return instance
        if limit.scope.lasting:
            return limit.scope.value
        if not self.is_open(limit.scope):
            label = self.label(limit.scope)
            raise RuleViolation(
                f"{limit.description} counts per {label} ({limit.rule}), and no {label} is open"
            )
        return f"{self.label(limit.scope)} {self.number(limit.scope)}"

    def uses(self, limit: Limit, holder: str, instance: str | None = None) -> int:
        key = ledger_key(limit.name, self._instance(limit, instance), holder)
        return self.limits.get(limit.scope.value, {}).get(key, 0)

    def check_limit(self, limit: Limit, holder: str, instance: str | None = None) -> str:
        """Refuse a use of `limit` by `holder` past its count; the instance the use counts in."""
        where = self._instance(limit, instance)
        used = self.uses(limit, holder, where)
        if used >= limit.count:
            raise RuleViolation(limit.refusal(used, f"{limit.per or self.label(limit.scope)} ({where})"))
        return where

    def use_limit(self, limit: Limit, holder: str, instance: str | None = None) -> None:
        """Count one use of `limit` by `holder`, refusing it past the limit's count."""
        where = self.check_limit(limit, holder, instance)
        self._limit_used(limit=limit.name, scope=limit.scope.value, instance=where, holder=holder)

    @event("LimitUsed")
    def _limit_used(self, limit: str, scope: str, instance: str, holder: str) -> None:
        key = ledger_key(limit, instance, holder)
        ledger = self.limits.setdefault(scope, {})
        ledger[key] = ledger.get(key, 0) + 1

    def release(self, scope: Scope, instance: str) -> None:
        """Forget the uses counted in one instance of a scope that closes on its own."""
        if any(ledger_parts(k)[1] == instance for k in self.limits.get(scope.value, {})):
            self._limits_released(scope=scope.value, instance=instance)

    @event("LimitsReleased")
    def _limits_released(self, scope: str, instance: str) -> None:
        ledger = self.limits.get(scope, {})
        for key in [k for k in ledger if ledger_parts(k)[1] == instance]:
            del ledger[key]

    def ledger(self) -> list[dict[str, Any]]:
        rows = []
        for scope, entries in self.limits.items():
            for key, used in entries.items():
                limit, instance, holder = ledger_parts(key)
                rows.append(
                    {"limit": limit, "scope": scope, "instance": instance, "holder": holder, "used": used}
                )
        return rows

    # --- dice -------------------------------------------------------------------------

    def record_roll(self, roll: dict[str, Any]) -> None:
        self._dice_rolled(roll=roll)

    @event("DiceRolled")
    def _dice_rolled(self, roll: dict[str, Any]) -> None:
        if roll.get("source") == "hmac":
            self.nonce = roll["nonce"] + 1

    def modify_roll(
        self, roll: str, total: int, outcome: str | None, reason: str, modifier: dict[str, Any] | None = None,
        fields: dict[str, Any] | None = None,
    ) -> None:
        self._roll_modified(roll=roll, modifier=modifier, total=total, outcome=outcome, reason=reason, fields=fields)

    @event("RollModified")
    def _roll_modified(
        self, roll: str, modifier: dict[str, Any] | None, total: int, outcome: str | None, reason: str,
        fields: dict[str, Any] | None = None,
    ) -> None:
        """The roll log's record of a change after the roll; the roll's owner keeps the rules' state.

        `fields` are the ruleset's own keys of the roll that the change revised (a heroes roll's
        successes and net), so every derived value in the log follows its last change; events
        stored before it existed have none.
        """

    def commit_seed(self, commitment: str) -> None:
        self._seed_committed(commitment=commitment)

    @event("SeedCommitted")
    def _seed_committed(self, commitment: str) -> None:
        self.commitment = commitment

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
        """Refuse a command dated before the campaign's last one: time travel (`--at TIME`)
        reads the record in order, so a backdated command would show the wrong state."""
        if self.last_at is not None and at < datetime.fromisoformat(self.last_at):
            raise RuleViolation(
                f"{at.isoformat()} is earlier than the campaign's last command ({self.last_at}); "
                "commands are recorded in the order they happened", field="at",
            )

    @event("CommandApplied")
    def record_command(
        self,
        seq: int,
        command_id: str,
        command: dict[str, Any],
        writes: list[list[Any]],
        chain: str,
    ) -> None:
        """The command as given, what it wrote, and the hash chaining it to the previous one."""
        if self.tree is not None:
            append_hex(self.tree, seq - 1, command_leaf(seq, chain))
        self.seq = seq
        self.chain = chain
        self.last_at = command.get("at")
        if self.stirred:
            written = [self.member_of[w[0]] for w in writes if w[0] in self.member_of]
            for stirred in self.stirred.values():
                stirred.update(written)
        self.indexed(command_id, command, writes)

    def indexed(self, command_id: str, command: dict[str, Any], writes: list[list[Any]]) -> None:
        """A ruleset's own part of the roster index, evolved from each recorded command (its writes)."""

    # --- disputes and revisions ---------------------------------------------------------

    @event("Disputed")
    def record_dispute(
        self, dispute: str, roll: str, actor: str, reason: str, decision: dict[str, Any], revision: int
    ) -> None:
        """An auditor's ruling on a roll, and the revision whose history follows from it."""
        self.last_ruling = {"dispute": dispute, "roll": roll, "decision": decision}

    @event("RevisionAdopted")
    def adopt_revision(self, revision: int, key: str, dispute: str, nonces_spent: int | None = None) -> None:
        """From now on the campaign is played and read in `revision` (stored under `key`); its seeded
        rolls start at `nonces_spent` (a ruling recorded before it was kept says nothing)."""
        self.revision = revision
        self.current_key = key
        if nonces_spent is not None:
            self.nonces_spent = max(self.nonces_spent or 0, nonces_spent)

    # --- what projections show --------------------------------------------------------

    def sheet(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign,
            "ruleset": self.ruleset,
            "title": self.title,
            "options": self.options,
            "members": {n: dict(e) for n, e in self.roster.items()},
            "clock": {
                self.label(s): {"number": c["number"], "open": c["open"]}
                for s, c in self.clock.items()
            },
            "commands": self.seq,
            "revision": self.revision,
            "current_key": self.current_key,
        }
