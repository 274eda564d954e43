"""The campaign's record as a transparency log: checkpoints, proofs and cosignatures, from a store.

What `rollbook checkpoint`, `prove`, `witness` and the server's `/proof` and `/checkpoint`
routes share. The formats are `domain/transparency/`'s; the tree is `store/tlog.py`'s,
caught up with the recorded commands on each use.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..domain.revisions import revision_key
from ..domain.chain import GENESIS_CHAIN, canonical
from ..domain.checkpoint import Checkpoint, TreeHead, log_verifier, sign, sign_tree_head
from ..domain.errors import CommandRejected, UnknownName
from ..domain.ids import campaign_id, command_claim_id
from ..domain.transparency.note import COSIGNATURE_V1, NoteError, Verifier, parse_note
from ..domain.transparency.proof import parse_origin
from ..store import Store
from ..store.port import position_of
from ..store.reads import decoded_state, stored_events, stored_notifications
from ..store.tlog import LogTree, public_host
from ..store.tlog_rows import rows_for
from .history import chain_start

#: How many of the campaign's events are read at a time, walking back from a command to the one before.
BACK = 64


@dataclass
class Log:
    """One revision's log in a store: the campaign, its key, and its tree caught up."""

    store: Store
    campaign: str
    revision: int
    public_key: str
    tree: LogTree
    #: The revision's campaign aggregate, as stored now.
    current: Any

    @property
    def key(self) -> str:
        return revision_key(self.campaign, self.revision)

    @property
    def verifier(self) -> Verifier:
        """The campaign's vkey (revision 1's origin as key name): it vouches for every revision's checkpoints."""
        return log_verifier(self.campaign, self.public_key, public_host())

    @property
    def revision_verifier(self) -> Verifier:
        """This revision's own vkey (its origin as key name), for a verifier that knows the standard alone."""
        return log_verifier(self.campaign, self.public_key, public_host(), self.revision)

    def head(self, size: int | None = None, *, signed: bool = True) -> TreeHead:
        """The checkpoint at `size` (now, by default), signed by the campaign's key, with every
        cosignature the store holds for it."""
        size = self.current.seq if size is None else size
        root = self.tree.root(size).hex()
        head = sign_tree_head(self.store.keys, self.public_key, self.campaign, self.revision, size, root, public_host())
        if head is None:
            raise CommandRejected("the signing key of {campaign} is not kept beside this store (a copy?)",
                                  field="campaign", campaign=self.campaign)
        lines = rows_for(self.store).cosignatures(head.origin, size, root)
        return head.with_signatures(parse_note(head.body() + "\n" + "".join(lines)).signatures) if lines else head


def open_log(store: Store, campaign: str, revision: int | None = None) -> Log:
    """The campaign's log in `store` (its current revision, or `revision`), its tree caught up."""
    root = _latest(store, campaign)
    if root is None:
        raise UnknownName("no campaign {campaign!r} in this store", field="campaign", campaign=campaign)
    if root.public_key is None:
        raise CommandRejected("{campaign} was created before checkpoints and has no signing key", field="campaign",
                              campaign=campaign)
    revision = root.revision if revision is None else revision
    if not 1 <= revision <= root.revision:
        raise UnknownName("{campaign} has revisions 1..{last}, not {revision}", field="revision", campaign=campaign,
                          last=root.revision, revision=revision)
    key = revision_key(campaign, revision)
    current = root if key == campaign else _latest(store, key)
    tree = LogTree.caught_up(store, key)
    kept = current.tree_root() if current is not None else None
    if current is None or current.seq > tree.size or kept not in (None, tree.root(current.seq).hex()):
        raise CommandRejected("the Merkle tree of {key} is not the one its campaign keeps: its state and its "
                              "record disagree (`rollbook verify` says where)", field="campaign", key=key)
    return Log(store, campaign, revision, root.public_key, tree, current)


def _latest(store: Store, key: str) -> Any:
    """The campaign at its latest stored version, past this process's cache (another process may have
    moved it on); None if there is none."""
    last = stored_events(store, campaign_id(key), desc=True, limit=1)
    return store.get(campaign_id(key), last[0].originator_version) if last else None


def checkpoint_now(store: Store, campaign: str) -> dict[str, Any]:
    """`rollbook checkpoint --json`: the old form's fields (the chain head, signed now) and the C2SP
    checkpoint of the tree (`origin`, `size`, `root`, `note`), with the campaign's `vkey` and `public_key`."""
    log = open_log(store, campaign)
    current = log.current
    old = sign(store.keys, log.public_key, campaign, log.revision, current.seq, current.chain,
               datetime.now(UTC).isoformat(timespec="seconds"))
    assert old is not None, "the key signed the tree head"
    return {**old.as_dict(), **log.head().as_dict(), "vkey": log.verifier.vkey, "public_key": log.public_key}


# --- proofs -----------------------------------------------------------------------------------


def _hexes(hashes: Sequence[bytes]) -> list[str]:
    return [h.hex() for h in hashes]


def _command_of(store: Store, key: str, roll: str) -> tuple[str, int]:
    """The command that made `roll` (or the command of that id) and its CommandApplied's campaign version."""
    candidates = [roll] + ([roll.rsplit("#", 1)[0]] if "#" in roll else [])
    for command in candidates:
        position = position_of(store, command_claim_id(key, command), 1)
        if position is None:
            continue
        start: int | None = position
        while start is not None:
            page = stored_notifications(store, start, 100)
            for notification in page:
                if (notification.originator_id == campaign_id(key)
                        and notification.topic.rsplit(".", 1)[-1] == "CommandApplied"):
                    return command, notification.originator_version
            start = page[-1].id + 1 if page else None
    raise UnknownName("no roll or command {roll!r} in {key} (`rollbook rolls` lists the rolls)", field="roll",
                      roll=roll, key=key)


def _decoded(store: Store, stored: Any) -> dict[str, Any]:
    return decoded_state(store, stored.state)


def _record(store: Store, key: str, version: int) -> tuple[dict[str, Any], list[Any]]:
    """The CommandApplied at campaign `version`, the chain hash of the command before it, and the
    campaign events the command wrote (walked back to the command before)."""
    originator = campaign_id(key)
    applied = stored_events(store, originator, gt=version - 1, lte=version)[0]
    fields = _decoded(store, applied)
    written, below = [], version
    while below > 1:
        page = stored_events(store, originator, lte=below - 1, desc=True, limit=BACK)
        if not page:
            break
        for stored in page:
            if stored.topic.rsplit(".", 1)[-1] == "CommandApplied":
                return {**fields, "previous_chain": _decoded(store, stored)["chain"]}, written
            written.append(stored)
        below = page[-1].originator_version
    # The revision's first command: chained to the ruling that made the revision, or to zeros.
    return {**fields, "previous_chain": chain_start(store, key) or GENESIS_CHAIN}, written


def inclusion_proof(store: Store, campaign: str, roll: str, *, size: int | None = None, revision: int | None = None,
                    checkpoint: TreeHead | None = None) -> dict[str, Any]:
    """The proof that the command which made `roll` is in the log at `size` (or the checkpoint's size)."""
    revision = checkpoint.revision if checkpoint is not None and revision is None else revision
    log = open_log(store, campaign, revision)
    if checkpoint is not None:
        size = checkpoint.size
    size = log.tree.size if size is None else size
    command, version = _command_of(store, log.key, roll)
    record, written = _record(store, log.key, version)
    seq = int(record["seq"])
    if seq > size:
        raise CommandRejected("{roll} was recorded as command {seq}, after the checkpoint of {size} commands: ask "
                              "for a later one", field="size", roll=roll, seq=seq, size=size)
    head = log.head(size)
    if checkpoint is not None and checkpoint.root != head.root:
        raise CommandRejected("the checkpoint given says root {given}… at {size} commands, this store's log has "
                              "{ours}…: two different histories", field="checkpoint", given=checkpoint.root[:16],
                              size=size, ours=head.root[:16])
    rolled = [s for s in written if s.topic.rsplit(".", 1)[-1] == "DiceRolled"
              and _decoded(store, s)["roll"].get("id") == roll]
    if roll != command and not rolled:
        raise UnknownName("command {command} made no roll {roll!r}", field="roll", command=command, roll=roll)
    document: dict[str, Any] = {
        "type": "inclusion", "campaign": campaign, "revision": log.revision, "origin": head.origin,
        "roll": roll if rolled else None, "command": command,
        "leaf_index": seq - 1, "tree_size": size, "leaf_hash": log.tree.subtree(0, seq - 1).hex(),
        "path": _hexes(log.tree.inclusion(seq - 1, size)), "root": head.root,
        "record": {"seq": seq, "chain": record["chain"], "previous_chain": record["previous_chain"],
                   "command": canonical(record["command"]).decode(), "writes": canonical(record["writes"]).decode()},
        "checkpoint": str(checkpoint.with_signatures(head.signatures).note if checkpoint is not None else head.note),
    }
    if rolled:
        document["roll_event"] = {"topic": rolled[0].topic, "state": base64.b64encode(rolled[0].state).decode()}
    return document


def consistency_proof(store: Store, campaign: str, old: TreeHead | int, new: TreeHead | int | None = None, *,
                      revision: int | None = None) -> dict[str, Any]:
    """The proof that the log at the later checkpoint (or size; now, by default) extends the earlier."""
    revisions = {c.revision for c in (old, new) if isinstance(c, TreeHead)}
    if len(revisions) > 1:
        raise CommandRejected("the checkpoints are of revisions {revisions}: each revision is a log of its own",
                              field="checkpoint", revisions=sorted(revisions))
    revision = next(iter(revisions), revision)
    log = open_log(store, campaign, revision)
    sizes = [c.size if isinstance(c, TreeHead) else (log.tree.size if c is None else c) for c in (old, new)]
    if sizes[0] > log.tree.size:
        raise CommandRejected("the checkpoint is of {size} commands, the log holds {held} now: its history was cut "
                              "since", field="checkpoint", size=sizes[0], held=log.tree.size)
    if sizes[0] > sizes[1]:
        raise CommandRejected("the first checkpoint ({size} commands) is the later one: give the earlier first",
                              field="checkpoint", size=sizes[0])
    heads = [log.head(size) for size in sizes]
    for given, head in zip((old, new), heads, strict=True):
        if isinstance(given, TreeHead) and given.root != head.root:
            raise CommandRejected("the checkpoint at {size} commands says root {given}…, this store's log has "
                                  "{ours}…: not this history (a fork, or the store was rewritten)",
                                  field="checkpoint", size=given.size, given=given.root[:16], ours=head.root[:16])
    return {
        "type": "consistency", "campaign": campaign, "revision": log.revision, "origin": heads[0].origin,
        "old_size": sizes[0], "new_size": sizes[1], "old_root": heads[0].root, "new_root": heads[1].root,
        "path": _hexes(log.tree.consistency(*sizes)),
        "old_checkpoint": str(heads[0].note), "new_checkpoint": str(heads[1].note),
    }


# --- cosignatures -----------------------------------------------------------------------------


class Refused(Exception):
    """A cosignature the log does not take: the HTTP status of tlog-witness's table, and why."""

    def __init__(self, status: int, reason: str, body: str | None = None) -> None:
        super().__init__(reason)
        self.status, self.reason, self.body = status, reason, body


def accept_cosignature(store: Store, campaign: str, submission: str) -> TreeHead:
    """Keep a witness's cosignature of one of the campaign's checkpoints; the checkpoint with every
    cosignature kept for it. The submission is `witness VKEY`, a blank line, and the checkpoint as the
    witness co-signed it (its cosignature lines among its signatures).

    Refused (as tlog-witness's add-checkpoint refuses, seen from the log): 400 malformed; 404 not a
    log of this campaign; 403 not signed by the campaign's key, or not co-signed by the vkey named;
    422 larger than the log; 409 not the log's history at that size (the body: the log's own).
    """
    first, _, rest = submission.partition("\n\n")
    if not first.startswith("witness "):
        raise Refused(400, "the body begins with 'witness VKEY', then a blank line and the co-signed checkpoint")
    try:
        witness = Verifier.parse(first[len("witness "):])
        note = parse_note(rest)
        given = TreeHead.from_note(note)
    except NoteError as error:
        raise Refused(400, str(error)) from None
    if witness.kind != COSIGNATURE_V1:
        raise Refused(403, f"{witness.name}'s vkey is not a cosignature key (type 0x04)")
    parsed = parse_origin(note.text.split("\n", 1)[0])
    if given.campaign != campaign or parsed is None or parsed[0] != public_host():
        raise Refused(404, f"{note.text.split(chr(10), 1)[0]!r} is not a log of {campaign} here")
    try:
        log = open_log(store, campaign, given.revision)
    except UnknownName as error:
        raise Refused(404, error.message) from None
    if not given.signed_by(log.public_key):
        raise Refused(403, "the checkpoint is not signed by the campaign's key")
    try:
        cosigned = [s for v, s in note.verified([witness])]
    except NoteError as error:
        raise Refused(403, str(error)) from None
    if not cosigned:
        raise Refused(403, f"the checkpoint carries no cosignature by {witness.vkey}")
    if given.size > log.tree.size:
        raise Refused(422, f"the checkpoint is of {given.size} commands, the log holds {log.tree.size}")
    ours = log.head(given.size)
    if ours.root != given.root:
        raise Refused(409, f"at {given.size} commands this log's root is {ours.root[:16]}…, not {given.root[:16]}…",
                      str(ours.note))
    rows = rows_for(store)
    for signature in cosigned:
        rows.put_cosignature(given.origin, given.size, given.root, witness.vkey, signature.line,
                             int(signature.timestamp or 0))
    return log.head(given.size)


def published(store: Store, campaign: str, *, revision: int | None = None, size: int | None = None,
              cosigned: bool = False) -> TreeHead:
    """The checkpoint at `size` (now; or, `cosigned`, the latest any witness co-signed) with every
    cosignature the store holds for it."""
    log = open_log(store, campaign, revision)
    if cosigned:
        origin = log.head(0).origin
        sizes = [s for s, root in rows_for(store).cosigned(origin) if s <= log.tree.size
                 and log.tree.root(s).hex() == root]
        if not sizes:
            raise UnknownName("no witness has co-signed a checkpoint of {key} yet", field="witness", key=log.key)
        size = sizes[-1]
    return log.head(size)


def witness_problems(checkpoints: Sequence[Checkpoint | TreeHead], witnesses: Sequence[str]) -> list[str]:
    """`verify --witness VKEY`: each witness named must have co-signed one of the checkpoints given."""
    problems = []
    for vkey in witnesses:
        try:
            witness = Verifier.parse(vkey)
        except NoteError as error:
            raise CommandRejected("--witness: {error}", field="witness", error=error) from None
        signed = []
        for checkpoint in checkpoints:
            if isinstance(checkpoint, TreeHead):
                try:
                    signed += checkpoint.note.verified([witness])
                except NoteError as error:
                    problems.append(f"checkpoint of {checkpoint.origin} at {checkpoint.size}: {error}")
        if not signed:
            problems.append(f"no checkpoint given is co-signed by the witness {witness.name} ({witness.vkey})")
    return problems

