"""Re-executing a recorded history: every command again, with the dice it rolled.

The commands go through the ordinary service — the same parsing, rules and events — but
their faces come from the record instead of a dice source, their times from their
recorded `at`, and the seed commitments from the record too. So an unchanged history
re-executes to the identical event stream, and a changed one (a disputed roll) shows
everything that follows from the change. A command that is no longer legal is not
applied; it is reported with the reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..commands.base import Command
from ..commands.parse import CommandError, parse_recorded
from ..commands.service import Rollbook
from ..domain.revisions import REVISION_MARK
from ..domain.checkpoint import Checkpoint, Signer
from ..domain.dice import HmacFaces, TypedFaces
from ..domain.errors import CommandRejected, DiceError
from ..store import Store
from ..store.seeds import SeedKeeper
from ..store.unit_of_work import UnitOfWork
from .history import RecordedCommand


#: What a recorded roll says of where its faces came from, re-recorded as it was (`derivation` and `place`: a
#: salted roll's faces are its salt's, domain/dice.py `SALTED`; a roll recorded before has neither).
PROVENANCE = ("source", "nonce", "commitment", "salt", "derivation", "place", "dispute", "seed")


class RecordedSupply:
    """The faces each roll of one command showed, with the provenance they were recorded with."""

    def __init__(self, rolls: list[dict[str, Any]]) -> None:
        self.rolls = list(rolls)
        self.used = 0
        self.current: TypedFaces | None = None

    def source_for(self, campaign: Any) -> tuple[TypedFaces, dict[str, Any]]:
        if self.current is not None:
            self.current.check_all_used()
        if self.used >= len(self.rolls):
            raise DiceError("the command now rolls more than the {recorded} rolls it recorded", recorded=len(self.rolls))
        roll = self.rolls[self.used]
        self.used += 1
        provenance = {k: roll[k] for k in PROVENANCE if k in roll}
        if "faces" not in roll:
            # A disputed roll rolled again: fresh faces from the dispute's own (published) seed.
            self.current = None
            return HmacFaces(bytes.fromhex(roll["seed"]), f"dispute:{roll['dispute']}", 0), provenance
        self.current = TypedFaces(roll["faces"])
        return self.current, provenance

    def finish(self) -> None:
        if self.current is not None:
            self.current.check_all_used()
        if self.used != len(self.rolls):
            raise DiceError("the command now rolls {used} times, not the {recorded} recorded", used=self.used,
                            recorded=len(self.rolls))


class RecordedSeeds:
    """Seed commitments as recorded, and seeds from the record or the original keeper."""

    def __init__(self, keeper: SeedKeeper | None) -> None:
        self.keeper = keeper
        self.commitments: list[str] = []
        self.revealed: dict[str, bytes] = {}

    def expect(self, recorded: RecordedCommand) -> None:
        self.commitments = list(recorded.commitments)
        self.revealed.update({c: bytes.fromhex(s) for c, s in recorded.reveals.items()})

    def new_seed(self, campaign: str) -> str:
        if not self.commitments:
            raise DiceError("the command now commits a seed it did not commit before")
        return self.commitments.pop(0)

    def seed(self, campaign: str, commitment: str) -> bytes:
        if commitment in self.revealed:
            return self.revealed[commitment]
        if self.keeper is None:
            raise DiceError("the seed {commitment}… was never revealed and is not kept here", commitment=commitment[:12])
        return self.keeper.seed(campaign, commitment)


def signed_messages(checkpoints: Iterable[dict[str, Any]], campaign: str) -> dict[bytes, str]:
    """Each recorded checkpoint's signed message, and the signature it has."""
    return {Checkpoint(campaign=campaign, **{**c, "signature": ""}).body().encode(): c["signature"] for c in checkpoints}


class RecordedSigner:
    """The public key and checkpoint signatures as recorded; anything new signed by the keeper's key.

    A history re-executed as it was signs exactly what it signed before (Ed25519 signs
    alike every time, but the key may not be kept where the history is replayed); a
    corrected revision signs its own, different heads afresh.
    """

    def __init__(self, keeper: Signer | None) -> None:
        self.keeper = keeper
        self.public: str | None = None
        self.signatures: dict[bytes, str] = {}

    def expect(self, recorded: RecordedCommand, campaign: str) -> None:
        self.public = recorded.public_key
        self.signatures = signed_messages(recorded.checkpoints, campaign)

    def public_key(self, campaign: str) -> str:
        if self.public is not None:
            return self.public
        if self.keeper is None:
            raise CommandRejected("the command now records a signing key, and no signing key is kept here")
        return self.keeper.public_key(campaign)

    def recorded_signature(self, message: bytes) -> str | None:
        """The signature of an old-form checkpoint the history recorded over `message` (Table.sign_checkpoint
        records that form again only then)."""
        return self.signatures.get(message)

    def sign(self, campaign: str, message: bytes, public_key: str) -> str | None:
        recorded = self.signatures.get(message)
        if recorded is not None:
            return recorded
        return self.keeper.sign(campaign, message, public_key) if self.keeper is not None else None


class KnownSignatures(RecordedSigner):
    """Signatures a revision already holds (as stored, or as its export carries them), else the keeper's.

    A corrected revision re-made where the campaign's key is not kept (an import into another
    store, `verify` re-executing a ruling) signs exactly the checkpoints the original signed,
    when their heads are the same; a head it never signed is the keeper's to sign, if any.
    """

    def __init__(self, checkpoints: Iterable[dict[str, Any]], campaign: str, keeper: Signer | None) -> None:
        super().__init__(keeper)
        self.signatures = signed_messages(checkpoints, campaign)


#: Why a command the ruling itself strikes is not applied (its `Skipped.reason`; the CLI tells it apart).
STRUCK = "dropped by the dispute"


@dataclass
class Skipped:
    """A recorded command that the corrected history cannot apply."""

    seq: int
    command_id: str
    command_type: str
    reason: str
    #: The field the refusal named (`dice`: the faces do not fit what the command rolls), if any.
    field: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "id": self.command_id, "type": self.command_type, "reason": self.reason}


@dataclass
class Outcome:
    applied: int = 0
    skipped: list[Skipped] = field(default_factory=list)


#: A change to one recorded command: return it unchanged, changed (new rolls), or None to drop it.
Change = Callable[[RecordedCommand], RecordedCommand | None]


def reexecute(
    history: Iterable[RecordedCommand],
    target: Store,
    *,
    key: str,
    keeper: SeedKeeper | None,
    signing_keys: Signer | None = None,
    change: Change | None = None,
    strict: bool = True,
    on_command: Callable[[RecordedCommand], None] | None = None,
    source: Store | None = None,
    unit: UnitOfWork | None = None,
    start: str | None = None,
) -> Outcome:
    """Apply a recorded history to `target` under campaign key `key`.

    `strict`: an unchanged history must re-execute without a refusal (replay, import);
    otherwise (a dispute) a refused command is skipped and reported. `unit`: where the
    events go if not into `target` itself (replay keeps them in memory, see MemoryUnit). `start`: the hash
    the first command chains to, for a revision a ruling made (`chain.revision_start`); zeros if None.
    """
    seeds = RecordedSeeds(keeper)
    signer = RecordedSigner(signing_keys)
    supply: dict[str, RecordedSupply] = {}

    def dice_for(command: Command) -> RecordedSupply:
        return supply.pop(command.id or "", RecordedSupply([]))

    # A recorded testing-kit campaign is re-executed as it was created: marked as the kit's.
    service = Rollbook(target, dice_for=dice_for, route=lambda name: key, seeds=seeds, unit=unit,
                       testing_kit=True, signer=signer, chain_start=start)
    outcome = Outcome()
    for recorded in history:
        if on_command is not None:
            on_command(recorded)
        if recorded.type == "dispute":
            continue  # a ruling recorded on the first revision; it is not part of the play
        if recorded.type == "history":
            _copy_history(recorded, source, service, key)
            outcome.applied += 1
            continue
        current = change(recorded) if change is not None else recorded
        if current is None:
            outcome.skipped.append(Skipped(recorded.seq, recorded.id, recorded.type, STRUCK))
            continue
        seeds.expect(current)
        signer.expect(current, key.split(REVISION_MARK, 1)[0])
        supply[current.id] = RecordedSupply(current.rolls)
        try:
            result = service.execute(_parsed(current.command, service))
        except (CommandRejected, CommandError) as error:
            if strict:
                raise CommandRejected("command {seq} ({id}, {type}) no longer applies: {error}", seq=recorded.seq,
                                      id=recorded.id, type=recorded.type,
                                      error=error if isinstance(error, CommandRejected) else error.english()) from None
            reason = error.message if isinstance(error, CommandRejected) else error.english()
            outcome.skipped.append(Skipped(recorded.seq, recorded.id, recorded.type, reason, error.field))
            continue
        finally:
            supply.pop(current.id, None)
        if result.status == "applied":
            outcome.applied += 1
    return outcome


def _parsed(recorded: dict[str, Any], service: Rollbook) -> Command:
    if recorded["type"] == "create_campaign":
        return parse_recorded(recorded, ruleset=str(recorded.get("ruleset")))
    ruleset = service.ruleset_of(str(recorded["campaign"]))
    if ruleset is None:
        raise CommandRejected("no campaign {campaign!r}", field="campaign", campaign=recorded["campaign"])
    return parse_recorded(recorded, ruleset=ruleset)


def _copy_history(recorded: RecordedCommand, source: Store | None, service: Rollbook, key: str) -> None:
    """Given history (a test's `given` of events) was never decided: copy its events as they are."""
    from uuid import UUID

    if source is None or recorded.command.get("campaign") != key:
        raise CommandRejected(
            "command {id} appended given history (a test's `given`); it can be copied "
            "into a replay of the same campaign, but not re-executed into another revision", id=recorded.id
        )
    from ..domain.ids import campaign_id
    from ..store.reads import stored_events

    stored = []
    for originator, version, _ in recorded.writes:
        stored += stored_events(source, UUID(originator), gt=version - 1, lte=version)
    campaign = campaign_id(key)
    before = service.load(campaign).version
    written = sum(1 for s in stored if s.originator_id == campaign)
    stored += stored_events(source, campaign, gt=before + written, lte=before + written + 1)
    service.unit.adopt(stored)
