"""For tamper tests: would a player's proof, or his witness, catch what was done to a store?

    caught = caught_by_proof_or_witness(url, "audit", kept_checkpoint, vkey, witness_state)
    caught.proof, caught.witness        # True: caught; the reasons in .proof_reason, .witness_reason

`kept_checkpoint` is the text a player kept from before the tamper (the C2SP checkpoint `rollbook
checkpoint` printed, as pasted: the latest one in it counts), `vkey` the campaign's verifier key
he kept with it (`rollbook checkpoint --vkey`): what the store says of its own key is not trusted,
or a key swapped and re-signed would pass. `witness_state` is a witness's file (`rollbook witness
add`) that co-signed before the tamper; it is pointed at the store if it does not watch it yet.

- The proof: the store is asked for a consistency proof from the kept checkpoint to its log
  now, and the proof is checked with the kept vkey alone (`domain/transparency/proof.py`). It
  catches the tamper if the store cannot give one (its history at that size is another, or
  shorter) or the one it gives does not verify.
- The witness: `rollbook witness check` of the store. It catches the tamper if it refuses to
  co-sign (a fork, a cut) or cannot check what it is offered (a checkpoint not signed by the
  key it pinned, a tree the campaign's own state disagrees with).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..bootstrap import open_store
from ..domain.checkpoint import TreeHead, parse_all
from ..domain.errors import CommandRejected
from ..domain.transparency.note import NoteError, Verifier
from ..domain.transparency.proof import check


@dataclass
class Caught:
    proof: bool
    proof_reason: str
    witness: bool | None = None
    witness_reason: str = ""


def caught_by_proof(store_url: str, campaign: str, kept_checkpoint: str, vkey: str) -> tuple[bool, str]:
    """(caught, why) of a consistency proof from the kept checkpoint to the store's log now."""
    from ..replay.transparency import consistency_proof

    kept = [c for c in parse_all(kept_checkpoint, where="the kept checkpoint") if isinstance(c, TreeHead)]
    if not kept:
        raise ValueError("the kept checkpoint holds no C2SP checkpoint (`rollbook checkpoint` prints one)")
    old = max(kept, key=lambda c: (c.revision, c.size))
    try:
        store = open_store(store_url)
    except Exception as error:  # noqa: BLE001 - a store that cannot even be opened is caught
        return True, f"the store cannot be opened: {error}"
    try:
        document = consistency_proof(store, campaign, old)
    except (CommandRejected, NoteError, ValueError) as error:
        return True, f"no consistency proof from the kept checkpoint: {error}"
    except Exception as error:  # noqa: BLE001 - the store broke giving it: caught, said how
        return True, f"the store failed to give a proof: {type(error).__name__}: {error}"
    finally:
        store.close()
    document["old_checkpoint"] = str(old.note)
    checked = check(document, [Verifier.parse(vkey)])
    if not checked.ok:
        return True, "; ".join(checked.problems)
    return False, checked.facts[-1]


def caught_by_witness(store_url: str, campaign: str, witness_state: Path) -> tuple[bool, str]:
    """(caught, why) of a `witness check` of the store by the witness kept in `witness_state`."""
    import sqlite3
    from contextlib import closing

    from ..replay.witness import check as witness_check

    with closing(sqlite3.connect(witness_state)) as db:
        row = db.execute("SELECT log_vkey FROM sources WHERE campaign = ? LIMIT 1", (campaign,)).fetchone()
        if row is None:
            raise ValueError(f"the witness at {witness_state} never watched {campaign}")
        db.execute("INSERT OR IGNORE INTO sources (campaign, source, token, log_vkey) VALUES (?, ?, NULL, ?)",
                   (campaign, store_url, row[0]))
        db.commit()
    outcomes = [o for o in witness_check(witness_state, campaign) if o.source == store_url]
    refused = [o for o in outcomes if o.status in ("fork", "failed")]
    if refused:
        return True, "; ".join(f"{o.status}: {o.reason}" for o in refused)
    return False, "; ".join(f"{o.status} at {o.size}" for o in outcomes)


def caught_by_proof_or_witness(store_url: str, campaign: str, kept_checkpoint: str, vkey: str,
                               witness_state: Path | None = None) -> Caught:
    proof, proof_reason = caught_by_proof(store_url, campaign, kept_checkpoint, vkey)
    caught = Caught(proof, proof_reason)
    if witness_state is not None:
        caught.witness, caught.witness_reason = caught_by_witness(store_url, campaign, witness_state)
    return caught
