"""Verbs of replay and audit: replay, disputes, revisions, verification, export and import."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from . import (
    say,
    CampaignOption,
    JsonOption,
    RevisionOption,
    StoreOption,
    app,
    chosen,
    configure_logging,
    fail,
    guarded,
    open_store,
    print_json,
    read_file,
    reader_for,
    remote_client,
    settings,
)
from .printing import cell, phased_bar, progress_bar, show_table

# --- replay and audit -----------------------------------------------------------------------


@app.command()
@guarded
def replay(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    until: Annotated[str | None, typer.Option("--until", help="Stop after this point (as --at).")] = None,
    verify: Annotated[bool, typer.Option("--verify", help="Check the re-executed stream is identical to the stored one.")] = False,
    revision: RevisionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Re-execute the campaign's recorded commands, with their recorded dice, in memory (nothing is written)."""
    campaign = chosen(campaign, store)
    from ...replay.replayer import replay as run_replay
    from ...domain.campaign import spoken
    from ...replay.timetravel import key_of, resolve_point

    reader = reader_for(store)
    key = key_of(reader, campaign, revision)
    until_seq = None
    if until is not None:
        position = resolve_point(reader, key, until)
        done = [c["seq"] for c in reader.views.all(key, "command") if c["position"] <= position]
        until_seq = max(done) if done else 0
    total = until_seq if until_seq is not None else int(reader.campaign(key)["commands"])
    with progress_bar(f"replaying {spoken(key)}", 0 if as_json else total) as done:
        report = run_replay(reader.store, key, until_seq=until_seq, verify=verify,
                            on_command=lambda recorded: done(recorded.seq))
    if as_json:
        print_json(report.as_dict())
    elif report.difference is None:
        checked = f", {report.events_compared} events identical to the store" if verify else ""
        say(f"replayed {report.commands} commands of {spoken(key)}{checked}")
    if report.difference is not None:
        fail(f"replay differs at position {report.position}: {report.difference}")


@app.command()
@guarded
def dispute(
    roll: Annotated[str, typer.Argument(help="The roll's id (see `rollbook rolls`).")],
    reason: Annotated[str, typer.Option("--reason", help="Why the roll is disputed.")],
    campaign: CampaignOption = None,
    actor: Annotated[str, typer.Option("--actor", help="gm or auditor:NAME.")] = "gm",
    reroll: Annotated[bool, typer.Option("--reroll", help="Roll it again from a fresh, published seed.")] = False,
    faces: Annotated[str | None, typer.Option("--faces", help="The faces the auditor rules, e.g. 3,4.")] = None,
    drop: Annotated[bool, typer.Option("--drop", help=(
        "The command that made the roll (or the command named) did not happen; `rollbook undo CMD` does the same."))] = False,
    and_drop: Annotated[list[str] | None, typer.Option("--and-drop", help="Also strike this command (repeatable).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change; write nothing.")] = False,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Dispute a roll: recompute everything it caused, then make the corrected history the current revision.

    Re-executing the history logs nothing per command (-v shows it); one summary line says what the ruling did.
    """
    campaign = chosen(campaign, store)
    from ...domain.errors import CommandRejected
    from ...replay.dispute import Ruling
    from ...replay.dispute import dispute as run_dispute

    configure_logging(writing=False)
    try:
        parsed_faces = [int(f) for f in faces.split(",")] if faces is not None else None
    except ValueError:
        raise CommandRejected(f"--faces takes numbers separated by commas, not {faces!r}", field="faces") from None
    if settings.server:  # the server rules as the token's user: its role says gm or auditor:NAME
        from .remote import dispute as dispute_remotely

        shown = dispute_remotely(remote_client(), campaign, {
            "roll": roll, "reason": reason, "reroll": reroll, "faces": parsed_faces, "drop": drop,
            "and_drop": list(and_drop or []), "dry_run": dry_run})
    else:
        ruling = Ruling(roll=roll, reason=reason, actor=actor, reroll=reroll, faces=parsed_faces, drop=drop,
                        also_drop=list(and_drop or []))
        with phased_bar(not as_json) as done:
            shown = run_dispute(open_store(store), campaign, ruling, dry_run=dry_run,
                                progress=lambda n, total: done("re-executing", n, total)).as_dict()
    if as_json:
        print_json(shown)
        return
    show_ruling(f"Dispute of {roll}", shown, dry_run=dry_run)


def show_ruling(title: str, shown: dict[str, Any], *, dry_run: bool) -> None:
    """What a ruling changed (its `--json`, from the store or a server), then one line that sums it up."""
    from ...projections.narration import counted

    if shown.get("rerun"):  # the same ruling made the current revision already: nothing was written
        typer.echo(f"{shown['dispute']} made revision {shown['revision']} with this very ruling already; nothing written")
        return
    verb = "would change" if dry_run else f"changed (now revision {shown['revision']})"
    show_table(f"{title}: what {verb}", ["what", "path", "before", "after"], shown["differences"])
    if shown["not_applied"]:
        show_table("Commands the corrected history cannot apply", ["seq", "id", "type", "reason"], shown["not_applied"])
    where = "would be" if dry_run else f"is now revision {shown['revision']},"
    say(f"{shown['dispute']}: the campaign {where} {counted(len(shown['differences']), 'value')} changed, "
               f"{counted(len(shown['not_applied']), 'command')} no longer applied")


@app.command()
@guarded
def revisions(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Every revision of a campaign, with the dispute that made it."""
    campaign = chosen(campaign, store)
    from ...replay.dispute import revisions as list_revisions

    reader = reader_for(store)
    reader.campaign(campaign)
    rows = list_revisions(reader.store, campaign)
    if as_json:
        print_json(rows)
        return
    show_revisions(campaign, rows)


def show_revisions(campaign: str, rows: list[dict[str, Any]], *, out: Any = None) -> None:
    """In 80 columns: the ruling in words, its time to the minute (`--json` has it whole, and the dispute's id)."""
    shown = [{**r, "at": (r.get("at") or "")[:16].replace("T", " "),
              "ruling": f"{_decided(r['decision'])} by {r['actor']}" if r.get("dispute") else ""} for r in rows]
    show_table(f"Revisions of {campaign}", ["revision", "roll", "ruling", "reason", "at"], shown, out=out)


def _decided(decision: dict[str, Any]) -> str:
    """A ruling in words: `drop`, `faces 5, 2`, `reroll`."""
    return ", ".join(key if value is True else f"{key} {cell(value)}" for key, value in decision.items()
                     if value not in (None, False, []))


@app.command()
@guarded
def verify(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    revision: RevisionOption = None,
    checkpoint: Annotated[list[str] | None, typer.Option(
        "--checkpoint", help="A checkpoint (as pasted, or JSON) the store must hold to; repeatable.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Recompute the hash chain, snapshots, every revealed seed's rolls and the nonces, and hold every stored event of the campaign to a recorded command (and its history to the checkpoints given); exit 1 on any finding. Only reads."""
    campaign = chosen(campaign, store)
    from ...domain.campaign import spoken
    from ...domain.checkpoint import parse

    published = [(file, parse(read_file(file).decode("utf-8", "replace"), where=file)) for file in checkpoint or []]
    opened = open_store(store, to_read=True)
    try:
        reports = _verified(opened, campaign, revision, published)
    finally:
        opened.close()
    if as_json:
        print_json({key: r.as_dict() for key, r in reports.items()})
    else:
        for key, r in reports.items():
            say(f"{spoken(key)}: {r.commands} commands chained (head {r.head[:16]}…), {r.rolls_checked} rolls recomputed "
                f"from {r.seeds_revealed} revealed seeds, {len(r.unverifiable)} rolls not verifiable yet, "
                f"{len(r.findings)} findings")
            for finding in r.findings:
                say(f"  {finding}")
            for roll in r.unverifiable:
                say(f"  not verifiable: roll {roll.roll} ({roll.reason})")
    if any(not r.ok for r in reports.values()):
        first = min((f for r in reports.values() for f in r.findings), key=lambda f: f.position or 0)
        fail(f"verification failed; first finding at {first}")


def _verified(opened: Any, campaign: str, revision: int | None, published: list[Any]) -> dict[str, Any]:
    """Every revision's report (or the one asked for), from the store alone and the checkpoints published."""
    from ...domain.campaign import revision_key
    from ...domain.errors import UnknownName
    from ...domain.ids import campaign_id
    from ...replay.verify import verify as run_verify

    # No catching up: verify writes nothing, so it runs on a read-only file and a full disk.
    projected, projected_to = _projected(opened, campaign)
    root = opened.app.repository.get(campaign_id(campaign)) if _stored(opened, campaign) else None
    if root is None and not projected:
        raise UnknownName(f"no campaign {campaign!r} in this store", field="campaign")
    revisions = root.revision if root is not None else 1
    if revision is not None and not 1 <= revision <= revisions:
        raise UnknownName(f"{campaign} has revisions 1..{revisions}, not {revision}", field="revision")
    numbers = [revision] if revision is not None else list(range(1, revisions + 1))
    held = {n: [(where, c) for where, c in published if c.revision == n] for n in numbers}
    # A checkpoint of no revision verified here is held to the last one, and named as not its own.
    held[numbers[-1]] += [(where, c) for where, c in published if c.revision not in held]
    # The projections' position is the store's, not a revision's: held once, with the first report.
    return {revision_key(campaign, n): run_verify(opened.app, revision_key(campaign, n), projected=projected,
                                                   checkpoints=held[n], projected_to=projected_to if i == 0 else None)
            for i, n in enumerate(numbers)}


def _projected(opened: Any, campaign: str) -> tuple[bool, int | None]:
    """Whether the projections show the campaign, and up to which position they have read; a
    store that never had them (and cannot make them) shows nothing."""
    from ...projections.queries import Reader
    from ...store.failures import is_store_failure

    try:
        views = Reader(opened).views
        return views.get(campaign, "campaign", "") is not None, views.position()
    except Exception as error:
        if not is_store_failure(error):
            raise
        return False, None


@app.command(name="checkpoint")
@guarded
def checkpoint_(campaign: CampaignOption = None, store: StoreOption = None, as_json: JsonOption = False) -> None:
    """Sign the campaign's chain head now: a short text to paste into the thread (`verify --checkpoint` holds the store to it)."""
    campaign = chosen(campaign, store)
    from datetime import UTC, datetime

    from ...domain.campaign import revision_of
    from ...domain.checkpoint import sign
    from ...domain.errors import CommandRejected, UnknownName
    from ...domain.ids import campaign_id

    opened = open_store(store, to_read=True)
    try:
        root = opened.app.repository.get(campaign_id(campaign)) if _stored(opened, campaign) else None
        if root is None:
            raise UnknownName(f"no campaign {campaign!r} in this store", field="campaign")
        current = opened.app.repository.get(campaign_id(root.current_key))
        if root.public_key is None:
            raise CommandRejected(f"{campaign} was created before checkpoints and has no signing key", field="campaign")
        signed = sign(opened.keys, root.public_key, campaign, revision_of(current.campaign), current.seq,
                      current.chain, datetime.now(UTC).isoformat(timespec="seconds"))
        if signed is None:
            raise CommandRejected(f"the signing key of {campaign} is not kept beside this store (a copy?)",
                                  field="campaign")
    finally:
        opened.close()
    if as_json:
        print_json(signed.as_dict())
    else:
        say(signed.text(root.public_key).rstrip("\n"))


def _stored(opened: Any, campaign: str) -> bool:
    from ...domain.ids import campaign_id

    return bool(opened.app.recorder.select_events(campaign_id(campaign), limit=1))


@app.command()
@guarded
def export(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    with_secrets: Annotated[bool, typer.Option("--with-secrets", help="Include the seeds not yet revealed.")] = False,
) -> None:
    """Write the campaign's history (commands, dice, actors, times, disputes) as JSON Lines."""
    campaign = chosen(campaign, store)
    from ...replay.export import export_lines

    reader = reader_for(store)
    reader.campaign(campaign)
    out = sys.stdout.buffer
    for line in export_lines(reader.store, campaign, with_secrets=with_secrets):
        # Bytes, whatever the terminal's encoding: an event's line is its stored UTF-8 as is.
        out.write(line.encode("utf-8") + b"\n")
    out.flush()


@app.command(name="import")
@guarded
def import_(
    file: Annotated[str, typer.Argument(help="An export file, or - for standard input.")],
    store: StoreOption = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help="Commands per transaction.")] = 500,
    reexecute: Annotated[bool, typer.Option(
        "--reexecute", help="Decide every command again through the rules instead of copying its events.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Rebuild an exported campaign in this store (batched), with its revisions.

    A version-2 export carries every event its commands stored: they are copied, after the whole file is checked — each event against the fingerprint its command recorded, the hash chain, the aggregates' versions — so an edited or damaged file is refused with nothing written.

    That proves the file is a history a Rollbook store recorded, unedited since; it does not decide the commands again: `rollbook replay --verify` does, or import with --reexecute (slower). A version-1 export carries no events and is always re-executed.
    """
    import shutil
    import tempfile

    from ...projections.queries import Reader
    from ...replay.transfer import import_history

    configure_logging(writing=False)
    path, spool = Path(file), None
    if file == "-" or (path.exists() and not path.is_file()):
        # Read twice (checked, then copied): standard input, or a pipe named by a path (/dev/stdin,
        # a shell's `<(…)`), which gives its lines once, is kept in a temporary file.
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - closed below, after both reads
        if file == "-":
            shutil.copyfileobj(sys.stdin.buffer, spool)
        else:
            try:
                with path.open("rb") as piped:
                    shutil.copyfileobj(piped, spool)
            except OSError as error:
                fail(f"cannot read {file}: {error.strerror}")
    else:
        try:
            path.open("rb").close()
        except OSError as error:
            fail(f"cannot read {file}: {error.strerror}")

    def open_lines() -> Iterator[bytes]:
        if spool is not None:
            spool.seek(0)
            # Through `iter`, which has no close(): `yield from spool` would close the spool
            # when a reader stops early (the header is read alone).
            yield from iter(spool.readline, b"")
            return
        with path.open("rb") as lines:
            yield from lines

    opened = open_store(store, creates=True)
    try:
        with phased_bar(not as_json) as done:
            summary = import_history(opened, open_lines, batch_size=batch_size, reexecute=reexecute, progress=done)
    finally:
        if spool is not None:
            spool.close()
    Reader(opened).catch_up()
    print_json(summary) if as_json else say(
        f"imported {summary['commands']} commands ({summary['method']}) and {summary['disputes']} disputes "
        f"of {summary['campaign']}"
    )
