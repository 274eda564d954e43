"""Verbs that carry a campaign's history out of a store and into one: export and import."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from . import (N_, CampaignOption, JsonOption, StoreOption, app, configure_logging, fail, gettext, guarded, print_json,
               say)
from .files import unreadable
from .opening import chosen, open_store, reader_for, remote_client, serving
from .printing import phased_bar


@app.command()
@guarded
def export(
    campaign: CampaignOption = None,
    store: StoreOption = None,
    with_secrets: Annotated[bool, typer.Option("--with-secrets", help=N_("Include the seeds not yet revealed."))] = False,
) -> None:
    """Write the campaign's history (commands, dice, actors, times, disputes) as JSON Lines."""
    campaign = chosen(campaign, store)
    if serving(store):
        if with_secrets:
            fail(gettext("--with-secrets: a server never exports the seeds not yet revealed; export on its store"))
        sys.stdout.buffer.write(remote_client(store).campaign_get(campaign, "/export").content)
        sys.stdout.flush()
        return
    from ..replay.export import export_lines

    reader = reader_for(store)
    reader.campaign(campaign)
    out = sys.stdout.buffer
    for line in export_lines(reader.store, campaign, with_secrets=with_secrets):
        # Bytes, whatever the terminal's encoding: an event's line is its stored UTF-8 as is.
        out.write(line.encode("utf-8") + b"\n")
    out.flush()


#: How an import wrote the history (replay/transfer.py's `method`, kept as it is in --json), in words.
METHODS = {"copied": N_("copied"), "re-executed": N_("re-executed")}


@app.command(name="import")
@guarded
def import_(
    file: Annotated[str, typer.Argument(help=N_("An export file, or - for standard input."))],
    store: StoreOption = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1, help=N_("Commands per transaction."))] = 500,
    reexecute: Annotated[bool, typer.Option(
        "--reexecute", help=N_("Decide every command again through the rules instead of copying its events."))] = False,
    as_json: JsonOption = False,
) -> None:
    """Rebuild an exported campaign in this store (batched), with its revisions.

    A version-2 export carries every event its commands stored: they are copied, after the whole file is checked — each event against the fingerprint its command recorded, the hash chain, the aggregates' versions — so an edited or damaged file is refused with nothing written.

    That proves the file is a history a Rollbook store recorded, unedited since; it does not decide the commands again: `rollbook replay --verify` does, or import with --reexecute (slower). A version-1 export carries no events and is always re-executed.
    """
    import shutil
    import tempfile

    from ..projections.queries import Reader
    from ..replay.transfer import import_history

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
                fail(unreadable(file, error))
    else:
        try:
            path.open("rb").close()
        except OSError as error:
            fail(unreadable(file, error))

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
        gettext("imported {commands} commands ({method}) and {disputes} disputes of {campaign}").format(
            commands=summary["commands"], method=gettext(METHODS.get(summary["method"], summary["method"])),
            disputes=summary["disputes"],
            campaign=summary["campaign"])
    )
