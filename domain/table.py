"""The table a command is decided at: the campaign, the members it touches, and the dice.

Rulesets decide with a `Table` and nothing else. It loads members through a function the
service layer gives it (the domain does no I/O itself), keeps every aggregate it touched
so the service can save them in one transaction, and records every roll on the campaign
with its faces, so nothing is ever rolled again on replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol, TypeVar

from eventsourcing.domain import Aggregate, datetime_now_with_tzinfo

from .aggregate import command_time
from .campaign import Campaign
from .revisions import revision_of
from .checkpoint import Checkpoint, Signer, TreeHead, sign_tree_head
from .campaign_revisions import salt_used
from .dice import SALTED, FaceSource, HmacFaces, Roll, TypedFaces
from .errors import CommandRejected, DiceError, PermissionDenied, Word
from .members import Member, Scene

M = TypeVar("M", bound=Member)


class DiceSupply(Protocol):
    """Where a command's faces come from."""

    def source_for(self, campaign: Campaign) -> tuple[FaceSource, dict[str, Any]]:
        """A face source for the next roll, and its provenance (recorded with the roll)."""
        ...

    def finish(self) -> None:
        """Called when the command has decided: refuse faces that were not used."""
        ...


class TypedSupply:
    """Faces typed into the command (`dice`), consumed across its rolls in order."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = TypedFaces(faces, count_missing=True)

    def source_for(self, campaign: Campaign) -> tuple[FaceSource, dict[str, Any]]:
        return self.faces, {"source": "typed"}

    def finish(self) -> None:
        self.faces.check_all_used()

    @property
    def short(self) -> bool:
        """More faces were rolled than given: whatever the rules said of the stand-in faces does not count."""
        return self.faces.short


class SeedSupply:
    """The campaign's committed seed: each roll takes the next nonce.

    A command may throw several rolls before it records any (an attack and its defence are
    judged together), so the nonce is the campaign's next one or, if this command has already
    drawn beyond it, the one after its last draw: two rolls never share a nonce. A revision made
    by a ruling starts beyond every nonce an earlier revision rolled at (`skip_to`): a struck
    roll's nonce is never rolled at again.

    A command's `salt` (the player's, unknown when the seed was committed) fixes its rolls'
    faces with the seed and each roll's place in the command alone (`SALTED`): the nonce is
    still recorded, to keep the rolls in order, but moves nothing. A salt is used once per seed,
    in any revision (`revisions` finds them): used again, it would show the faces it showed.
    An unsalted roll's faces come from its nonce, as they always did.
    `salt_required`: a player's roll must be salted (`ROLLBOOK_REQUIRE_SALT`); a campaign's
    `require_salt` option asks the same in it. `commitment`: the seed the poster chose his salt under; another
    one current refuses the command, so a seed rotated once the salt was seen can only veto the roll, never move it.
    """

    def __init__(
        self, seed_for: Callable[[str, str], bytes], *, salt: str | None = None,
        player: bool = False, salt_required: bool = False, commitment: str | None = None,
    ) -> None:
        self.seed_for = seed_for
        self.commitment = commitment
        self.next_nonce = 0
        self.salt = salt
        self.player = player
        self.salt_required = salt_required
        self.drawn = 0
        #: Finds a revision of the campaign by its key: where a struck roll's salt is found used.
        self.revisions: Callable[[str], Campaign | None] = lambda _: None

    def skip_to(self, nonce: int) -> None:
        """Nonces below `nonce` were rolled at in an earlier revision of the campaign."""
        self.next_nonce = max(self.next_nonce, nonce)

    def source_for(self, campaign: Campaign) -> tuple[FaceSource, dict[str, Any]]:
        if campaign.commitment is None:
            raise DiceError("the campaign has no committed seed to roll from")
        if self.salt is None and self.player and (self.salt_required or campaign.options.get("require_salt")):
            raise CommandRejected("a player's roll from the campaign's dice needs a salt here (require_salt): give "
                                  "`salt`, say the post's number and a few random words", field="salt")
        if self.commitment is not None and self.commitment != campaign.commitment:
            by = f"by command {campaign.seeded_by} " if campaign.seeded_by else ""
            raise CommandRejected(
                "the seed changed {by}since this was salted under {commitment}…: look again and post again with a "
                "new salt",
                field="commitment", by=by, commitment=self.commitment[:16],
            )
        if self.salt is not None and not self.drawn:
            used = salt_used(campaign, self.revisions, self.salt)
            if used is not None:
                raise CommandRejected(
                    "the salt {salt!r} was used under this seed by command {used}: a salt is used once (it would "
                    "show the same faces); choose a new one",
                    field="salt", salt=self.salt, used=used,
                )
        # Seeds and faces belong to the campaign as players know it, whatever its revision.
        seed = self.seed_for(campaign.root, campaign.commitment)
        nonce = max(campaign.nonce, self.next_nonce)
        self.next_nonce = nonce + 1
        self.drawn += 1
        provenance: dict[str, Any] = {"source": "hmac", "nonce": nonce, "commitment": campaign.commitment}
        if self.salt is None:
            return HmacFaces(seed, campaign.root, nonce), provenance
        provenance.update(salt=self.salt, derivation=SALTED, place=self.drawn)
        return HmacFaces(seed, campaign.root, nonce, self.salt, place=self.drawn), provenance

    def finish(self) -> None:
        """Seeded dice are drawn as needed: nothing can be left over."""


class Unthrown:
    """Asking the odds: the rules say what they would roll (`Table.foresee`); no die is thrown.

    A ruleset that throws a die without saying first what it rolls has no odds to give yet.
    """

    def source_for(self, campaign: Campaign) -> tuple[FaceSource, dict[str, Any]]:
        return self, {}

    def face(self, sides: int) -> int:
        raise CommandRejected(
            "Rollbook cannot give the odds of this roll: its rules throw a die unforeseen",
            field="type",
        )

    def finish(self) -> None:
        """Nothing was thrown."""


class Seeds(Protocol):
    """The keeper of the campaign's secret seeds (only commitments go into events)."""

    def new_seed(self, campaign: str) -> str: ...

    def seed(self, campaign: str, commitment: str) -> bytes: ...


class Draw:
    """The dice of one roll being thrown: a face source that remembers what it gave."""

    def __init__(self, roll_id: str, source: FaceSource, provenance: dict[str, Any]) -> None:
        self.roll_id = roll_id
        self.source = source
        self.provenance = provenance
        self.sides: list[int] = []
        self.faces: list[int] = []

    def face(self, sides: int) -> int:
        value = self.source.face(sides)
        self.sides.append(sides)
        self.faces.append(value)
        return value


class Foreseen(Exception):
    """Raised by a foreseeing table at the point where the rules would throw the dice.

    It carries what would be rolled (dice, modifiers, what judges the result), so the odds
    of a command are computed from the very description the rules roll from.
    """

    def __init__(self, plan: Any) -> None:
        super().__init__(type(plan).__name__)
        self.plan = plan


class Table:
    def __init__(
        self,
        campaign: Campaign,
        *,
        command_id: str,
        actor: str,
        dice: DiceSupply,
        seeds: Seeds,
        load: Callable[[Any], Aggregate | None],
        touched: dict[Any, Aggregate] | None = None,
        foresight: bool = False,
        signer: Signer | None = None,
    ) -> None:
        self.campaign = campaign
        #: Asking the odds (`rollbook odds`): decide up to the dice, then stop with what would be rolled.
        self.foresight = foresight
        self.signer = signer
        self.command_id = command_id
        self.actor = actor
        self.dice = dice
        self.seeds = seeds
        self._load = load
        self.touched = touched if touched is not None else {}
        self.touched[campaign.id] = campaign
        self.rolls: list[str] = []
        #: The checkpoint this command signed, if it ended a chapter, issue or story.
        self.signed: Checkpoint | None = None
        #: The same, as a C2SP checkpoint of the campaign's Merkle tree (what is pasted into the thread).
        self.signed_tree: TreeHead | None = None

    # --- members ----------------------------------------------------------------------

    def get(self, cls: type[M], name: str, *, field: str = "character") -> M:
        """A member by name, refusing unknown names with the field that named them."""
        member_id = cls.id_for(self.campaign.campaign, name)
        found = self.touched.get(member_id)
        if found is None:
            # The id names the kind too, so a member already at the table needs no second check.
            self.campaign.member(name, cls.kind, field=field)
            found = self._load(member_id)
            if not isinstance(found, cls):
                raise TypeError(f"{name!r} is stored as {type(found).__name__}, not {cls.__name__}")
            self.touched[member_id] = found
        return found  # type: ignore[return-value]

    def all(self, cls: type[M]) -> list[M]:
        """Every member of `cls` ever created: a rule that needs fewer asks `stirred` or `named`."""
        return [self.get(cls, name) for name in self.campaign.members(cls.kind)]

    def stirred(self, cls: type[M], key: str) -> list[M]:
        """The members of `cls` the boundary rule under `key` must visit (`Campaign.roster_visits`):
        those written since it last ran, in roster order, as `all` would visit them."""
        return [self.get(cls, name) for name in self.campaign.stirred_members(key, cls.kind)]

    def named(self, cls: type[M], names: list[str]) -> list[M]:
        """The members of `cls` among `names` (from the campaign's roster index), in their order."""
        return [self.get(cls, name) for name in names if self.campaign.roster[name]["kind"] == cls.kind]

    def add(self, aggregate: Aggregate) -> None:
        self.touched[aggregate.id] = aggregate

    def scene(self) -> Scene | None:
        from .timeline import Scope

        if not self.campaign.is_open(Scope.SCENE):
            return None
        scene_id = Scene.create_id(self.campaign.campaign, self.campaign.number(Scope.SCENE))
        if scene_id not in self.touched:
            loaded = self._load(scene_id)
            if loaded is None:
                return None
            self.touched[scene_id] = loaded
        return self.touched[scene_id]  # type: ignore[return-value]

    def acting_for(self, name: str, *, field: str = "actor") -> None:
        """Refuse a player who acts for a character he does not own (another player's, or the GM's).

        The one rule of ownership: the command layer calls it for every field a command model
        declares the actor's own (commands/ownership.py), before the rules decide; the rules call
        it only for a name no field gives, which they find (the attacker of a roll named by its
        id, the side a negotiation's tie makes roll). A name not on the roster is left to the
        rules that look it up, which say it is unknown.
        """
        if not self.actor.startswith("player:") or name not in self.campaign.roster:
            return
        owner = self.campaign.roster[name].get("player")
        if owner != self.actor.split(":", 1)[1]:
            raise PermissionDenied(
                "{actor} cannot act for {name!r}, who belongs to {owner}",
                field=field, actor=self.actor, name=name, owner="player:" + owner if owner else Word("the GM"),
            )

    # --- checkpoints ------------------------------------------------------------------

    def record_signing_key(self) -> None:
        """Record the public key the campaign's checkpoints will be signed with (at its creation)."""
        if self.signer is not None:
            self.campaign.record_signing_key(self.signer.public_key(self.campaign.root))

    def sign_checkpoint(self) -> None:
        """Sign the tree head of the commands recorded so far (kept in `signed_tree`, printed, never recorded: the
        same body signs to the same bytes whenever it is asked for again).

        The old form (`Checkpoint`) is recorded into the campaign only where the history re-made here recorded it
        (its signer has that very signature): records written before the C2SP form replay byte for byte, and a
        new chapter's end records nothing of it.
        """
        campaign = self.campaign
        if self.signer is None or campaign.public_key is None:
            return  # created before checkpoints existed: nothing to sign with
        at = command_time.get() or datetime_now_with_tzinfo()
        revision = revision_of(campaign.campaign)
        old = Checkpoint(campaign.root, revision, campaign.seq, campaign.chain, at.isoformat(), signature="")
        recorded = getattr(self.signer, "recorded_signature", None)
        signature = recorded(old.body().encode()) if recorded is not None else None
        if signature is not None:
            self.signed = replace(old, signature=signature)
            campaign.record_checkpoint(**{k: v for k, v in self.signed.as_dict().items() if k != "campaign"})
        root = campaign.tree_root()
        if root is not None:
            self.signed_tree = sign_tree_head(self.signer, campaign.public_key, campaign.root, revision, campaign.seq,
                                              root, getattr(self.signer, "public_host", None))

    # --- dice -------------------------------------------------------------------------

    def foresee(self, plan: Any) -> None:
        """The rules have decided everything about the coming roll but its faces.

        Called by a ruleset right before it throws the dice of a command, with what it will
        roll; when the odds are asked, the decision stops here (nothing is rolled or kept).
        """
        if self.foresight:
            raise Foreseen(plan)

    def draw(self) -> Draw:
        number = len(self.rolls) + 1
        roll_id = self.command_id if number == 1 else f"{self.command_id}#{number}"
        self.rolls.append(roll_id)
        source, provenance = self.dice.source_for(self.campaign)
        return Draw(roll_id, source, provenance)

    def record(
        self,
        draw: Draw,
        roll: Roll,
        *,
        purpose: str,
        character: str | None,
        outcome: str | None,
        **details: Any,
    ) -> str:
        """Record a finished roll on the campaign; returns its id."""
        self.campaign.record_roll(
            {
                "id": draw.roll_id,
                "actor": self.actor,
                "character": character,
                "purpose": purpose,
                "notation": roll.notation,
                "faces": draw.faces,
                "sides": draw.sides,
                "dice": [{"sides": d.sides, "faces": list(d.faces), "kept": d.kept} for d in roll.dice],
                "modifiers": [m.as_dict() for m in roll.modifiers],
                "total": roll.total,
                "outcome": outcome,
                "text": str(roll),
                **draw.provenance,
                **details,
            }
        )
        return draw.roll_id
