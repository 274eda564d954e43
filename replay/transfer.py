"""Importing a campaign into a store (`rollbook import`), from the file `rollbook export` writes
(export.py says what it holds).

A version-2 file carries every event its commands stored: importing copies them, checked against the commands' recorded
fingerprints and hash chain, in batches of many commands per transaction (replay/copy.py
says how, and what the check proves). A version-1 file carries no events, so it is
re-executed: every command decided again through the service with its recorded dice and
time, which `--reexecute` also asks for a version-2 file. Either way each ruling is then
re-applied, so the copy has the same revisions, the same sheets, and passes `rollbook verify`.

Seeds exported with `--with-secrets` are kept as the original's, so the copy rolls from its
current seed; without them it can still be read, verified and played with typed dice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

from ..commands.service import Rollbook
from ..domain.revisions import REVISION_MARK
from ..domain.errors import CommandRejected, Word
from ..domain.ids import campaign_id, id_problem
from ..domain.imports import ImportRecord
from ..language import N_
from ..store import Store
from ..store.logs import silenced
from ..store.reads import AggregateNotFoundError, StoredEvent, decoded, has_events
from .copy import HistoryCheck, Progress, copy_history
from .export_lines import parse_line, read_entries
from .dispute import Ruling, dispute
from .export import FORMAT, READABLE, Trailer
from .history import RecordedCommand
from .reexecute import RecordedSeeds, RecordedSigner, RecordedSupply


def import_history(
    store: Store,
    open_lines: Callable[[], Iterator[bytes]],
    *,
    batch_size: int = 500,
    reexecute: bool = False,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Import an export: copied (version 2) or re-executed (version 1, or `reexecute`).

    `open_lines` opens the file afresh each time it is called: a copy reads it twice,
    checking everything before it writes anything.
    """
    campaign, version = _header(open_lines())
    under_way = _under_way(store, campaign)
    if version == 1 or reexecute:
        _decidable(read_entries(open_lines()))
        if under_way is None:
            _rehearsed(store, campaign, read_entries(open_lines()))
        trailer, first_revision = _surveyed(open_lines())
        begun = _begin(store, campaign, trailer, under_way)
        summary = _reexecute(store, campaign, read_entries(open_lines()), batch_size=batch_size, progress=progress,
                             begun=begun, total=first_revision)
        _finish(store, campaign, trailer, N_("the re-executed copy"))
        return summary
    root = store.get(campaign_id(campaign)) if under_way is not None else None
    done = root.seq if root is not None else 0  # a rerun carries on after the commands stored
    stored_chain: str | None = None
    check = HistoryCheck(store, campaign)
    rulings: list[dict[str, Any]] = []
    secrets: list[dict[str, Any]] = []
    trailer: Trailer | None = None
    counted = _counted(open_lines()) if progress is not None else None
    if progress is not None:
        progress("checking", 0, counted)
    read = 0  # command lines, of every revision: what the trailer counts
    for number, kind, entry in read_entries(open_lines()):
        read += kind == "command"
        if kind == "command" and "revision" in entry:
            _played_after(rulings, number, entry)
        elif kind == "command":
            check.line(number, entry)
            if entry["seq"] == done:
                stored_chain = entry["chain"]
            if progress is not None and read % batch_size == 0:
                progress("checking", read, counted)
        elif kind == "dispute":
            rulings.append(_ruling(number, entry))
        elif kind == "trailer":
            trailer = Trailer.read(number, entry)
        else:
            secrets.append(_secret(number, entry))
    assert trailer is not None, "read_entries refuses a file without its trailer"
    trailer.check(check.checked.commands + sum(len(r["played_after"]) for r in rulings), [r["dispute"] for r in rulings])
    if not rulings:  # else the head follows the rulings, which only re-applying them makes
        trailer.check_head(check.previous_chain, N_("the file's last command"))
    if under_way is None:
        checked = check.finish()
    else:
        checked = check.checked
        if root is not None and done <= checked.commands and root.chain != stored_chain:
            raise CommandRejected("the unfinished import of {campaign!r} here is not of this file: its command "
                                  "{done} differs; nothing was imported", field="file", campaign=campaign, done=done)
    begun = _begin(store, campaign, trailer, under_way)
    commands = (
        (number, entry) for number, kind, entry in read_entries(open_lines())
        if kind == "command" and "revision" not in entry
    )
    copied = copy_history(store, commands, checked, batch_size=batch_size, progress=progress,
                          after=min(done, checked.commands), begun=begun)
    for entry in secrets:
        _keep_secret(store, campaign, entry)
    _apply_rulings(store, campaign, rulings)
    _finish(store, campaign, trailer, N_("the copy, its rulings re-applied,"))
    return {"campaign": campaign, "commands": copied, "disputes": len(rulings), "events": checked.events,
            "method": "copied"}


def _under_way(store: Store, campaign: str) -> ImportRecord | None:
    """This store's unfinished import of the campaign, if a killed one left it; a whole campaign is refused."""
    try:
        record = store.get(ImportRecord.id_for(campaign))
    except AggregateNotFoundError:
        record = None
    if record is None or record.finished:
        if has_events(store, campaign_id(campaign)):
            raise CommandRejected("campaign {campaign!r} already exists in this store", field="campaign",
                                  campaign=campaign)
        return None
    return record


def _begin(store: Store, campaign: str, trailer: Trailer, under_way: ImportRecord | None) -> list[StoredEvent]:
    """The import's record, to be stored with its first batch: a fragment always says it is one."""
    if under_way is not None:
        if (under_way.commands, under_way.head) != (trailer.commands, trailer.head):
            raise CommandRejected("an import of another export of {campaign!r} is unfinished in this store "
                                  "({commands} commands, head {head}…); nothing was imported", field="file",
                                  campaign=campaign, commands=under_way.commands, head=under_way.head[:16])
        return []
    record = ImportRecord(copy_of=campaign, commands=trailer.commands, head=trailer.head)
    return store.stored(record.collect_events())


def _finish(store: Store, campaign: str, trailer: Trailer, what: str) -> None:
    """The copy is whole once its chain is at the trailer's head: only then is the import finished."""
    trailer.check_head(_head(store, campaign), what)
    record = store.get(ImportRecord.id_for(campaign))
    record.finish()
    store.save(record)


def _counted(lines: Iterator[bytes]) -> int | None:
    """How many commands the trailer says the file holds, read before the file is (for a progress bar's
    total only: the checking pass holds the file to it); None if the last line is no trailer."""
    last = None
    for line in lines:
        if line.strip():
            last = line
    try:
        entry = parse_line(2, last) if last is not None else None
    except CommandRejected:
        return None
    commands = entry.get("commands") if isinstance(entry, dict) and entry.get("kind") == "trailer" else None
    return commands if isinstance(commands, int) else None


def _surveyed(lines: Iterator[bytes]) -> tuple[Trailer, int]:
    """A file to re-execute, read once first: its trailer, checked against the lines it counts, and how
    many commands of its first revision there are to re-execute."""
    commands, first_revision, rulings, trailer = 0, 0, [], None
    for number, kind, entry in read_entries(lines):
        commands += kind == "command"
        first_revision += kind == "command" and "revision" not in entry
        if kind == "dispute":
            rulings.append(entry.get("dispute"))
        elif kind == "trailer":
            trailer = Trailer.read(number, entry)
    assert trailer is not None, "read_entries refuses a file without its trailer"
    trailer.check(commands, rulings)
    return trailer, first_revision


def _head(store: Store, campaign: str) -> str:
    return str(store.get(campaign_id(campaign)).chain)


def import_lines(
    store: Store, lines: Iterator[str], *, batch_size: int = 500, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Import from lines in memory (tests, callers with the file read already)."""
    kept = [line.encode("utf-8") for line in lines]
    report = None if progress is None else (lambda phase, done, _: progress(done) if phase != "checking" else None)
    return import_history(store, lambda: iter(kept), batch_size=batch_size, progress=report)


def _header(lines: Iterator[bytes]) -> tuple[str, int]:
    first = next((line for line in lines if line.strip()), None)
    header = parse_line(1, first) if first is not None else {}
    if header.get("format") != FORMAT or not isinstance(header.get("campaign"), str):
        raise CommandRejected("not a rollbook export (its first line has no format header)", field="format")
    problem = id_problem(header["campaign"])
    if problem is not None:
        raise CommandRejected("line 1: campaign: {campaign!r} cannot be an id: it {problem}; nothing was imported",
                              field="campaign", campaign=header["campaign"], problem=Word(problem))
    version = header.get("version", 1)
    if version not in READABLE:
        raise CommandRejected("export format version {version!r} is not one this Rollbook reads ({readable})",
                              field="format", version=version, readable=", ".join(map(str, READABLE)))
    return header["campaign"], version


def _decidable(entries: Iterator[tuple[int, str, dict[str, Any]]]) -> None:
    """Before anything is written, refuse a file re-execution cannot decide: every line must read, and
    no command may be a record of events appended without deciding (`history`, the testing kit's)."""
    for number, kind, entry in entries:
        command = entry.get("command") if kind == "command" else None
        if isinstance(command, dict) and command.get("type") == "history":
            raise CommandRejected(
                "line {number}: command.type: a `history` record ({description}) "
                "holds events no rule decided, so it cannot be re-executed; import the file without --reexecute; "
                "nothing was imported", field="file", number=number,
                description=command.get("description", "events appended"),
            )


def _rehearsed(store: Store, campaign: str, entries: Iterator[tuple[int, str, dict[str, Any]]]) -> None:
    """Before anything is written, decide the file's first revision again in memory (nothing stored) and hold
    each command to the chain the file records for it: a line whose dice, seeds or command were edited is
    refused, naming it, and nothing was imported (re-executed, it would store what it was edited to)."""
    from ..store.unit_of_work import MemoryUnit
    from .reexecute import reexecute

    lines: dict[int, tuple[int, RecordedCommand]] = {}

    def history() -> Iterator[RecordedCommand]:
        for number, kind, entry in entries:
            if kind == "command" and "revision" not in entry:
                recorded = _recorded(number, {k: v for k, v in entry.items() if k not in ("events", "first_event_line")})
                lines[recorded.seq] = (number, recorded)
                yield recorded

    def held(_: Any, stored: Any) -> None:
        applied = decoded(store, stored[-1])
        number, recorded = lines[applied.seq]
        if applied.chain != recorded.chain:
            raise _NotAsRecorded(number, recorded)

    try:
        with silenced():
            reexecute(history(), store, key=campaign, keeper=store.seeds, signing_keys=store.keys, source=store,
                      unit=MemoryUnit(store, held))
    except _NotAsRecorded as differs:
        number, recorded = differs.args
        raise CommandRejected("line {number} (command {id!r}, seq {seq}): re-executed, it is not the command the "
                              "file records (its hash chain differs): its rolls, seeds or command were edited; "
                              "nothing was imported", field="file", number=number, id=recorded.id,
                              seq=recorded.seq) from None


class _NotAsRecorded(Exception):
    """A command of the file re-executed to another record than the file's: the rehearsal stops there."""


def _reexecute(
    store: Store, campaign: str, entries: Iterator[tuple[int, str, dict[str, Any]]], *,
    batch_size: int, progress: Progress | None, begun: list[StoredEvent], total: int,
) -> dict[str, Any]:
    """Decide every command again through the service, with its recorded dice, time and seeds."""
    from ..commands.parse import parse_command

    seeds, signer = RecordedSeeds(store.seeds), RecordedSigner(store.keys)
    supply: dict[str, RecordedSupply] = {}
    service = Rollbook(store, dice_for=lambda c: supply.pop(c.id or "", RecordedSupply([])), seeds=seeds,
                       testing_kit=True, signer=signer)
    imported, rulings, pending = 0, [], []

    def flush() -> None:
        nonlocal imported
        with service.batch() as batched:
            if begun:  # the import's record, with the first batch
                batched.unit.adopt(begun)
                begun.clear()
            for recorded in pending:
                seeds.expect(recorded)
                signer.expect(recorded, campaign)
                supply[recorded.id] = RecordedSupply(recorded.rolls)
                batched.execute(parse_command(dict(recorded.command), ruleset_of=batched.ruleset_of))
        imported += len(pending)
        pending.clear()
        if progress is not None:
            progress("re-executing", imported, total)

    for number, kind, entry in entries:
        if kind == "command" and "revision" in entry:
            _played_after(rulings, number, entry)
        elif kind == "command":
            entry.pop("events", None)  # a version-2 line re-executed: its events are decided again
            entry.pop("first_event_line", None)
            pending.append(_recorded(number, entry))
            if len(pending) >= batch_size:
                flush()
        elif kind == "dispute":
            rulings.append(_ruling(number, entry))
        elif kind == "secret":
            _keep_secret(store, campaign, _secret(number, entry))
    flush()
    _apply_rulings(store, campaign, rulings)
    return {"campaign": campaign, "commands": imported, "disputes": len(rulings), "method": "re-executed"}


def _ruling(number: int, entry: dict[str, Any]) -> dict[str, Any]:
    decision = entry.get("decision")
    if not isinstance(decision, dict) or not all(isinstance(entry.get(k), str) for k in ("roll", "reason", "actor", "dispute")):
        raise CommandRejected("line {number}: a dispute needs roll, reason, actor, dispute and decision; "
                              "nothing was imported", field="file", number=number)
    try:  # re-applied at its recorded time, the ruling's record is the original's, byte for byte
        at = datetime.fromisoformat(entry["at"])
    except (KeyError, TypeError, ValueError):
        raise CommandRejected("line {number}: a dispute needs the time it was ruled (`at`, ISO-8601); "
                              "nothing was imported", field="file", number=number) from None
    return {**entry, "at": at, "played_after": []}


def _played_after(rulings: list[dict[str, Any]], number: int, entry: dict[str, Any]) -> None:
    """A command played on a later revision belongs after the ruling that made that revision."""
    revision = entry.pop("revision")
    if not rulings or rulings[-1].get("revision") != revision:
        raise CommandRejected("line {number}: a command of revision {revision!r} must follow the ruling that "
                              "made that revision; nothing was imported", field="file", number=number,
                              revision=revision)
    entry.pop("events", None)
    entry.pop("first_event_line", None)
    rulings[-1]["played_after"].append(_recorded(number, entry))


def _recorded(number: int, entry: dict[str, Any]) -> RecordedCommand:
    try:
        return RecordedCommand(**entry)
    except TypeError as error:
        raise CommandRejected("line {number}: not a recorded command ({error})", field="file", number=number,
                              error=error) from None


def _apply_rulings(store: Store, campaign: str, rulings: list[dict[str, Any]]) -> None:
    for entry in rulings:
        decision = entry["decision"]
        ruling = Ruling(
            roll=entry["roll"], reason=entry["reason"], actor=entry["actor"],
            reroll=bool(decision.get("reroll")), faces=decision.get("faces"), drop=bool(decision.get("drop")),
            also_drop=list(decision.get("also_drop", [])),
        )
        dispute(store, campaign, ruling, dry_run=False, dispute_id=entry["dispute"], seed=decision.get("seed"),
                at=entry["at"], signatures=entry.get("checkpoints"),
                name_replaced="replaces" in entry)  # a ruling exported before rulings named it: made as it was
        _decide_again(store, entry["played_after"])


def _decide_again(store: Store, history: list[RecordedCommand]) -> None:
    """Commands with their recorded dice, times and seeds, each to the campaign's current revision."""
    from ..commands.parse import parse_command

    seeds, signer = RecordedSeeds(store.seeds), RecordedSigner(store.keys)
    supply: dict[str, RecordedSupply] = {}
    service = Rollbook(store, dice_for=lambda c: supply.pop(c.id or "", RecordedSupply([])), seeds=seeds,
                       testing_kit=True, signer=signer)
    for recorded in history:
        seeds.expect(recorded)
        signer.expect(recorded, str(recorded.command.get("campaign")).split(REVISION_MARK, 1)[0])
        supply[recorded.id] = RecordedSupply(recorded.rolls)
        service.execute(parse_command(dict(recorded.command), ruleset_of=service.ruleset_of))


def _secret(number: int, entry: dict[str, Any]) -> dict[str, Any]:
    try:
        bytes.fromhex(entry["seed"])
    except (KeyError, TypeError, ValueError):
        raise CommandRejected("line {number}: a secret needs its seed in hex; nothing was imported",
                              field="file", number=number) from None
    return entry


def _keep_secret(store: Store, campaign: str, entry: dict[str, Any]) -> None:
    keep = getattr(store.seeds, "keep", None)
    if keep is None:
        raise CommandRejected("this store cannot keep imported secret seeds", field="seed")
    keep(campaign, bytes.fromhex(entry["seed"]))
