"""Proofs a player checks with nothing but his checkpoints: `prove` (from a store or --server) and
`check-proof` (from a file, with the log's vkey: no store, no server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from . import (N_, CampaignOption, JsonOption, RevisionOption, StoreOption, app, fail, gettext, guarded, print_json,
               say)
from .files import read_file
from .opening import chosen, open_store, serving, remote_client


def _kept(file: str) -> Any:
    """The latest C2SP checkpoint in a file of checkpoints (as `verify --checkpoint` reads them)."""
    from ..domain.checkpoint import TreeHead, parse_all

    found = [c for c in parse_all(read_file(file).decode("utf-8", "replace"), where=file) if isinstance(c, TreeHead)]
    if not found:
        fail(gettext("{file}: no checkpoint of the Merkle tree in it (only old ones, which no proof can be checked "
                     "against); `rollbook checkpoint` prints one").format(file=file))
    return max(found, key=lambda c: (c.revision, c.size))


@app.command()
@guarded
def prove(
    roll: Annotated[str | None, typer.Argument(help=N_("The roll's id (or a command's), as `rollbook rolls` lists it."))] = None,
    campaign: CampaignOption = None,
    checkpoint: Annotated[str | None, typer.Option(
        "--checkpoint", help=N_("The checkpoint you kept (a file as pasted): the proof is against it."))] = None,
    consistency: Annotated[tuple[str, str] | None, typer.Option(
        "--consistency", help=N_("Two files of checkpoints, OLD NEW: prove the later extends the earlier."))] = None,
    size: Annotated[int | None, typer.Option("--size", min=1, help=N_("Prove against the log at this many commands."))] = None,
    revision: RevisionOption = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Print an inclusion proof of the command that made a roll (RFC 9162), or with --consistency OLD NEW a consistency proof between two checkpoints; `rollbook check-proof` checks either with the campaign's vkey alone."""
    campaign = chosen(campaign, store)
    if (roll is None) == (consistency is None):
        fail(gettext("give a ROLL to prove it is in the log, or --consistency OLD NEW (not both)"))
    old = new = kept = None
    if consistency is not None:
        old, new = (_kept(file) for file in consistency)
    elif checkpoint is not None:
        kept = _kept(checkpoint)
    if serving(store):
        document = _from_server(store, campaign, roll, kept, old, new, size, revision)
    else:
        from ..replay import transparency

        opened = open_store(store, to_read=True)
        if roll is not None:
            document = transparency.inclusion_proof(opened, campaign, roll, size=size, revision=revision, checkpoint=kept)
        else:
            document = transparency.consistency_proof(opened, campaign, old, new)
    if as_json:
        print_json(document)
        return
    if document["type"] == "inclusion":
        say(gettext("{proven}: command {position} of {origin}, in the log at {size} commands ({hashes} hashes; root "
                    "{root}…)").format(proven=document["roll"] or document["command"],
                                        position=document["leaf_index"] + 1, origin=document["origin"],
                                        size=document["tree_size"], hashes=len(document["path"]),
                                        root=document["root"][:16]))
    else:
        say(gettext("{origin}: the log at {new} commands extends the one at {old} ({hashes} hashes)").format(
            origin=document["origin"], new=document["new_size"], old=document["old_size"],
            hashes=len(document["path"])))
    for step in document["path"]:
        say(f"  {step}")
    say(gettext("save it with --json and check it with `rollbook check-proof FILE --vkey KEY`"))


def _from_server(store: str | None, campaign: str, roll: str | None, kept: Any, old: Any, new: Any, size: int | None,
                 revision: int | None) -> dict[str, Any]:
    """The proof from the server's /proof routes, held to the checkpoints given (a root the server's
    log does not have at that size is a different history)."""
    from ..domain.errors import CommandRejected

    remote = remote_client(store)
    if roll is not None:
        document = remote.get(remote.campaign_path(campaign, "/proof/inclusion"), roll=roll,
                              size=kept.size if kept is not None else size,
                              revision=kept.revision if kept is not None else revision).json()
        pairs = [(kept, "root", "checkpoint")] if kept is not None else []
    else:
        document = remote.get(remote.campaign_path(campaign, "/proof/consistency"), revision=new.revision,
                              **{"from": old.size, "to": new.size}).json()
        pairs = [(old, "old_root", "old_checkpoint"), (new, "new_root", "new_checkpoint")]
    for given, root, note in pairs:
        if given.root != document[root]:
            raise CommandRejected("the checkpoint at {size} commands says root {kept}…, the server's log has "
                                  "{served}…: not this history", field="checkpoint", size=given.size,
                                  kept=given.root[:16], served=document[root][:16])
        document[note] = str(given.note.with_signatures(_signatures(document[note])))
    return document


def _signatures(note: str) -> Any:
    from ..domain.transparency.note import parse_note

    return parse_note(note).signatures


def _verifiers(values: list[str], what: str) -> list[Any]:
    """vkeys given as they are, or as files holding one per line."""
    from ..domain.transparency.note import NoteError, Verifier

    found = []
    for value in values:
        texts = Path(value).read_text().split() if "+" not in value and Path(value).is_file() else [value]
        for text in texts:
            try:
                found.append(Verifier.parse(text))
            except NoteError as error:
                fail(f"{what} {value}: {error}")
    return found


@app.command(name="check-proof")
def check_proof(
    file: Annotated[str, typer.Argument(help=N_("A proof, as `rollbook prove --json` prints it."))],
    vkey: Annotated[list[str], typer.Option("--vkey", help=N_("The campaign's vkey (`rollbook checkpoint --vkey`), or a file of them."))],
    witness: Annotated[list[str] | None, typer.Option(
        "--witness", help=N_("A witness's vkey: the checkpoint must be co-signed by it; repeatable."))] = None,
    checkpoint: Annotated[str | None, typer.Option(
        "--checkpoint", help=N_("Check an inclusion proof against this checkpoint (a file as pasted) instead of its own."))] = None,
    as_json: JsonOption = False,
) -> None:
    """Check a proof with nothing but the log's vkey: the checkpoint's signature (and the witnesses'), then the RFC 9162 proof, then the command record and the roll. Needs no store and no server; exit 1 unless it holds."""
    from ..domain.transparency.proof import check

    try:
        document = json.loads(read_file(file))
    except ValueError as error:
        fail(gettext("{file}: not a proof in JSON ({error})").format(file=file, error=error))
    if not isinstance(document, dict):
        fail(gettext("{file}: not a proof (a JSON object, as `rollbook prove --json` prints it)").format(file=file))
    if checkpoint is not None:
        document["checkpoint"] = str(_kept(checkpoint).note)
    checked = check(document, _verifiers(vkey, "--vkey"), _verifiers(witness or [], "--witness"))
    if as_json:
        print_json(checked.as_dict())
    else:
        for fact in checked.facts:
            say(gettext("ok: {fact}").format(fact=fact))
        for problem in checked.problems:
            say(gettext("NOT OK: {problem}").format(problem=problem))
    if not checked.ok:
        raise typer.Exit(1)
