"""The log's side of C2SP tlog-witness: a campaign names external witnesses (a URL and the witness's vkey), and
`rollbook checkpoint` sends each its checkpoint, with the consistency proof from the size it co-signed last, by
`POST URL/add-checkpoint`; the cosignatures they answer are kept and published with the checkpoint.

A witness that answers 409 says the size it co-signed last (`text/x.tlog.size`): the request is made again once,
with the proof from that size. Any other refusal is said, and the checkpoint is still printed: it waits for
nobody. Rollbook's own `rollbook witness serve` is one such witness.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any

from ..domain.errors import CommandRejected
from ..domain.transparency.note import COSIGNATURE_V1, Note, NoteError, Verifier, parse_signature_line
from ..domain.transparency.proof import verifiers_for
from ..store import Store
from ..store.tlog_rows import rows_for
from .transparency import Log, open_log

_SIZE = re.compile(r"(0|[1-9][0-9]{0,19})\n?")
#: How long one witness may take to answer, in seconds: `rollbook checkpoint` waits for each in turn.
TIMEOUT = 10


@dataclass
class Asked:
    """What one witness answered to one checkpoint."""

    url: str
    witness: str
    status: str  # cosigned, unchanged, refused, failed
    reason: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"url": self.url, "witness": self.witness, "status": self.status, "reason": self.reason}


def name_witness(store: Store, campaign: str, url: str, vkey: str) -> Verifier:
    """The campaign sends its checkpoints to the witness at `url`, whose cosignatures `vkey` checks."""
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
        raise CommandRejected("a witness's URL is http(s)://HOST[/PATH], not {url!r}", field="url", url=url[:80])
    try:
        witness = Verifier.parse(vkey)
    except NoteError as error:
        raise CommandRejected("the witness's vkey: {error}", field="vkey", error=error) from None
    if witness.kind != COSIGNATURE_V1:
        raise CommandRejected("{name}'s vkey is not a cosignature key (type 0x04)", field="vkey", name=witness.name)
    open_log(store, campaign)  # a campaign with a log, or a one-line refusal
    rows_for(store).put_witness(campaign, url.rstrip("/"), witness.vkey)
    return witness


def named_witnesses(store: Store, campaign: str) -> list[tuple[str, str]]:
    """The witnesses the campaign sends its checkpoints to: (URL, vkey)."""
    return rows_for(store).witnesses(campaign)


def send_to_witnesses(store: Store, campaign: str) -> list[Asked]:
    """Send the campaign's checkpoint now to every witness it names; keep what they co-sign."""
    named = named_witnesses(store, campaign)
    if not named:
        return []
    log = open_log(store, campaign)
    return [_ask(log, url, Verifier.parse(vkey)) for url, vkey in named]


def _ask(log: Log, url: str, witness: Verifier) -> Asked:
    import httpx

    rows = rows_for(log.store)
    head = log.head()
    asked = Asked(url, witness.name, "failed")
    if any(s.by(witness) for s in head.signatures):  # kept already: checked when it was kept
        asked.status = "unchanged"
        return asked
    own = verifiers_for(head.origin, [log.verifier])
    signed = Note(head.body(), tuple(s for s in head.signatures if any(s.by(v) for v in own)))
    old = rows.largest_cosigned(head.origin, witness.vkey) or 0
    for _ in range(2):  # once more after a 409 names the witness's size
        if old > head.size:
            asked.reason = f"the witness co-signed {head.origin} at {old}, above the log's {head.size}"
            return asked
        proof = log.tree.consistency(old, head.size) if 0 < old < head.size else []
        body = f"old {old}\n" + "".join(base64.b64encode(h).decode() + "\n" for h in proof) + "\n" + str(signed)
        try:
            answer = httpx.post(f"{url}/add-checkpoint", content=body.encode(), timeout=TIMEOUT,
                                headers={"Content-Type": "text/plain; charset=utf-8"})
        except httpx.HTTPError as error:
            asked.reason = f"cannot reach {url}: {error}"
            return asked
        if answer.status_code == 409 and _SIZE.fullmatch(answer.text) and int(answer.text) != old:
            old = int(answer.text)
            continue
        break
    if answer.status_code != 200:
        asked.status, asked.reason = "refused", f"{answer.status_code}: {answer.text.strip()[:300]}"
        return asked
    try:
        lines = [parse_signature_line(line) for line in answer.text.splitlines() if line]
        cosigned = [line for _, line in signed.with_signatures(lines).verified([witness])]
    except NoteError as error:
        asked.reason = f"its answer is not its cosignature of the checkpoint: {error}"
        return asked
    if not cosigned:
        asked.reason = f"its answer holds no cosignature by {witness.vkey}"
        return asked
    for line in cosigned:
        rows.put_cosignature(head.origin, head.size, head.root, witness.vkey, line.line, int(line.timestamp or 0))
    asked.status = "cosigned"
    return asked
