"""A witness: a player's own record of the campaign's log, and his cosignature of each checkpoint
that extends it (C2SP tlog-witness, tlog-cosignature).

A witness is a name, an Ed25519 key and a SQLite file of its own, on the player's machine. For
each log (origin) it keeps the latest checkpoint it co-signed. On each `check` it fetches a
source's latest checkpoint, checks the log's signature with the key it pinned when it was
added, asks for a consistency proof from the size it co-signed, and hands all of it to its
`add-checkpoint` (the protocol's checks, status codes included, on its own file). A
checkpoint that extends the last one is co-signed, kept, and sent to the source, which
publishes it. One that does not — a fork, a rewrite, a cut — is refused, and both heads are
kept and printed as evidence: a GM who shows two players two histories is caught by any
witness that sees both.

The state changes in one SQLite transaction (the size checked and the new checkpoint kept
together, as the protocol asks), so a witness killed at any moment has either co-signed and
kept the new checkpoint or not; a cosignature kept but not yet delivered is sent again on
the next run, and so is one delivered that the log no longer publishes (deleted from its store).
"""

from __future__ import annotations

import base64
import re
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..domain.checkpoint import TreeHead
from ..domain.errors import N_, CommandRejected
from ..domain.transparency.merkle import verify_consistency
from ..domain.transparency.note import (
    ED25519, Checkpoint, Note, NoteError, Signature, Verifier, cosign_with, parse_note, parse_signature_line,
)
from ..domain.transparency.proof import name_of_origin, verifiers_for
from .log_sources import Refusal, Source, source_for
from .witness_file import Witness, open_witness

#: The most consistency-proof lines add-checkpoint takes (tlog-witness).
MAX_PROOF = 63
OLD_SIZE = re.compile(r"old (0|[1-9][0-9]{0,19})")


def add(path: Path, source: str, campaign: str, name: str, *, token: str | None = None,
        log_vkey: str | None = None) -> tuple[Witness, str]:
    """Set up (or extend) a witness: it watches `campaign` at `source`, trusting the log key given or
    the one the source names now (kept: a later source with another key is refused). Its vkey."""
    witness = open_witness(path, name)
    found = source_for(source, token)
    vkey = log_vkey or found.vkey(campaign)
    _log_verifier(vkey)
    with witness.transaction() as db:
        pinned = {row[0] for row in db.execute("SELECT log_vkey FROM sources WHERE campaign = ?", (campaign,))}
        if pinned and vkey not in pinned:
            raise CommandRejected("{campaign} is watched with the log key {pinned}; {source} names {vkey}: another key "
                                  "for the same campaign is itself a fork", field="log_vkey", campaign=campaign,
                                  pinned=sorted(pinned)[0], source=source, vkey=vkey)
        db.execute("INSERT INTO sources (campaign, source, token, log_vkey) VALUES (?, ?, ?, ?) ON CONFLICT "
                   "(campaign, source) DO UPDATE SET token = excluded.token", (campaign, source, token, vkey))
    return witness, vkey


def add_log(path: Path, origin: str, log_vkey: str, name: str) -> Witness:
    """Set up (or extend) a witness for a log that sends it its checkpoints (`witness serve`'s add-checkpoint):
    named by its origin and trusted by its vkey, whose key name is the origin's (a Rollbook log's: the campaign's)."""
    verifier = _log_verifier(log_vkey)
    expected = name_of_origin(origin) or origin
    if verifier.name != expected:
        raise CommandRejected("the log's vkey is of the key {name!r}; a checkpoint of {origin!r} is signed by the "
                              "key named {expected!r}", field="log_vkey", name=verifier.name, origin=origin,
                              expected=expected)
    witness = open_witness(path, name)
    with witness.transaction() as db:
        kept = db.execute("SELECT log_vkey FROM logs WHERE origin = ?", (origin,)).fetchone()
        if kept is not None and kept[0] != log_vkey:
            raise CommandRejected("{origin} is witnessed with the log key {kept}: another key for the same log is "
                                  "itself a fork", field="log_vkey", origin=origin, kept=kept[0])
        db.execute("INSERT OR IGNORE INTO logs (origin, log_vkey) VALUES (?, ?)", (origin, log_vkey))
    return witness


def known_logs(witness: Witness) -> list[Verifier]:
    """The keys of every log the witness co-signs: those it fetches from a source and those added by origin."""
    with closing(sqlite3.connect(witness.path, timeout=30)) as connection:
        vkeys = {row[0] for row in connection.execute("SELECT log_vkey FROM sources UNION SELECT log_vkey FROM logs")}
    return [Verifier.parse(vkey) for vkey in sorted(vkeys)]


def _log_verifier(vkey: str) -> Verifier:
    try:
        verifier = Verifier.parse(vkey)
    except NoteError as error:
        raise CommandRejected("the log's vkey: {error}", field="log_vkey", error=error) from None
    if verifier.kind != ED25519:
        raise CommandRejected("the log's vkey is not an Ed25519 signing key (type 0x01)", field="log_vkey")
    return verifier


# --- add-checkpoint (tlog-witness), on the witness's own file ---------------------------------


def add_checkpoint(witness: Witness, request: str, logs: list[Verifier], *, source: str,
                   now: Callable[[], float] = time.time) -> Signature:
    """The protocol's add-checkpoint: `old SIZE`, consistency proof lines, a blank line, the checkpoint.

    Refusal 400 malformed (or an old size above the checkpoint's); 404 an origin with no log key
    known; 403 not signed by it; 409 the old size is not the one co-signed last (the body: that size),
    or the same size with another root; 422 the proof does not verify. A refusal that shows the log
    misbehaving (409 on the root, 422) is kept as evidence with both heads.
    """
    head, _, rest = request.partition("\n\n")
    lines = head.split("\n")
    try:
        if not OLD_SIZE.fullmatch(lines[0]) or len(lines) - 1 > MAX_PROOF:
            raise NoteError("the request begins with 'old SIZE' (a decimal with no leading zeroes) and at most 63 "
                            "proof lines")
        old = int(lines[0][4:])
        proof = [base64.b64decode(line, validate=True) for line in lines[1:]]
        note = parse_note(rest)
        checkpoint = Checkpoint.parse(note.text)
    except (NoteError, ValueError) as error:
        raise Refusal(400, str(error)) from None
    known = verifiers_for(checkpoint.origin, logs)
    if not known:
        raise Refusal(404, CommandRejected(N_("no log key is known for {origin}"), origin=checkpoint.origin))
    try:
        signed = note.verified(known)
    except NoteError as error:
        raise Refusal(403, str(error)) from None
    if not signed:
        raise Refusal(403, CommandRejected(N_("{origin}'s checkpoint is not signed by {vkey}"), origin=checkpoint.origin,
                                           vkey=known[-1].vkey))
    if old > checkpoint.size:
        raise Refusal(400, CommandRejected(N_("old size {old} is above the checkpoint's {size}"), old=old,
                                           size=checkpoint.size))
    try:
        with witness.transaction() as db:
            row = db.execute("SELECT size, root, note FROM latest WHERE origin = ?", (checkpoint.origin,)).fetchone()
            size, root, kept = (row["size"], bytes.fromhex(row["root"]), row["note"]) if row else (0, b"", "")
            if old != size:
                raise Refusal(409, CommandRejected(N_("the last checkpoint co-signed for {origin} is of {size}"),
                                                   origin=checkpoint.origin, size=size), f"{size}\n")
            if old and old == checkpoint.size and root != checkpoint.root:
                raise Refusal(409, CommandRejected(N_("{origin} at {old}: the root co-signed is {root}…, this one is "
                                                      "{offered}…"), origin=checkpoint.origin, old=old,
                                                   root=root.hex()[:16], offered=checkpoint.root.hex()[:16]),
                              f"{size}\n", evidence=(N_("the same size, another root"), kept, str(note)))
            if (old == 0 and proof) or (old and old < checkpoint.size
                                        and not verify_consistency(old, checkpoint.size, root, checkpoint.root, proof)):
                raise Refusal(422, CommandRejected(N_("{origin} at {size} does not extend the checkpoint co-signed at "
                                                      "{old}: the history was rewritten or forked"),
                                                   origin=checkpoint.origin, size=checkpoint.size, old=old),
                              evidence=(N_("no consistency with the checkpoint co-signed"), kept, str(note)))
            at = int(now())
            cosignature = cosign_with(witness.key, witness.name, note.text, at)
            logged = Note(note.text, tuple(s for _, s in signed))
            db.execute("INSERT INTO latest (origin, size, root, note, cosignature, source, at, delivered) VALUES "
                       "(?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT (origin) DO UPDATE SET size = excluded.size, root = "
                       "excluded.root, note = excluded.note, cosignature = excluded.cosignature, "
                       "source = excluded.source, at = excluded.at, delivered = 0",
                       (checkpoint.origin, checkpoint.size, checkpoint.root.hex(), str(logged), cosignature.line,
                        source, at))
    except Refusal as refusal:
        if refusal.evidence is not None and old:  # kept after the rollback, in a transaction of its own
            keep_evidence(witness, checkpoint.origin, source, *refusal.evidence, now=now)
        raise
    return cosignature


def keep_evidence(witness: Witness, origin: str, source: str, reason: str, cosigned: str, offered: str, *,
                  now: Callable[[], float] = time.time) -> None:
    """Keep a fork's two heads: the checkpoint co-signed last and the one offered that does not extend it."""
    with witness.transaction() as db:
        db.execute("INSERT INTO evidence (origin, found_at, source, reason, cosigned, offered) VALUES "
                   "(?, ?, ?, ?, ?, ?)", (origin, int(now()), source, reason, cosigned, offered))


# --- a check ----------------------------------------------------------------------------------


@dataclass
class Outcome:
    """What one check of one log at one source came to."""

    campaign: str
    source: str
    origin: str | None = None
    size: int | None = None
    status: str = "cosigned"  # cosigned, unchanged, fork, failed
    reason: str = ""
    #: The reason's template and values where the witness said it itself (not a source's words): the CLI says it
    #: in the reader's language; `reason`, the English, is the --json's.
    said: CommandRejected | None = None
    #: For a fork: the checkpoint co-signed last and the one offered now, both as signed notes.
    evidence: list[str] = field(default_factory=list)
    delivered: bool = False

    def tell(self, template: str, **values: Any) -> None:
        """The reason, as a template and its values (a value may be a refusal said in its turn)."""
        self.said = CommandRejected(template, **values)
        self.reason = self.said.message

    def as_dict(self) -> dict[str, Any]:
        return {"campaign": self.campaign, "source": self.source, "origin": self.origin, "size": self.size,
                "status": self.status, "reason": self.reason, "evidence": self.evidence, "delivered": self.delivered}


def check(path: Path, campaign: str | None = None, *, token: str | None = None,
          now: Callable[[], float] = time.time) -> list[Outcome]:
    """Check every source the witness watches (of `campaign`, or all): co-sign what extends the last
    checkpoint co-signed, refuse (and keep as evidence) what does not, deliver what was co-signed."""
    witness = open_witness(path)
    with closing(sqlite3.connect(path, timeout=30)) as connection:
        watched = connection.execute("SELECT campaign, source, token, log_vkey FROM sources"
                                     + (" WHERE campaign = ?" if campaign else "") + " ORDER BY campaign, source",
                                     (campaign,) if campaign else ()).fetchall()
    if not watched:
        if campaign:
            raise CommandRejected("the witness at {path} watches no campaign {campaign!r}: set one up with "
                                  "`rollbook witness add SOURCE -c C --name NAME`", field="campaign", path=path,
                                  campaign=campaign)
        raise CommandRejected("the witness at {path} watches nothing: set one up with "
                              "`rollbook witness add SOURCE -c C --name NAME`", field="campaign", path=path)
    outcomes = []
    for name, where, kept_token, vkey in watched:
        outcomes += _check_source(witness, name, source_for(where, token or kept_token), where, Verifier.parse(vkey), now)
    return outcomes


def _tracked_revisions(witness: Witness, key_name: str) -> set[int]:
    from ..domain.transparency.proof import parse_origin

    with closing(sqlite3.connect(witness.path, timeout=30)) as connection:
        origins = [row[0] for row in connection.execute("SELECT origin FROM latest")]
    return {parsed[2] for o in origins if name_of_origin(o) == key_name and (parsed := parse_origin(o))}


def _check_source(witness: Witness, campaign: str, source: Source, where: str, log: Verifier,
                  now: Callable[[], float]) -> list[Outcome]:
    outcomes, revisions, done = [], [None], set()
    while revisions:
        revision = revisions.pop(0)
        outcome = Outcome(campaign, where)
        outcomes.append(outcome)
        try:
            offered = parse_note(source.latest(campaign, revision))
            head = TreeHead.from_note(offered)
            outcome.origin, outcome.size = head.origin, head.size
            done.add(head.revision)
            if revision is None:  # the current revision first, then every other this witness has co-signed
                revisions += sorted(_tracked_revisions(witness, head.key_name) - done)
            _one(witness, campaign, source, where, log, offered, head, outcome, now)
        except Refusal as refusal:
            outcome.status, outcome.reason, outcome.said = "failed", refusal.reason, refusal.said
        except CommandRejected as error:
            outcome.status, outcome.reason, outcome.said = "failed", str(error), error
        except NoteError as error:
            outcome.status, outcome.reason = "failed", str(error)
    return outcomes


def _one(witness: Witness, campaign: str, source: Source, where: str, log: Verifier, offered: Note, head: TreeHead,
         outcome: Outcome, now: Callable[[], float]) -> None:
    with closing(sqlite3.connect(witness.path, timeout=30)) as connection:
        connection.row_factory = sqlite3.Row
        row = connection.execute("SELECT size, note, cosignature, delivered FROM latest WHERE origin = ?",
                                 (head.origin,)).fetchone()
    old = row["size"] if row else 0
    if row and head.size < old:
        outcome.status, outcome.evidence = "fork", [row["note"], str(offered)]
        outcome.tell(N_("the log is at {size} commands, below the {old} this witness co-signed: its history was cut "
                        "(refused)"), size=head.size, old=old)
        keep_evidence(witness, head.origin, where, N_("the log shrank"), row["note"], str(offered), now=now)
        return
    if row and head.size == old and Checkpoint.parse(parse_note(row["note"]).text).root == bytes.fromhex(head.root):
        # Delivered once is not enough: the log must still publish it (an operator may have deleted it).
        published = any(s.by(witness.verifier) for s in offered.signatures)
        outcome.status, outcome.delivered = "unchanged", bool(row["delivered"]) and published
        if not outcome.delivered:
            _deliver(witness, campaign, source, row["note"], row["cosignature"], outcome)
            if row["delivered"] and outcome.delivered:
                outcome.tell(N_("the log no longer published this witness's cosignature: sent again"))
            elif row["delivered"]:
                outcome.tell(N_("the log no longer published this witness's cosignature: {reason}"),
                             reason=outcome.said or outcome.reason)
        return
    proof = source.consistency(campaign, head.revision, old, head.size) if 0 < old < head.size else []
    request = f"old {old}\n" + "".join(base64.b64encode(p).decode() + "\n" for p in proof) + "\n" + str(offered)
    try:
        cosignature = add_checkpoint(witness, request, [log], source=where, now=now)
    except Refusal as refusal:
        if refusal.evidence is None:
            raise
        outcome.status = "fork"
        outcome.tell(N_("{reason} (refused to co-sign)"), reason=refusal.said or refusal.reason)
        outcome.evidence = list(refusal.evidence[1:])
        return
    logged = [s for s in offered.signatures if any(s.by(v) for v in verifiers_for(head.origin, [log]))]
    _deliver(witness, campaign, source, str(Note(offered.text, tuple(logged))), cosignature.line, outcome)


def _deliver(witness: Witness, campaign: str, source: Source, note: str, line: str, outcome: Outcome) -> None:
    """Send a kept cosignature to the source; marked delivered once it took it."""
    cosigned = parse_note(note).with_signatures([parse_signature_line(line.rstrip("\n"))])
    try:
        source.submit(campaign, f"witness {witness.verifier.vkey}\n\n{cosigned}")
    except Refusal as refusal:
        outcome.tell(N_("co-signed and kept, not delivered ({status}: {reason}); sent again next time"),
                     status=refusal.status, reason=refusal.said or refusal.reason)
        return
    with witness.transaction() as db:
        db.execute("UPDATE latest SET delivered = 1 WHERE note = ? AND cosignature = ?", (note, line))
    outcome.delivered = True
