"""Verbs that write: run a command file, build the demo, rebuild the projections."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, BinaryIO

import typer

from .. import settings as rollbook_settings
from . import N_, gettext, ngettext, say, JsonOption, StoreOption, app, configure_logging, fail, guarded, print_json, settings
from .files import open_file
from .opening import warn_unshown, chosen, open_store, remote_client, serving
from .posting import AllowFutureOption, local_only
from .printing import progress_bar, show_sheet

# --- writing ------------------------------------------------------------------------------

#: A file this long (in lines) shows a progress bar while it runs, on a terminal.
LONG_FILE = 200


@app.command()
@guarded
def run(
    file: Annotated[str, typer.Argument(help=N_("A JSON Lines command file, or - for standard input."))],
    store: StoreOption = None,
    campaign: Annotated[str | None, typer.Option(
        "--campaign", "-c", envvar=rollbook_settings.variable("campaign"),
        help=N_("Campaign for lines without one (default: $ROLLBOOK_CAMPAIGN, else `rollbook use`'s)."))] = None,
    as_json: JsonOption = False,
    group_commit: Annotated[str | None, typer.Option(
        "--group-commit", metavar="N", show_default=False,
        help=N_("Store N commands per transaction (default 1), each still all-or-nothing; a crash loses up to "
                "the last N, which rerunning the file applies (recorded ids are skipped)."))] = None,
    allow_future: AllowFutureOption = False,
) -> None:
    """Apply a command file to the store, each command all-or-nothing; stop at the first refusal.

    Each applied command prints its line in words (not with -q or --json), once it is stored.
    """
    size = _group_size(group_commit, store)
    local_only(allow_future, store)
    configure_logging(writing=True)
    with _lines_of(file) as lines_in:
        _run(file, lines_in, store, campaign, as_json, size, allow_future)


def _group_size(given: str | None, store: str | None) -> int:
    """`--group-commit`'s N: refused in one line, before anything is opened or written."""
    if given is None:
        return 1
    if serving(store):
        fail(gettext("--group-commit applies to a local store; with --server the server stores each command "
                     "in its own transaction: leave the option out"))
    try:
        size = int(given)
    except ValueError:
        size = 0
    if size < 1:
        fail(gettext("--group-commit: N is how many commands each transaction stores, a whole number from 1, "
                     "not {given}; nothing was run").format(given=repr(given)))
    return size


@contextmanager
def _lines_of(file: str) -> Iterator[BinaryIO]:
    """A file open to be read a line at a time, so its length costs no memory; standard input likewise,
    each command applied as its line arrives (a pipe fed turn by turn)."""
    if file == "-":
        yield sys.stdin.buffer
        return
    with open_file(file) as opened:
        yield opened


def _run(file: str, lines_in: BinaryIO, store: str | None, campaign: str | None, as_json: bool, group_commit: int,
         allow_future: bool) -> None:
    from ..commands.base import Command
    from ..commands.runner import Skip, run_file
    from ..bootstrap import service_for
    from ..commands.service import Applied
    from ..projections.queries import Reader
    from .posting import told

    quiet = as_json or settings.quiet
    # A file's derived ids belong to it (its full path); standard input derives none.
    source = None if file == "-" else str(Path(file).resolve())
    if serving(store):
        from .remote import run as run_remote

        def answered(skip: Skip | None, answer: dict[str, Any]) -> None:
            if skip is None and not quiet:
                say(answer["summary"])
            elif skip is not None and not as_json:  # a skip is never silent, -q or not
                say(skip.describe())

        report = run_remote(remote_client(store), lines_in, source=source, default_campaign=campaign,
                            on_answer=answered, kept=as_json)
    else:
        opened = open_store(store, creates=True)
        service = service_for(opened)

        # Only a file that can be rewound is counted first: a pipe (`-`, /dev/stdin, `<(…)`) is read once.
        lines = _count_lines(lines_in) if lines_in.seekable() else 0
        with progress_bar(f"running {file}", lines if lines >= LONG_FILE else 0) as done:

            def tell(line: int, command: Command, outcome: Applied) -> None:
                if outcome.status == "applied" and not quiet and command.campaign is not None:
                    say(told(service, command.campaign, outcome.command_id, settings.language))
                elif outcome.status == "skipped" and not as_json:  # a skip is never silent, -q or not
                    say(Skip.of(line, command.type, outcome).describe())
                if outcome.checkpoint is not None and not as_json:  # to paste into the thread, -q or not
                    say(outcome.checkpoint)
                done(line)

            report = run_file(service, lines_in, source=source, default_campaign=chosen(campaign, store, needed=False),
                              on_command=tell, kept=as_json, group_commit=group_commit, allow_future=allow_future)
        if not report.store_failed:
            caught = Reader(opened)
            caught.catch_up()
            warn_unshown(caught)
    summary = {
        "applied": report.applied,
        "skipped": [s.command_id for s in report.skipped],
        "skips": [s.as_dict() for s in report.skipped],
        "error": report.error.as_dict() if report.error else None,
        # Signed as a chapter, issue or story ended: ready to paste into the thread.
        "checkpoints": report.checkpoints,
    }
    if as_json:
        print_json(summary)
    else:
        skipped = ngettext(", skipped {count} command already recorded", ", skipped {count} commands already recorded",
                           report.skips).format(count=report.skips) if report.skips else ""
        say(ngettext("applied {count} command", "applied {count} commands", summary["applied"]).format(
            count=summary["applied"]) + skipped)
    if report.error is not None:
        fail(str(report.error))


def _count_lines(lines_in: BinaryIO) -> int:
    """How many lines the progress bar counts to; a file is counted a block at a time, then rewound."""
    count = sum(block.count(b"\n") for block in iter(lambda: lines_in.read(1 << 20), b"")) + 1
    lines_in.seek(0)
    return count


@app.command()
@guarded
def demo(
    store: Annotated[str, typer.Option("--store", help=N_("Where to build the demo."))] = "sqlite:///rollbook-demo.db",
    as_json: JsonOption = False,
) -> None:
    """Build the bundled example campaigns in a fresh SQLite file and print every sheet."""
    from importlib import resources

    from ..commands.runner import run_file
    from ..bootstrap import service_for
    from ..projections.queries import Reader

    configure_logging(writing=False)
    _remove_sqlite_file(store)
    opened = open_store(store, creates=True)
    service = service_for(opened)
    examples = sorted(
        (p for p in resources.files("rollbook").joinpath("examples").iterdir() if p.name.endswith(".jsonl")),
        key=lambda p: p.name,
    )
    campaigns: list[str] = []
    for example in examples:
        # Derived ids as `rollbook run` derives them for this file, so the demo run again on a store
        # that holds it (PostgreSQL is not removed as a file is) is a rerun, not a second campaign.
        report = run_file(service, example.read_bytes(), source=str(Path(str(example)).resolve()))
        if report.error is not None:
            fail(f"{example.name}: {report.error}")
        campaigns += _campaigns_in(example.read_text())
    reader = Reader(opened)
    reader.catch_up()
    everything = {c: {s["name"]: s for _, s in reader.sheets(c)} for c in campaigns}
    if as_json:
        print_json(everything)
        return
    for c in campaigns:
        header = reader.campaign(c)
        say("\n" + gettext("=== {title} ({ruleset}) — campaign id: {campaign}").format(
            title=header["title"] or c, ruleset=header["ruleset"], campaign=c))
        for kind, sheet in reader.sheets(c):
            show_sheet(kind, sheet, ruleset=header["ruleset"])
    shown = "black-sails" if "black-sails" in campaigns else campaigns[0]
    say(_next_steps(opened.url, shown, next(iter(reader.campaign(shown)["members"]))))


def _next_steps(url: str, campaign: str, name: str) -> str:
    """What to try once the demo is built, with the demo's own ids."""
    import shlex

    return "\n".join([
        "", gettext("The demo is in {url}. Try next:").format(url=url),
        f"  export ROLLBOOK_STORE={url}",
        "  rollbook campaigns",
        f"  rollbook use {campaign}                      # " + gettext("then -c can be left out"),
        "  rollbook characters",
        f"  rollbook sheet {shlex.quote(name)}",
        "  rollbook rolls",
        f"  rollbook post take_damage character={shlex.quote(name)} harm=1",
        "  rollbook post --help roll_move",
    ])


def _campaigns_in(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        if '"create_campaign"' in line:
            found.append(json.loads(line)["campaign"])
    return found


def _remove_sqlite_file(url: str) -> None:
    import shutil
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    if parsed.scheme != "sqlite":
        return
    path = Path(unquote(parsed.path)[1:])
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    shutil.rmtree(f"{path}.secrets", ignore_errors=True)
    Path(f"{path}.campaign").unlink(missing_ok=True)  # `rollbook use`'s choice belonged to the old demo


@app.command()
@guarded
def rebuild(store: StoreOption = None) -> None:
    """Drop every projection and rebuild it from the events, and every campaign's Merkle tiles from its commands."""
    from ..projections.queries import Reader
    from ..store.tlog import rebuild_trees

    configure_logging(writing=True)
    reader = Reader(open_store(store))
    with progress_bar(gettext("rebuilding"), reader.store.head()) as done:
        position = reader.rebuild(done)
    keys = reader.views.campaigns()
    rebuild_trees(reader.store, keys)
    say(gettext("rebuilt projections up to position {position}, and the Merkle tiles of {count} campaign revisions")
        .format(position=position, count=len(keys)))
