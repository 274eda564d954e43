"""Disputing a roll: what the history would have been, and making that history current.

An auditor (or the GM) rules on one roll: roll it again (`reroll`, fresh faces from a
seed published with the ruling), give it the faces the auditor rules (`faces`), or strike
the command that made it (`drop`). The corrected history is the campaign's recorded
commands re-executed in order with their recorded dice, except that one roll. Everything
downstream follows; a later command that the corrected history refuses (luck that is no
longer there) is not applied and is listed with the reason.

`--dry-run` computes the corrected history in memory and shows every sheet, limit and
timeline value that changes, before → after. Otherwise it is re-executed into the next
revision (stored under `NAME@rN`), and the first revision records the ruling and adopts
the new revision. Nothing stored is rewritten or deleted: every revision stays readable.
"""

from __future__ import annotations

import itertools
import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from ..commands.base import ACTOR_PATTERN
from ..commands.service import Rollbook
from ..domain.campaign import Campaign
from ..domain.chain import revision_start
from ..domain.revisions import revision_key
from ..domain.ids import campaign_id
from ..domain.errors import CommandRejected, PermissionDenied, UnknownName, Word
from ..domain.table import Table
from ..projections.queries import Reader
from ..store import Store
from ..store.failures import IntegrityError
from .history import RecordedCommand, recorded_commands
from .reexecute import Change, KnownSignatures, Skipped, reexecute
from .revisions import Difference, differences


@dataclass
class Ruling:
    roll: str
    reason: str
    actor: str
    reroll: bool = False
    faces: list[int] | None = None
    drop: bool = False
    #: Further commands the same ruling strikes (a harm that was never dealt, say).
    also_drop: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if sum([self.reroll, self.faces is not None, self.drop]) != 1:
            raise CommandRejected("a dispute takes exactly one of --reroll, --faces or --drop", field="ruling")
        # A player only takes back (drops) his own command, alone: `undo`; `_check` holds him to his own.
        own_undo = self.actor.startswith("player:") and self.drop and not self.also_drop
        if not (self.actor == "gm" or self.actor.startswith("auditor:") or own_undo) or not re.fullmatch(
                ACTOR_PATTERN, self.actor):
            raise PermissionDenied(
                "{actor} cannot dispute a roll: only the GM or an auditor:NAME may "
                "(a name without spaces, colons or control characters); a player may undo his own command",
                actor=self.actor,
            )
        if not self.reason.strip():
            raise CommandRejected("a dispute needs a --reason", field="reason")

    @property
    def command_id(self) -> str:
        return self.roll.split("#", 1)[0]

    def decision(self, dispute: str, seed: str | None) -> dict[str, Any]:
        also = {"also_drop": list(self.also_drop)} if self.also_drop else {}
        if self.drop:
            return {"drop": True, **also}
        if self.faces is not None:
            return {"faces": list(self.faces), **also}
        return {"reroll": True, "seed": seed, **also}


@dataclass
class DisputeResult:
    dispute: str
    roll: str
    revision: int
    differences: list[Difference] = field(default_factory=list)
    not_applied: list[Skipped] = field(default_factory=list)
    applied: bool = False
    #: The ruling had made the current revision already (a retry): nothing was written.
    rerun: bool = False
    #: The disputed roll before the ruling and after it (None: struck), as `ROLL_SHOWN`; None for a command
    #: that rolled nothing, or a retry.
    rolled: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "dispute": self.dispute, "roll": self.roll, "revision": self.revision, "applied": self.applied,
            "rerun": self.rerun,
            "differences": [d.as_dict() for d in self.differences],
            "not_applied": [s.as_dict() for s in self.not_applied],
            "rolled": self.rolled,
        }


#: What a ruling's answer shows of its roll, before and after: a reroll's new faces need not change a value
#: any sheet keeps (the whole roll is in `rollbook rolls`).
ROLL_SHOWN = ("faces", "total", "outcome", "text")


def _roll_of(reader: Reader, key: str, ruling: Ruling) -> dict[str, Any] | None:
    """The disputed roll's document in revision `key` (a command's first roll may be named as the command)."""
    return reader.views.get(key, "roll", ruling.roll) or (
        reader.views.get(key, "roll", ruling.command_id) if ruling.roll.endswith("#1") else None)


def _rolled(before: Reader, before_key: str, after: Reader, after_key: str, ruling: Ruling) -> dict[str, Any] | None:
    old, new = _roll_of(before, before_key, ruling), _roll_of(after, after_key, ruling)
    if old is None:
        return None
    return {"before": {k: old.get(k) for k in ROLL_SHOWN},
            "after": None if new is None else {k: new.get(k) for k in ROLL_SHOWN}}


def dispute(
    store: Store, campaign: str, ruling: Ruling, *, dry_run: bool,
    dispute_id: str | None = None, seed: str | None = None, at: datetime | None = None,
    progress: Callable[[int, int], None] | None = None, signatures: list[dict[str, Any]] | None = None,
    name_replaced: bool = True,
) -> DisputeResult:
    """Rule on a roll. `dispute_id`, `seed`, `at` and `signatures` (the checkpoints the revision signed,
    as its export carries them) are given only when an import repeats a ruling; so is `name_replaced` False,
    for a ruling recorded before rulings named the revision they replace (its revision chains from zeros);
    `progress` is told how many of the revision's commands are re-executed so far, and of how many.

    The corrected revision and the ruling are one unit of work: re-executed into a batch
    and stored in one transaction, or not at all. The revision number comes from the
    campaign aggregate; two disputes at once collide on it, and the loser rules again on
    the revision the winner made (or finds its own ruling already made, and stops there).
    """
    reader = Reader(store)
    reader.catch_up()
    service = Rollbook(store)
    while True:
        root = service.campaign(campaign)
        if root is None:
            raise UnknownName("no campaign {campaign!r} in this store", field="campaign", campaign=campaign)
        made = _made_already(service, root, ruling, dispute_id)
        if made is not None:
            return made
        _check(reader, root.current_key, campaign, ruling, root.options)
        try:
            return _rule(store, reader, service, root, ruling, dry_run=dry_run,
                         dispute_id=dispute_id or f"dispute-{uuid.uuid4().hex[:12]}",
                         seed=seed if seed is not None or not ruling.reroll else secrets.token_bytes(32).hex(), at=at,
                         progress=progress, signatures=signatures, name_replaced=name_replaced)
        except IntegrityError:
            service.unit.forget([campaign_id(campaign)])  # another ruling got there first: rule on top of it
            reader.catch_up()


def _made_already(service: Rollbook, root: Campaign, ruling: Ruling, dispute_id: str | None) -> DisputeResult | None:
    """The ruling that made the current revision, if it is this very ruling: a retry writes nothing.

    The same roll and the same decision (a reroll's fresh seed aside) is the same ruling; an
    import repeats a ruling by its recorded id.
    """
    last = root.last_ruling
    if dispute_id is not None:
        made = service.is_recorded(root.campaign, dispute_id)
    else:
        made = last is not None and (last["roll"], _without_seed(last["decision"])) == (
            ruling.roll, _without_seed(ruling.decision("", None)))
    if not made:
        return None
    return DisputeResult(dispute=dispute_id or last["dispute"], roll=ruling.roll, revision=root.revision,
                         applied=True, rerun=True)


def _without_seed(decision: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in decision.items() if k != "seed"}


def _check(reader: Reader, current_key: str, campaign: str, ruling: Ruling, options: dict[str, Any]) -> None:
    """The roll (and every command struck) exists in the current revision, and the faces fit it; a player
    takes back only his own command, and one that rolled the campaign's dice only where `options` allow it."""
    roll = _roll_of(reader, current_key, ruling)
    command = reader.views.get(current_key, "command", ruling.command_id)
    if roll is None and not (ruling.drop and reader.views.get(current_key, "command", ruling.roll)):
        raise UnknownName("no roll {roll!r} in {campaign} (see `rollbook rolls`)", field="roll", roll=ruling.roll,
                          campaign=campaign)
    if ruling.actor.startswith("player:") and (command is None or command["actor"] != ruling.actor):
        if command is None:
            raise PermissionDenied("{actor} may undo only his own commands; {command} is nobody's", field="roll",
                                   actor=ruling.actor, command=ruling.command_id)
        raise PermissionDenied("{actor} may undo only his own commands; {command} is {owner}'s", field="roll",
                               actor=ruling.actor, command=ruling.command_id, owner=command["actor"])
    if ruling.actor.startswith("player:") and not options.get("players_undo_rolls") and _rolled_campaign_dice(
            reader, current_key, ruling.command_id):
        raise PermissionDenied("{command} rolled the campaign's dice: undone, its post would roll them "
                               "again; only the GM (or an auditor) may take it back here (players_undo_rolls)",
                               field="roll", command=ruling.command_id)
    for command_id in ruling.also_drop:
        if reader.views.get(current_key, "command", command_id) is None:
            raise UnknownName("no command {command!r} in {campaign} to drop", field="and_drop", command=command_id,
                              campaign=campaign)
    if roll is not None and ruling.faces is not None:
        _check_faces(ruling, roll)


def _rolled_campaign_dice(reader: Reader, key: str, command_id: str) -> bool:
    """Whether the command rolled dice it did not type in (its rolls are ID, ID#2, ...)."""
    number = 1
    while (roll := reader.views.get(key, "roll", command_id if number == 1 else f"{command_id}#{number}")) is not None:
        if roll.get("source") != "typed":
            return True
        number += 1
    return False


def _check_faces(ruling: Ruling, roll: dict[str, Any]) -> None:
    """The ruled faces fit the roll's dice as typed faces must: their count, and each in its die's range.

    A roll whose die exploded may be ruled with more or fewer faces, each within the largest of its
    dice here; re-executing it with them holds every face to its very die (`_refused_faces`)."""
    faces, sides = ruling.faces or [], [int(s) for s in roll.get("sides") or []]
    exploded = any(d["faces"][1:] for d in roll["dice"])
    if len(faces) != len(roll["faces"]) and not exploded:
        raise CommandRejected(
            "roll {roll} rolled {rolled} dice; --faces gives {given}", field="faces", roll=ruling.roll,
            rolled=len(roll["faces"]), given=len(ruling.faces or [])
        )
    for place, face in enumerate(faces, 1):
        die = sides[place - 1] if place <= len(sides) and not exploded else max(sides, default=0)
        if sides and not 1 <= face <= die:
            raise CommandRejected("roll {roll} rolled {dice}: face {place} is {face}, impossible on a d{die} (1..{die})",
                                  field="faces", roll=ruling.roll, dice=roll.get("notation") or Word("dice"),
                                  place=place, face=face, die=die)


def _refused_faces(ruling: Ruling, skipped: list[Skipped]) -> None:
    """A ruling whose faces the disputed command cannot take (more or fewer than it now rolls, or a
    face its die cannot show) is refused, as a command given those faces would be: not made, with
    that command left out of the revision."""
    if ruling.faces is None:
        return
    for refused in skipped:
        if refused.command_id == ruling.command_id and refused.field == "dice":
            raise CommandRejected("roll {roll} cannot show the faces {faces}: {reason}", field="faces",
                                  roll=ruling.roll, faces=", ".join(map(str, ruling.faces)), reason=refused.reason)


def change_of(roll: str, decision: dict[str, Any], dispute_id: str) -> Change:
    """What a ruling does to the history it re-executes: the one change both the ruling and `verify`
    (which re-executes every revision from the one before it) apply.

    `decision` is the ruling's as recorded: `drop`, `faces` or `reroll` with its `seed`, and `also_drop`.
    """
    command_id, _, number = roll.partition("#")
    index = int(number) - 1 if number else 0
    struck = set(decision.get("also_drop", ()))

    def change(recorded: RecordedCommand) -> RecordedCommand | None:
        if recorded.id in struck:
            return None
        if recorded.id != command_id:
            return recorded
        if decision.get("drop"):
            return None
        rolls = list(recorded.rolls)
        disputed = {k: v for k, v in rolls[index].items() if k not in ("nonce", "commitment")}
        disputed.update(source="dispute", dispute=dispute_id)
        if "faces" in decision:
            disputed["faces"] = list(decision["faces"])
        else:
            disputed.pop("faces", None)
            disputed["seed"] = decision["seed"]
        rolls[index] = disputed
        return replace(recorded, rolls=rolls)

    return change


def _rule(
    store: Store, reader: Reader, service: Rollbook, root: Campaign, ruling: Ruling, *, dry_run: bool,
    dispute_id: str, seed: str | None, at: datetime | None, progress: Callable[[int, int], None] | None,
    signatures: list[dict[str, Any]] | None = None, name_replaced: bool = True,
) -> DisputeResult:
    campaign, current_key = root.campaign, root.current_key
    signer = KnownSignatures(signatures, campaign, store.keys) if signatures else store.keys
    revision = root.revision + 1
    new_key = revision_key(campaign, revision)

    change = change_of(ruling.roll, ruling.decision(dispute_id, seed), dispute_id)
    replaced = root if current_key == campaign else service.campaign(current_key)
    recorded = {"type": "dispute", "actor": ruling.actor, "roll": ruling.roll, "reason": ruling.reason,
                "decision": ruling.decision(dispute_id, seed), "revision": revision, "dispute": dispute_id}
    if name_replaced and replaced is not None:  # the new revision's log commits to this ruling and the old head
        recorded["replaces"] = {"revision": root.revision, "size": replaced.seq, "head": replaced.chain}
    start = revision_start(recorded) if "replaces" in recorded else None

    history = recorded_commands(store, current_key)
    result = DisputeResult(dispute=dispute_id, roll=ruling.roll, revision=revision)
    current = service.campaign(current_key) if progress is not None else None
    total, started = (current.seq if current is not None else 0), itertools.count(1)
    if progress is not None:
        progress(0, total)

    def on_command(_: RecordedCommand) -> None:
        if progress is not None:
            progress(next(started), total)

    if dry_run:
        scratch = Store.open("memory://")
        outcome = reexecute(history, scratch, key=new_key, keeper=store.seeds, signing_keys=store.keys, change=change,
                            strict=False, on_command=on_command, start=start)
        _refused_faces(ruling, outcome.skipped)
        result.not_applied = outcome.skipped
        corrected = Reader(scratch)
        corrected.catch_up()
        result.differences = differences(reader, current_key, corrected, new_key)
        result.rolled = _rolled(reader, current_key, corrected, new_key, ruling)
        return result

    def adopt(table: Table) -> None:
        ruled = {k: v for k, v in recorded.items() if k != "type"}
        if "replaces" in ruled:
            table.campaign.record_ruling(**ruled)
        else:
            table.campaign.record_dispute(**ruled)
        replaced = table.campaign if current_key == campaign else service.campaign(current_key)
        table.campaign.adopt_revision(revision=revision, key=new_key, dispute=dispute_id,
                                      nonces_spent=nonces_spent_by(service, replaced))

    with service.batch() as batched:
        outcome = reexecute(history, store, key=new_key, keeper=store.seeds, signing_keys=signer, change=change,
                            strict=False, unit=batched.unit, on_command=on_command, start=start)
        _refused_faces(ruling, outcome.skipped)  # before anything of the batch is stored
        batched.append_history(
            campaign, f"dispute of roll {ruling.roll}", adopt, at=at,
            recorded=recorded, command_id=dispute_id,
        )
    result.not_applied = outcome.skipped
    reader.catch_up()
    result.differences = differences(reader, current_key, reader, new_key)
    result.rolled = _rolled(reader, current_key, reader, new_key, ruling)
    result.applied = True
    return result


def nonces_spent_by(service: Rollbook, replaced: Campaign | None) -> int | None:
    """The first nonce neither the revision a ruling replaces nor any before it has rolled at. The new
    revision may lack the rolls at the last nonces (struck, or rolled again from the ruling's seed):
    it goes on beyond them, so no nonce shows its faces twice."""
    return max(service.nonces_spent(replaced), replaced.nonce) if replaced is not None else None
